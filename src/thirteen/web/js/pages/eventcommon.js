// What the duplicate team events' views share (./events.js the list, ./eventpage.js one event,
// ./eventdeal.js a deal side by side, and the event page's parts): the answers' types, the
// event's status in words, the data tables (cells stacked on a phone), points as numbers to read,
// and the poller that looks again every two seconds while an event is on.

import { currentAccount } from "../api.js";
import { h } from "../ui.js";
import { cell, signed, uid } from "./common.js";

/**
 * @typedef {{id: number, name: string, preset: string, game: string, status: string,
 *   rounds: number, hands_per_round: number, confirm_seconds: number, round: number,
 *   teams: number, starts_at: number | null, started_at: number | null,
 *   finished_at: number | null}} EventSummary
 * @typedef {{id: number, name: string, bot: boolean, disqualified: boolean,
 *   members: {number: number, name: string}[], points: number, rulings: number, total: number,
 *   rounds: number[], rank: number | null}} Team
 * @typedef {{seat: number, team: number, number: number, player: string, points: number}} SeatResult
 * @typedef {{hand: number, complete: boolean, root: string | null, scores: Record<string, number>,
 *   tables: {table_id: number, position: number, seats: SeatResult[]}[], confirmed: number}} HandResult
 * @typedef {{group: number, teams: number[], tables: {table_id: number, position: number,
 *   seats: {team: number, number: number}[]}[], hands: HandResult[]}} Group
 * @typedef {{round: number, groups: Group[], confirmed: number}} Round
 * @typedef {{id: number, kind: string, player: string, team: string, round: number | null,
 *   hand: number | null, table_id: number | null, reason: string, at: number,
 *   points: Record<string, number>, by: string, after_finish: boolean}} Ruling
 * @typedef {{id: number, kind: string, player: string, by: string, at: number,
 *   reason: string}} Change
 * @typedef {EventSummary & {director_id: number, director: string, standings: Team[],
 *   round_results: Round[], rulings: Ruling[], changed_after_finish: Change[],
 *   you: {team: number, number: number, table_id: number | null} | null}} EventDetail
 */

/** @type {Record<string, string>} */
const STATUS = {
  registering: "Registering",
  running: "Running",
  finished: "Finished",
  cancelled: "Cancelled",
};
/** How often an event on (registering or running) is looked at again. */
const REFRESH_MS = 2000;

/** Whether the account logged in is an admin (who directs the events). */
export const isAdmin = () => currentAccount()?.role === "admin";
/** Whether the account logged in directs this event (its creator: it alone rules there). @param {EventDetail} d */
export const isDirector = (d) => isAdmin() && currentAccount()?.name.toLowerCase() === d.director.toLowerCase();

/** @type {Record<string, string>} */
const RULING_KINDS = { foul: "Foul", warning: "Warning", disqualify: "Disqualification" };
/** A ruling's kind in words. @param {string} kind */
export const rulingKind = (kind) => RULING_KINDS[kind] ?? kind;
/** "1 hand", "6 hands" @param {number} n @param {string} word */
export const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "Running, round 2 of 3" @param {EventSummary} e */
export function statusText(e) {
  const word = STATUS[e.status] ?? e.status;
  return e.status === "running" ? `${word}, round ${e.round} of ${e.rounds}` : word;
}


/** A cell of a number (right-aligned). @param {string} label @param {...(Node | string | null | false)} content */
export function numCell(label, ...content) {
  const el = cell(label, ...content);
  el.classList.add("num");
  return el;
}

/** @param {string} label @param {...(Node | string | null | false)} content */
export function rowHeader(label, ...content) {
  return h("th", { scope: "row", role: "rowheader", "data-label": label }, h("span", { class: "cell-value" }, ...content));
}

/**
 * A data table with a caption and column headers.
 * @param {string} caption @param {string[]} columns @param {HTMLElement[]} rows @param {string} [extra]
 * @param {string[]} [numbers] the columns of numbers (right-aligned)
 */
export function dataTable(caption, columns, rows, extra = "", numbers = []) {
  const numeric = new Set(numbers);
  const captionId = uid("caption");
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { class: `data stacked ${extra}`, role: "table", "aria-labelledby": captionId },
      h("caption", { id: captionId }, caption),
      h(
        "thead",
        { role: "rowgroup" },
        h(
          "tr",
          { role: "row" },
          ...columns.map((c) => h("th", { scope: "col", role: "columnheader", class: numeric.has(c) ? "num" : null }, c)),
        ),
      ),
      h("tbody", { role: "rowgroup" }, ...rows),
    ),
  );
}

/** A number as points, coloured and signed (+3 / −2 / 0). @param {number} n */
export function points(n) {
  return h("span", { class: n > 0 ? "amount amount-in" : n < 0 ? "amount amount-out" : "amount" }, signed(n));
}

/**
 * Look at something every REFRESH_MS while `more()` says so; stop() when the page goes.
 * @param {() => Promise<boolean>} look resolves to whether to keep looking
 */
export function poller(look) {
  let stopped = false;
  /** @type {number | undefined} */
  let timer;
  async function again() {
    timer = undefined;
    if (stopped) return;
    let more = true;
    try {
      more = await look();
    } catch {
      // the page says what went wrong; the next look tries again
    }
    if (!stopped && more) timer = window.setTimeout(again, REFRESH_MS);
  }
  again();
  return {
    /** Look now (after an action) rather than at the next tick. */
    now() {
      if (stopped) return;
      window.clearTimeout(timer);
      again();
    },
    stop() {
      stopped = true;
      window.clearTimeout(timer);
    },
  };
}

/**
 * Replace a holder's content, keeping the focus on the control of the same accessible name.
 * @param {HTMLElement} holder @param {...Node} children
 */
export function redraw(holder, ...children) {
  const focused = holder.contains(document.activeElement) ? document.activeElement?.getAttribute("aria-label") : null;
  holder.replaceChildren(...children);
  if (focused) {
    /** @type {HTMLElement | null} */ (holder.querySelector(`[aria-label="${CSS.escape(focused)}"]`))?.focus();
  }
}
