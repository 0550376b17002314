// An event's teams while it registers: each team with its players and places left (Join for
// whoever plays for no team yet), and the form to register a team (its registrant is its
// player 1).

import { currentAccount } from "../api.js";
import { h } from "../ui.js";
import { cell, field } from "./common.js";
import { count, dataTable, redraw, rowHeader } from "./eventcommon.js";

/** @typedef {import("./eventcommon.js").EventDetail} EventDetail */

/**
 * The teams' section of the event page: `element`, `draw(d)` after each look (shown while the
 * event registers).
 * @param {number} eventId
 * @param {(method: string, path: string, done: string, body?: unknown) => Promise<boolean>} act
 *   asks the room, says what happened (or why not) and looks again
 * @param {{say: (text: string) => void}} alert the page's alert
 */
export function teamsSection(eventId, act, alert) {
  const element = h("section", { "aria-labelledby": "teams-heading", hidden: true });
  const register = h("div", { class: "event-register" });

  // --- registering a team (built once: the name keeps what is typed)
  const teamName = /** @type {HTMLInputElement} */ (h("input", { name: "team-name", maxlength: 40, required: true, autocomplete: "off" }));
  const registerForm = h(
    "form",
    { class: "inline-form", "aria-labelledby": "register-heading" },
    h("h3", { id: "register-heading" }, "Register a team"),
    field("Team name", teamName, "You are its player 1; two teammates join it."),
    h("button", { type: "submit", class: "primary" }, "Register a team"),
  );
  registerForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = teamName.value.trim();
    if (!name) {
      alert.say("Team name: give the team a name.");
      teamName.focus();
      return;
    }
    if (await act("POST", `/api/events/${eventId}/teams`, `Team ${name} is registered; you are its player 1.`, { name })) {
      teamName.value = "";
    }
  });
  const teamsList = h("div", {});
  element.append(h("h2", { id: "teams-heading" }, "Teams"), teamsList, register);

  /** @param {EventDetail} d */
  function drawTeams(d) {
    const me = d.you;
    const account = currentAccount();
    const rows = d.standings.map((t) => {
      const free = 3 - t.members.length;
      const label = `Join ${t.name}`;
      return h(
        "tr",
        { role: "row", class: me?.team === t.id ? "board-you" : "" },
        rowHeader("Team", t.name, t.bot ? h("span", { class: "lobby-badge" }, "bots") : "", me?.team === t.id ? h("span", { class: "muted" }, " (your team)") : ""),
        cell("Players", t.members.length ? t.members.map((m) => `${m.number}. ${m.name}`).join(", ") : "nobody yet"),
        cell("Places", free > 0 ? `${free} free` : "Full"),
        cell(
          "Actions",
          free > 0 && account && !me
            ? h("button", { type: "button", "aria-label": label, onclick: () => act("POST", `/api/events/${eventId}/teams/${t.id}/members`, `You joined ${t.name}.`) }, "Join")
            : "",
        ),
      );
    });
    const ready = d.standings.filter((t) => t.members.length === 3).length;
    redraw(
      teamsList,
      h(
        "p",
        { class: "muted" },
        `${count(d.standings.length, "team")} registered, ${ready} with their three players. ` +
          "The event starts with a multiple of three full teams.",
      ),
      rows.length ? dataTable("Registered teams", ["Team", "Players", "Places", "Actions"], rows) : h("p", { class: "lobby-empty" }, "No team has registered yet."),
    );
    register.hidden = !account || me !== null;
    if (!register.contains(registerForm)) register.append(registerForm);
  }

  return {
    element,
    /** @param {EventDetail} d */
    draw(d) {
      element.hidden = d.status !== "registering";
      if (d.status === "registering") drawTeams(d);
    },
  };
}
