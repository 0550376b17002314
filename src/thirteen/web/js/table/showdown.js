// The showdown: the results under the felt with the next deal's countdown, each row's hand name
// of the boards on show (asked of the room once per hand and board, drawn when known), and the
// sentence a screen reader hears when a hand is settled.

import { request } from "../api.js";
import { h } from "../ui.js";
import { resultsTable, signed } from "./seats.js";

/** @typedef {import("./seats.js").View} View */
/** @typedef {import("./seats.js").Room} Room */

/**
 * The showdown's section: shown with the results table while a hand is on show, hidden and
 * empty otherwise (`draw()` after each frame).
 */
export function showdownSection() {
  const element = h("section", { class: "showdown", "aria-label": "Showdown", hidden: true });
  return {
    element,
    /** @param {View} view @param {(seat: number) => string} nameOf */
    draw(view, nameOf) {
      const hand = view.hand;
      if (view.phase === "showdown" && hand?.results) {
        element.hidden = false;
        element.replaceChildren(
          /** @type {HTMLElement} */ (resultsTable(view, nameOf)),
          h("p", { class: "next-deal" }, h("span", { "data-until": view.next_deal_at }, "")),
        );
      } else {
        element.hidden = true;
        element.replaceChildren();
      }
    },
  };
}

/**
 * The showdown's hand names: a function that gives a board's row names once the room told them
 * (null meanwhile, and for a board not on show), asking at the first look.
 * @param {number} tableId
 * @param {Room} room
 * @param {() => void} draw draws the table again (when names arrive during the showdown)
 * @returns {(board: Record<string, any>) => Record<string, string | null> | null}
 */
export function handNames(tableId, room, draw) {
  /** @type {Map<string, Record<string, string | null> | "asking">} */
  const named = new Map();

  /** Each row's name of a board on show (asked once per hand and board; drawn when known).
   * @param {Record<string, any>} board */
  function showdownNames(board) {
    const view = room.view;
    if (view?.phase !== "showdown" || board.face_down || board.outcome === "surrendered") {
      return null;
    }
    const rows = { front: board.front, middle: board.middle, back: board.back };
    if (!rows.front || !rows.middle || !rows.back) return null;
    const key = `${view.hand.number}:${board.seat}:${rows.front}|${rows.middle}|${rows.back}`;
    const known = named.get(key);
    if (known === "asking") return null;
    if (known) return known;
    named.set(key, "asking");
    if (named.size > 64) named.delete(named.keys().next().value ?? "");
    request("GET", `/api/tables/${tableId}/evaluate?${new URLSearchParams(rows)}`)
      .then((answer) => {
        named.set(
          key,
          Object.fromEntries(answer.rows.map((/** @type {any} */ r) => [r.row, r.name])),
        );
        if (room.view?.phase === "showdown") draw();
      })
      .catch(() => named.delete(key));
    return null;
  }

  return showdownNames;
}

/**
 * What a screen reader hears at a showdown: the viewer's own result first, then everyone's.
 * @param {Record<string, any>[]} results the hand's results
 * @param {number | null} mySeat
 * @param {(seat: number) => string} nameOf
 */
export function showdownSentence(results, mySeat, nameOf) {
  const parts = results.map((/** @type {any} */ r) => `${nameOf(r.seat)} ${signed(r.total)}`);
  const mine = results.find((/** @type {any} */ r) => r.seat === mySeat);
  const lead = mine
    ? mine.total > 0
      ? `You won ${mine.total} (${signed(mine.money)} chips). `
      : mine.total < 0
        ? `You lost ${-mine.total} (${signed(mine.money)} chips). `
        : "You broke even. "
    : "";
  return `Showdown. ${lead}${parts.join(", ")}.`;
}
