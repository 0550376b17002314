// A duplicate team event's table (its settings carry `event`): a link back to the event's
// standings, and at each showdown a "Confirm result" button that confirms the hand's result
// (POST /api/events/ID/confirmations), as seed 004 §III.2 has the three players approve it
// before the cards are collected. The next hand is dealt once the group's players confirmed,
// or by itself after the event's seconds to confirm.
//
// The room tells only how many confirmed, not who: what this browser confirmed is kept in
// sessionStorage (per account and event) so the button is not offered twice; confirming again
// would do no harm (the room keeps one confirmation per player).

import { currentAccount, request } from "../api.js";
import { announce, errorText, h } from "../ui.js";

/** @param {number} eventId */
function storageKey(eventId) {
  return `thirteen.confirmed.${currentAccount()?.name ?? ""}.${eventId}`;
}

/** The results ("round:hand", hand 0 the round's totals) this browser confirmed. @param {number} eventId */
export function confirmedHere(eventId) {
  try {
    const raw = JSON.parse(sessionStorage.getItem(storageKey(eventId)) ?? "[]");
    return new Set(Array.isArray(raw) ? raw.map(String) : []);
  } catch {
    return new Set();
  }
}

/**
 * Confirm a result (hand 0: the round's team totals) and remember it.
 * @param {number} eventId @param {number} round @param {number} hand
 */
export async function confirmResult(eventId, round, hand) {
  await request("POST", `/api/events/${eventId}/confirmations`, { round, hand });
  const known = confirmedHere(eventId);
  known.add(`${round}:${hand}`);
  sessionStorage.setItem(storageKey(eventId), JSON.stringify([...known]));
}

/**
 * The event's corner of a table page; `update()` after each frame (nothing shows at a table
 * that plays no event).
 * @param {number} tableId
 */
export function eventPanel(tableId) {
  const element = h("div", { class: "event-panel", hidden: true });
  const link = h("a", { class: "event-link" }, "Event standings");
  const action = h("span", { class: "event-confirm" });
  const alert = h("p", { class: "form-alert error", role: "alert" });
  element.append(link, action, alert);
  /** @type {number | null} */
  let eventId = null;
  /** @type {number | null} the round this table plays (from the event's groups) */
  let round = null;
  let asking = false;
  let stopped = false;
  /** @type {{settings: any, view: any, seat: number | null}} */
  let last = { settings: null, view: null, seat: null };

  async function findRound() {
    if (asking || eventId === null) return;
    asking = true;
    try {
      const detail = await request("GET", `/api/events/${eventId}`);
      for (const r of detail.round_results ?? []) {
        for (const g of r.groups) {
          if (g.tables.some((/** @type {any} */ t) => t.table_id === tableId)) round = r.round;
        }
      }
      if (round === null) round = detail.round || null;
    } catch {
      // the button waits; the next frame asks again
    } finally {
      asking = false;
    }
    if (!stopped) draw();
  }

  /** @param {number} hand */
  async function confirm(hand) {
    if (eventId === null || round === null) return;
    alert.textContent = "";
    try {
      await confirmResult(eventId, round, hand);
      announce(`You confirmed the result of hand ${hand}.`);
    } catch (error) {
      alert.textContent = errorText(error);
    }
    if (!stopped) draw();
  }

  function draw() {
    const { view, seat } = last;
    const hand = view?.hand;
    const showdown = view?.phase === "showdown" && hand?.results && seat !== null;
    if (!showdown || eventId === null || round === null) {
      action.replaceChildren();
      return;
    }
    const n = Number(hand.number);
    if (confirmedHere(eventId).has(`${round}:${n}`)) {
      const text = `You confirmed hand ${n}'s result.`;
      if (action.textContent !== text) action.replaceChildren(h("span", { class: "ok" }, text));
      return;
    }
    const label = `Confirm the result of hand ${n}`;
    if (action.querySelector(`[aria-label="${label}"]`)) return;
    action.replaceChildren(
      h("button", { type: "button", class: "primary", "aria-label": label, onclick: () => confirm(n) }, "Confirm result"),
    );
  }

  /**
   * @param {Record<string, any> | null} settings @param {Record<string, any> | null} view
   * @param {number | null} seat the viewer's seat
   */
  function update(settings, view, seat) {
    last = { settings, view, seat };
    const id = settings?.event ?? null;
    element.hidden = id === null;
    if (id === null) return;
    if (id !== eventId) {
      eventId = id;
      round = null;
      link.setAttribute("href", `#/event/${id}`);
    }
    if (round === null) findRound();
    draw();
  }

  return {
    element,
    update,
    close() {
      stopped = true;
    },
  };
}
