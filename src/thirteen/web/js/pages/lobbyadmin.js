// The admin's tools in the lobby: the dialog to open a table (POST /api/tables: preset, stakes,
// seats, bots, buy-ins, time bank, timers) and the one to close a table, which asks first.

import { request } from "../api.js";
import { announce, errorText, h } from "../ui.js";
import { BOT_LEVELS, PRESETS, checkInputs, checkbox, field, formAlert, uid } from "./common.js";

/** @typedef {import("./lobbytables.js").LobbyTable} LobbyTable */

/**
 * The admin's dialog to open a table: POST /api/tables.
 * @param {(table: LobbyTable) => void} created
 * @returns {HTMLDialogElement}
 */
export function createTableDialog(created) {
  /** @param {string} name @param {Record<string, any>} [more] */
  const number = (name, more = {}) =>
    /** @type {HTMLInputElement} */ (h("input", { name, type: "number", inputmode: "decimal", ...more }));
  const name = /** @type {HTMLInputElement} */ (h("input", { name: "name", maxlength: 64 }));
  const preset = /** @type {HTMLSelectElement} */ (
    h("select", { name: "preset" }, ...PRESETS.map((p) => h("option", { value: p }, p)))
  );
  const unit = number("unit", { min: 1, max: 1000000, step: 1, value: 1, required: true });
  const seats = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name: "seats" },
      h("option", { value: "" }, "As the game allows"),
      h("option", { value: "2" }, "2"),
      h("option", { value: "3" }, "3"),
      h("option", { value: "4" }, "4"),
    )
  );
  const bots = number("bots", { min: 0, max: 4, step: 1, value: 0, required: true });
  const botLevel = /** @type {HTMLSelectElement} */ (
    h("select", { name: "bot-level" }, ...BOT_LEVELS.map((l) => h("option", { value: l }, l)))
  );
  botLevel.value = "strong";
  const minBuyIn = number("min-buy-in", { min: 1, step: 1, placeholder: "50 × unit" });
  const maxBuyIn = number("max-buy-in", { min: 1, step: 1, placeholder: "200 × unit" });
  const practice = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", name: "practice" }));
  const timeBank = number("time-bank", { min: 0, max: 600, step: "any", value: 30, required: true });
  /** @type {[string, string, HTMLInputElement][]} */
  const timers = [
    ["set_hand_seconds", "Setting a hand", number("set-hand", { min: 1, step: "any" })],
    ["first_street_seconds", "First street", number("first-street", { min: 1, step: "any" })],
    ["street_seconds", "Later streets", number("street", { min: 1, step: "any" })],
    ["fantasyland_seconds", "Fantasyland", number("fantasyland", { min: 1, step: "any" })],
    ["showdown_seconds", "Showdown on show", number("showdown", { min: 0, step: "any" })],
  ];
  const alert = formAlert();
  const submit = h("button", { type: "submit", class: "primary" }, "Create");
  const headingId = uid("create-heading");
  const dialog = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      { class: "page-dialog", "aria-labelledby": headingId },
      h(
        "form",
        { class: "form-stack", novalidate: true },
        h("h2", { id: headingId }, "Create table"),
        h(
          "div",
          { class: "form-grid" },
          field("Name", name, "Optional; the preset's name otherwise."),
          field("Preset", preset),
          field("Unit (chips per point)", unit),
          field("Seats", seats),
          field("Bots", bots),
          field("Bot level", botLevel),
          field("Minimum buy-in", minBuyIn, "Optional; 50 units otherwise."),
          field("Maximum buy-in", maxBuyIn, "Optional; 200 units otherwise."),
          field("Time bank (seconds)", timeBank),
        ),
        checkbox("Practice table", practice),
        h(
          "fieldset",
          {},
          h("legend", {}, "Timers (seconds; empty for the preset's)"),
          h("div", { class: "form-grid" }, ...timers.map(([, label, input]) => field(label, input))),
        ),
        alert,
        h(
          "div",
          { class: "form-actions" },
          submit,
          h("button", { type: "button", onclick: () => dialog.close() }, "Cancel"),
        ),
      ),
    )
  );
  const form = /** @type {HTMLFormElement} */ (dialog.querySelector("form"));
  dialog.addEventListener("close", () => alert.say(""));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!checkInputs(dialog, [unit, bots, minBuyIn, maxBuyIn, timeBank, ...timers.map((t) => t[2])], alert)) return;
    /** @type {Record<string, any>} */
    const rules = {};
    for (const [key, , input] of timers) if (input.value !== "") rules[key] = Number(input.value);
    /** @type {Record<string, any>} */
    const body = {
      preset: preset.value,
      unit: Number(unit.value),
      bots: Number(bots.value),
      bot_level: botLevel.value,
      practice: practice.checked,
      time_bank_seconds: Number(timeBank.value),
      rules,
    };
    if (name.value.trim()) body.name = name.value.trim();
    if (seats.value) body.seats = Number(seats.value);
    if (minBuyIn.value !== "") body.min_buy_in = Number(minBuyIn.value);
    if (maxBuyIn.value !== "") body.max_buy_in = Number(maxBuyIn.value);
    alert.say("");
    submit.setAttribute("disabled", "");
    try {
      const table = await request("POST", "/api/tables", body);
      dialog.close();
      form.reset();
      botLevel.value = "strong";
      created(table);
    } catch (error) {
      alert.say(errorText(error));
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  return dialog;
}

/**
 * The admin's dialog to close a table (DELETE /api/tables/ID), which asks first.
 * @param {HTMLElement} main where the dialog lives while open
 * @param {LobbyTable} t
 */
export function confirmClose(main, t) {
  const headingId = uid("close-heading");
  const alert = formAlert();
  const yes = h("button", { type: "submit", class: "danger" }, "Close table");
  const dialog = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      { class: "page-dialog", "aria-labelledby": headingId },
      h(
        "form",
        { class: "form-stack" },
        h("h2", { id: headingId }, `Close ${t.name} (#${t.id})?`),
        h(
          "p",
          {},
          "The hand in play finishes, then every player leaves with their chips and the table closes.",
        ),
        alert,
        h(
          "div",
          { class: "form-actions" },
          yes,
          h("button", { type: "button", onclick: () => dialog.close() }, "Keep it open"),
        ),
      ),
    )
  );
  dialog.addEventListener("close", () => dialog.remove());
  /** @type {HTMLFormElement} */ (dialog.firstElementChild).addEventListener("submit", async (event) => {
    event.preventDefault();
    yes.setAttribute("disabled", "");
    try {
      await request("DELETE", `/api/tables/${t.id}`);
      announce(`${t.name} is closing.`);
      dialog.close();
    } catch (error) {
      alert.say(errorText(error));
    } finally {
      yes.removeAttribute("disabled");
    }
  });
  main.append(dialog);
  dialog.showModal();
}
