// An event's rulings: the table of the director's rulings (fouls, warnings, disqualifications,
// with the points each moved, who ruled and when — after the finish, said), and for the event's
// director alone the form that rules (POST /api/events/ID/rulings), its players offered from
// the teams.

import { request } from "../api.js";
import { announce, errorText, h } from "../ui.js";
import { cell, field, formAlert, signed, timeElement, uid } from "./common.js";
import { dataTable, redraw, rowHeader, rulingKind } from "./eventcommon.js";

/** @typedef {import("./eventcommon.js").EventDetail} EventDetail */

const KINDS = { foul: "Foul (hand not set by the rules)", warning: "Warning", disqualify: "Disqualify the team" };

/**
 * The rulings' section of the event page: `element`, `draw(d, director, played)` after each
 * look (the rulings show once the event is played; the form to the event's director only).
 * @param {number} eventId @param {() => void} after looks at the event again (after a ruling)
 * @param {HTMLElement & {say: (text: string) => void}} pageAlert
 */
export function rulingsSection(eventId, after, pageAlert) {
  const element = h("section", { "aria-labelledby": "rulings-heading", hidden: true });
  const rulingsList = h("div", {});
  const ruleForm = rulingForm(eventId, after, pageAlert);
  element.append(h("h2", { id: "rulings-heading" }, "Rulings"), rulingsList, ruleForm.element);
  return {
    element,
    /** @param {EventDetail} d @param {boolean} director @param {boolean} played */
    draw(d, director, played) {
      ruleForm.element.hidden = !director;
      ruleForm.update(d);
      element.hidden = !played;
      if (played) redraw(rulingsList, rulingsTable(d));
    },
  };
}

/** @param {EventDetail} d */
function rulingsTable(d) {
  if (!d.rulings.length) return h("p", { class: "muted" }, "No rulings.");
  return dataTable(
    "Rulings",
    ["Kind", "Player", "Team", "Round", "Hand", "Reason", "Points", "By", "When"],
    d.rulings.map((r) =>
      h(
        "tr",
        { role: "row" },
        rowHeader("Kind", rulingKind(r.kind)),
        cell("Player", r.player),
        cell("Team", r.team),
        cell("Round", r.round === null ? "—" : String(r.round)),
        cell("Hand", r.hand === null ? "—" : String(r.hand)),
        cell("Reason", r.reason),
        cell(
          "Points",
          Object.keys(r.points).length
            ? Object.entries(r.points)
                .map(([team, p]) => `${team} ${signed(p)}`)
                .join(", ")
            : "—",
        ),
        cell("By", r.by),
        cell("When", timeElement(r.at), r.after_finish ? h("strong", {}, " (after the finish)") : ""),
      ),
    ),
  );
}

/**
 * The director's ruling form (POST /api/events/ID/rulings).
 * @param {number} eventId @param {() => void} after @param {HTMLElement & {say: (text: string) => void}} pageAlert
 */
function rulingForm(eventId, after, pageAlert) {
  const kind = /** @type {HTMLSelectElement} */ (
    h("select", { name: "kind" }, ...Object.entries(KINDS).map(([value, label]) => h("option", { value }, label)))
  );
  const listId = uid("players");
  const players = h("datalist", { id: listId });
  const player = /** @type {HTMLInputElement} */ (h("input", { name: "player", required: true, list: listId, autocomplete: "off" }));
  const round = /** @type {HTMLInputElement} */ (h("input", { name: "round", type: "number", min: 1, step: 1 }));
  const hand = /** @type {HTMLInputElement} */ (h("input", { name: "hand", type: "number", min: 1, step: 1 }));
  const reason = /** @type {HTMLInputElement} */ (h("input", { name: "reason", required: true, maxlength: 500 }));
  const alert = formAlert();
  const headingId = uid("rule");
  const form = /** @type {HTMLFormElement} */ (
    h(
      "form",
      { class: "form-stack", novalidate: true, "aria-labelledby": headingId },
      h("h3", { id: headingId }, "Rule"),
      h(
        "div",
        { class: "form-grid" },
        field("Kind", kind),
        field("Player", player),
        field("Round", round, "A foul names its round and hand."),
        field("Hand", hand),
      ),
      field("Reason", reason, "Kept with the ruling and shown to everyone."),
      players,
      alert,
      h("div", { class: "form-actions" }, h("button", { type: "submit", class: "primary" }, "Rule")),
    )
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    alert.say("");
    pageAlert.say("");
    if (!player.value.trim() || !reason.value.trim()) {
      alert.say("A ruling names its player and gives its reason.");
      (player.value.trim() ? reason : player).focus();
      return;
    }
    /** @type {Record<string, any>} */
    const body = { kind: kind.value, player: player.value.trim(), reason: reason.value.trim() };
    if (round.value !== "") body.round = Number(round.value);
    if (hand.value !== "") body.hand = Number(hand.value);
    try {
      await request("POST", `/api/events/${eventId}/rulings`, body);
      announce(`Ruling recorded: ${KINDS[/** @type {keyof typeof KINDS} */ (kind.value)]}, ${body.player}.`);
      form.reset();
      after();
    } catch (error) {
      alert.say(errorText(error));
    }
  });
  return {
    element: form,
    /** @param {EventDetail} d */
    update(d) {
      const names = d.standings.flatMap((t) => t.members.map((m) => m.name));
      if (players.childElementCount !== names.length) {
        players.replaceChildren(...names.map((n) => h("option", { value: n })));
      }
      round.max = String(Math.max(1, d.round));
      hand.max = String(d.hands_per_round);
    },
  };
}
