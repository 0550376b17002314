// Duplicate team events (seed 004): #/events lists them (and the director creates one there);
// #/event/ID is one event — its teams while it registers, then the standings, every hand's team
// scores once its three tables played it, the confirmations, the rulings, the results to
// download; #/event/ID/deal/ROUND/GROUP/HAND shows one deal side by side: seat by seat, how
// each team played the same cards. The pages look again every two seconds while the event is
// on, and stop when left.
//
// This module is the list and the director's form; one event is ./eventpage.js (with its parts),
// a deal side by side ./eventdeal.js, and what they share ./eventcommon.js.

import { onAccount, request } from "../api.js";
import { announce, errorText, h } from "../ui.js";
import { BOT_LEVELS, cell, checkInputs, field, formAlert, gameName, PRESETS, timeElement, uid } from "./common.js";
import { dataTable, isAdmin, poller, redraw, rowHeader, statusText } from "./eventcommon.js";
import { dealPage } from "./eventdeal.js";
import { eventPage } from "./eventpage.js";

/** @typedef {import("./eventcommon.js").EventSummary} EventSummary */
/** @typedef {import("./eventcommon.js").EventDetail} EventDetail */

/**
 * @param {HTMLElement} main
 * @param {Record<string, string>} params
 */
export function render(main, params) {
  if (params.event && params.hand) return dealPage(main, Number(params.event), Number(params.round), Number(params.group), Number(params.hand));
  if (params.event) return eventPage(main, Number(params.event));
  return listPage(main);
}

// ---------------------------------------------------------------------------- #/events

/** @param {HTMLElement} main */
function listPage(main) {
  document.title = "Team events · Thirteen";
  const list = h("div", { "aria-live": "polite", "aria-busy": "true" });
  const error = h("p", { class: "error", role: "alert" });
  const create = createEventForm();
  main.append(
    h(
      "div",
      { class: "page" },
      h("h1", {}, "Team events"),
      h(
        "p",
        {},
        "Duplicate team events: teams of three, and in each round three teams meet at three tables " +
          "seated A1 B1 C1 / B2 C2 A2 / C3 A3 B3, every table dealt the same cards. A team's score is " +
          "what its three players scored; the luck of the deal cancels out.",
      ),
      howToEnter(),
      error,
      list,
      create,
    ),
  );
  const stopListening = onAccount(() => {
    create.hidden = !isAdmin();
  });
  create.hidden = !isAdmin();
  let shown = "";
  const poll = poller(async () => {
    try {
      /** @type {{events: EventSummary[]}} */
      const answer = await request("GET", "/api/events");
      error.textContent = "";
      const key = JSON.stringify(answer.events);
      if (key !== shown) {
        shown = key;
        redraw(list, eventList(answer.events));
      }
      list.removeAttribute("aria-busy");
    } catch (e) {
      error.textContent = errorText(e);
    }
    return true;
  });
  return () => {
    poll.stop();
    stopListening();
  };
}

/** How a team enters an event, in three steps (no chips are at stake). */
function howToEnter() {
  return h(
    "section",
    { class: "how-to-enter", "aria-labelledby": "how-to-enter" },
    h("h2", { id: "how-to-enter" }, "How a team enters"),
    h(
      "ol",
      {},
      h("li", {}, "Open an event below whose status is “Registering”."),
      h("li", {}, "One of you registers the team under a name (you become its player 1)."),
      h("li", {}, "Your two team-mates open the same event and press Join beside the team's name."),
    ),
    h(
      "p",
      {},
      "The room seats the three of you when the director starts the event; scores are in points " +
        "and no chips are at stake. A short field is filled with teams of bots.",
    ),
  );
}

/** @param {EventSummary[]} events */
function eventList(events) {
  if (!events.length) {
    return h(
      "div",
      { class: "lobby-empty" },
      h("p", {}, "No team event is registering or running right now."),
      h(
        "p",
        {},
        "Events are opened by the room's directors (its administrators): ask one for the next, " +
          "and meanwhile play at a table in the ",
        h("a", { href: "#/lobby" }, "lobby"),
        " or practise the same way — your play against the strong bot's on the same cards — in ",
        h("a", { href: "#/practice" }, "duplicate practice"),
        ".",
      ),
    );
  }
  return dataTable(
    "Team events",
    ["Event", "Game", "Status", "Rounds", "Hands per round", "Teams", "When"],
    events.map((e) =>
      h(
        "tr",
        { role: "row" },
        rowHeader("Event", h("a", { href: `#/event/${e.id}`, class: "table-name" }, e.name), " ", h("small", { class: "muted" }, `#${e.id}`)),
        cell("Game", gameName(e.game), h("small", { class: "muted block" }, e.preset)),
        cell("Status", statusText(e)),
        cell("Rounds", String(e.rounds)),
        cell("Hands per round", String(e.hands_per_round)),
        cell("Teams", String(e.teams)),
        cell("When", ...whenText(e)),
      ),
    ),
    "events-list",
  );
}

