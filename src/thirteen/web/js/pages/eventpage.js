// One duplicate team event (#/event/ID): its teams while it registers (./eventteams.js), then the
// standings, every hand's team scores once its three tables played it, the confirmations
// (./eventresults.js), the rulings (./eventrulings.js), the results to download; for the
// director, the buttons that add bot teams, start or cancel the event. The page looks again
// every two seconds while the event is on, and stops when left.

import { RoomError, currentAccount, onAccount, request } from "../api.js";
import { confirmResult, confirmedHere } from "../table/event.js";
import { announce, errorText, h } from "../ui.js";
import { duration, field, formAlert, gameName, loginPrompt } from "./common.js";
import { count, isAdmin, isDirector, poller, redraw, statusText } from "./eventcommon.js";
import { roundSection, standingsTables } from "./eventresults.js";
import { rulingsSection } from "./eventrulings.js";
import { teamsSection } from "./eventteams.js";

/** @typedef {import("./eventcommon.js").EventDetail} EventDetail */

/**
 * @param {HTMLElement} main
 * @param {number} eventId
 */
export function eventPage(main, eventId) {
  document.title = `Event ${eventId} · Thirteen`;
  const heading = h("h1", {}, `Event ${eventId}`);
  const meta = h("p", { class: "muted event-meta" });
  const alert = formAlert();
  const you = h("div", { class: "event-you" });
  const director = h("section", { class: "event-director", "aria-labelledby": "director-heading", hidden: true });
  const standings = h("section", { "aria-labelledby": "standings-heading", hidden: true });
  const downloads = h("p", { class: "event-downloads", hidden: true });
  const results = h("section", { "aria-labelledby": "hands-heading", hidden: true });
  const rulings = rulingsSection(eventId, () => poll.now(), alert);

  // --- the director's buttons while teams register (built once: the count keeps its value)
  const botCount = /** @type {HTMLInputElement} */ (h("input", { type: "number", min: 1, max: 30, step: 1, value: 3, name: "bot-teams" }));
  const cancelAsk = h("span", { class: "row-actions", hidden: true });
  const registeringTools = h(
    "div",
    { class: "director-tools" },
    h(
      "form",
      { class: "inline-form", "aria-label": "Add bot teams" },
      field("Bot teams", botCount),
      h("button", { type: "submit" }, "Add bot teams"),
    ),
    h("button", { type: "button", class: "primary", onclick: () => act("POST", `/api/events/${eventId}/start`, "The event started: the first round's tables are open.") }, "Start event"),
    h("button", { type: "button", class: "danger", onclick: () => (cancelAsk.hidden = false) }, "Cancel event"),
    cancelAsk,
  );
  cancelAsk.append(
    h("span", {}, "Cancel it for good?"),
    h("button", { type: "button", class: "danger", onclick: () => act("DELETE", `/api/events/${eventId}`, "The event is cancelled.") }, "Yes, cancel the event"),
    h("button", { type: "button", onclick: () => (cancelAsk.hidden = true) }, "No, keep it"),
  );
  /** @type {HTMLFormElement} */ (registeringTools.querySelector("form")).addEventListener("submit", (e) => {
    e.preventDefault();
    const n = Number(botCount.value);
    act("POST", `/api/events/${eventId}/bot-teams`, `${count(n, "bot team")} registered.`, { count: n });
  });
  director.append(h("h2", { id: "director-heading" }, "Director"), registeringTools);

  const teams = teamsSection(eventId, act, alert);
  main.append(
    h(
      "div",
      { class: "page wide event-page" },
      h("p", {}, h("a", { href: "#/events" }, "All team events")),
      heading,
      meta,
      alert,
      you,
      director,
      teams.element,
      standings,
      downloads,
      results,
      rulings.element,
    ),
  );

  /** @type {EventDetail | null} */
  let detail = null;
  let shown = "";

  /**
   * Ask the room to do something, say what happened (or why not), and look again.
   * @param {string} method @param {string} path @param {string} done @param {unknown} [body]
   * @returns {Promise<boolean>}
   */
  async function act(method, path, done, body) {
    alert.say("");
    try {
      await request(method, path, body);
      announce(done);
      cancelAsk.hidden = true;
      poll.now();
      return true;
    } catch (error) {
      alert.say(errorText(error));
      return false;
    }
  }

  /** @param {number} round @param {number} hand */
  async function confirm(round, hand) {
    alert.say("");
    try {
      await confirmResult(eventId, round, hand);
      announce(hand ? `You confirmed the result of round ${round}, hand ${hand}.` : `You confirmed round ${round}'s team totals.`);
    } catch (error) {
      alert.say(errorText(error));
    }
    shown = "";
    poll.now();
  }

  function draw() {
    const d = detail;
    if (!d) return;
    const key = JSON.stringify([d, currentAccount()?.name, currentAccount()?.role, [...confirmedHere(eventId)]]);
    if (key === shown) return;
    shown = key;
    document.title = `${d.name} · Thirteen`;
    heading.textContent = d.name;
    meta.textContent = [
      `${gameName(d.game)} (${d.preset})`,
      statusText(d),
      count(d.rounds, "round"),
      `${count(d.hands_per_round, "hand")} a round`,
      `results confirm themselves after ${duration(d.confirm_seconds)}`,
    ].join(" · ");
    const admin = isAdmin();
    director.hidden = !admin || d.status !== "registering";
    drawYou(d);
    teams.draw(d);
    const played = d.status === "running" || d.status === "finished";
    standings.hidden = !played;
    results.hidden = !played;
    downloads.hidden = !played;
    rulings.draw(d, isDirector(d), played);
    if (played) {
      const changed = d.changed_after_finish.length ? ", changed after the finish" : "";
      const title = d.status === "finished" ? `Final standings${changed}` : "Standings";
      redraw(standings, h("h2", { id: "standings-heading" }, title), ...standingsTables(d));
      redraw(results, h("h2", { id: "hands-heading" }, "Hands"), ...d.round_results.map((r) => roundSection(d, r, eventId, confirm)));
      downloads.replaceChildren(
        "Results: ",
        h("a", { href: `/api/events/${eventId}/results.csv`, download: `event-${eventId}.csv` }, "Download results (CSV)"),
        " · ",
        h("a", { href: `/api/events/${eventId}/results.json`, download: `event-${eventId}.json` }, "Download results (JSON)"),
      );
    }
  }

  /** @param {EventDetail} d */
  function drawYou(d) {
    const me = d.you;
    if (!currentAccount()) {
      redraw(you, d.status === "registering" ? loginPrompt("to register a team or join one") : "");
      return;
    }
    if (!me) {
      redraw(you);
      return;
    }
    const team = d.standings.find((t) => t.id === me.team);
    const parts = [h("span", {}, `You play for ${team?.name ?? "your team"} as its player ${me.number}.`)];
    if (d.status === "registering") {
      parts.push(
        h("button", { type: "button", onclick: () => act("DELETE", `/api/events/${eventId}/membership`, "You left your team.") }, "Leave my team"),
      );
    } else if (me.table_id !== null && d.status === "running") {
      parts.push(h("a", { class: "button primary", href: `#/table/${me.table_id}` }, "Your table"));
    } else if (d.status === "running") {
      parts.push(h("span", { class: "muted" }, "Your table of this round has closed; the next round opens once every table played."));
    }
    redraw(you, h("p", { class: "row-actions" }, ...parts));
  }

  let missing = false;
  const poll = poller(async () => {
    try {
      detail = await request("GET", `/api/events/${eventId}`);
      if (missing) alert.say("");
      missing = false;
      draw();
    } catch (error) {
      missing = true;
      alert.say(errorText(error));
      if (error instanceof RoomError && error.status === 404) return false; // no such event
    }
    return detail === null || detail.status === "registering" || detail.status === "running";
  });
  const stopListening = onAccount(() => {
    shown = "";
    poll.now();
  });
  return () => {
    poll.stop();
    stopListening();
  };
}