/** @param {EventSummary} e @returns {(Node | string)[]} */
function whenText(e) {
  if (e.finished_at) return [e.status === "cancelled" ? "Cancelled " : "Finished ", timeElement(e.finished_at)];
  if (e.started_at) return ["Started ", timeElement(e.started_at)];
  if (e.starts_at) return ["Starts ", timeElement(e.starts_at)];
  return ["Starts when the director starts it"];
}

/** The director's form: POST /api/events, then the new event's page. */
function createEventForm() {
  /** @param {string} name @param {Record<string, any>} [more] */
  const number = (name, more = {}) =>
    /** @type {HTMLInputElement} */ (h("input", { name, type: "number", inputmode: "decimal", ...more }));
  const preset = /** @type {HTMLSelectElement} */ (
    h("select", { name: "preset" }, ...PRESETS.map((p) => h("option", { value: p }, p)))
  );
  preset.value = "open-face-cards";
  const name = /** @type {HTMLInputElement} */ (h("input", { name: "name", maxlength: 64 }));
  const rounds = number("rounds", { min: 1, max: 50, step: 1, value: 3, required: true });
  const hands = number("hands", { min: 1, max: 100, step: 1, value: 6, required: true });
  const confirm = number("confirm", { min: 0, max: 120, step: "any", value: 8, required: true });
  const startsAt = /** @type {HTMLInputElement} */ (h("input", { name: "starts-at", type: "datetime-local" }));
  const botLevel = /** @type {HTMLSelectElement} */ (
    h("select", { name: "bot-level" }, ...BOT_LEVELS.map((l) => h("option", { value: l }, l)))
  );
  botLevel.value = "strong";
  /** @type {[string, string, HTMLInputElement][]} */
  const timers = [
    ["set_hand_seconds", "Setting a hand", number("set-hand", { min: 1, step: "any" })],
    ["first_street_seconds", "First street", number("first-street", { min: 1, step: "any" })],
    ["street_seconds", "Later streets", number("street", { min: 1, step: "any" })],
    ["showdown_seconds", "Showdown on show", number("showdown", { min: 0, step: "any" })],
  ];
  const alert = formAlert();
  const submit = h("button", { type: "submit", class: "primary" }, "Create event");
  const headingId = uid("create-event");
  const form = /** @type {HTMLFormElement} */ (
    h(
      "form",
      { class: "form-stack", novalidate: true, "aria-labelledby": headingId },
      h(
        "div",
        { class: "form-grid" },
        field("Preset", preset, "Any game for three."),
        field("Name", name, "Optional; the preset's name otherwise."),
        field("Rounds", rounds),
        field("Hands per round", hands),
        field("Seconds to confirm", confirm, "A result confirms itself after this long."),
        field("Start time", startsAt, "Optional; it starts then if its teams are ready."),
        field("Bot teams play", botLevel),
      ),
      h(
        "fieldset",
        {},
        h("legend", {}, "Timers (seconds; empty for the preset's)"),
        h("div", { class: "form-grid" }, ...timers.map(([, label, input]) => field(label, input))),
      ),
      alert,
      h("div", { class: "form-actions" }, submit),
    )
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!checkInputs(form, [rounds, hands, confirm, ...timers.map((t) => t[2])], alert)) return;
    /** @type {Record<string, any>} */
    const rules = {};
    for (const [key, , input] of timers) if (input.value !== "") rules[key] = Number(input.value);
    /** @type {Record<string, any>} */
    const body = {
      preset: preset.value,
      rounds: Number(rounds.value),
      hands_per_round: Number(hands.value),
      confirm_seconds: Number(confirm.value),
      bot_level: botLevel.value,
      rules,
    };
    if (name.value.trim()) body.name = name.value.trim();
    if (startsAt.value) {
      const at = new Date(startsAt.value).getTime() / 1000;
      if (!Number.isFinite(at) || at < Date.now() / 1000) {
        startsAt.setAttribute("aria-invalid", "true");
        alert.say("Start time: choose a moment in the future, or leave it empty.");
        startsAt.focus();
        return;
      }
      body.starts_at = at;
    }
    alert.say("");
    submit.setAttribute("disabled", "");
    try {
      /** @type {EventDetail} */
      const made = await request("POST", "/api/events", body);
      announce(`Event ${made.name} created; teams may register.`);
      location.hash = `#/event/${made.id}`;
    } catch (error) {
      alert.say(errorText(error));
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  return h("section", { class: "event-create", "aria-labelledby": headingId }, h("h2", { id: headingId }, "Create event"), form);
}
