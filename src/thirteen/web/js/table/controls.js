// The table page's buttons and the focus they keep: `button()` makes each one with its label as
// its focus key, so that a redraw (`rememberFocus`, `restoreFocus`) gives the focus back to the
// same card or button. And your seat's controls under the felt: sit in, sit out, top up, leave
// (or, watching, a way to take a seat), with the buy-in and top-up dialogs. Leave during a hand
// says what happens to the hand in play and asks first; until the hand ends, Stay takes it back.
// A player the room unseated (`unseated` frame) is told why, here, until they sit again.

import { currentAccount, loadAccount } from "../api.js";
import { alertNow, announce, h } from "../ui.js";
import { confirmDialog, numberDialog } from "./dialogs.js";

/** @typedef {import("./seats.js").Room} Room */
/** @typedef {import("../socket.js").TableSocket} TableSocket */
/** @typedef {{card?: string, key?: string} | null} Focus */

/** @param {number} n */
const chips = (n) => n.toLocaleString("en");

/** What leaving during a hand does to the hand in play (the dialog and the note say it). */
export const LEAVING_TEXT =
  "Your hand will be played for you by the table at once (it does not foul if it can avoid " +
  "it); your chips return to your wallet after the showdown.";

/**
 * A button of the table page; its label is its focus key (`data-focus`).
 * @param {string} label @param {() => void} onclick
 * @param {Record<string, any>} [extra]
 */
export function button(label, onclick, extra = {}) {
  return h("button", { type: "button", "data-focus": label, ...extra, onclick }, label);
}

/**
 * The card or button of the page that has the focus, to find again after a redraw.
 * @param {HTMLElement} page
 * @returns {Focus}
 */
export function rememberFocus(page) {
  const el = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!el || !page.contains(el)) return null;
  if (el.dataset.card) return { card: el.dataset.card };
  if (el.dataset.focus) return { key: el.dataset.focus };
  return null;
}

/**
 * Focus the remembered card or button again, unless the focus is still in the page.
 * @param {HTMLElement} page @param {Focus} focus
 */
export function restoreFocus(page, focus) {
  if (!focus) return;
  const active = document.activeElement;
  if (active && active !== document.body && page.contains(active)) return;
  const sel = focus.card
    ? `.card[data-card="${focus.card}"]`
    : `[data-focus="${CSS.escape(focus.key ?? "")}"]`;
  /** @type {HTMLElement | null} */ (page.querySelector(sel))?.focus();
}

/**
 * Your seat's controls: `element` under the felt, `draw()` after each frame, `buyIn(seat)` for
 * a free seat's "Sit here" (and #/table/ID/join).
 * @param {{tableId: number, watching: boolean, room: Room, socket: TableSocket,
 *   page: HTMLElement, say: (text: string) => void}} table
 *   `page`: where the dialogs live while open
 */
export function seatControls(table) {
  const { tableId, watching, room, socket, page, say } = table;
  const element = h("div", { class: "seat-controls" });

  /** @type {string} why the room unseated you, until you sit again (`buyIn`) */
  let unseated = "";

  /**
   * The room made you leave (`unseated` frame): say why, now and under the felt.
   * @param {Record<string, any>} frame
   */
  function noteUnseated(frame) {
    unseated = frame.message;
    alertNow(frame.message);
    loadAccount().catch(() => {});
    draw();
  }

  function draw() {
    const mySeat = room.seat;
    const settings = room.settings;
    const seat = mySeat !== null ? room.view?.seats?.[mySeat] : null;
    if (!seat) {
      const notice = unseated
        ? [h("p", { class: "unseated-notice", role: "note" }, unseated)]
        : [];
      element.replaceChildren(
        ...notice,
        watching
          ? h("a", { href: `#/table/${tableId}` }, "Stop watching and take a seat")
          : h("p", { class: "muted" }, mySeat === null ? "You are watching this table." : ""),
      );
      return;
    }
    // these buttons stay enabled while a decision is on its way (unlike the setter's)
    const items = [];
    // at a sit & go's or an event's table the room seats the players: nobody sits out, tops up
    // or leaves (the room refuses it), though an absent player may sit in again
    const seatedByRoom = Boolean(settings?.tournament || settings?.event);
    if (seat.sitting_out) items.push(button("Sit in", () => seatAction({ type: "sit_in" })));
    else if (!seatedByRoom) items.push(button("Sit out", () => seatAction({ type: "sit_out" })));
    if (!seatedByRoom) items.push(button("Top up", topUp));
    if (!seat.leaving && !seatedByRoom) items.push(button("Leave", leave));
    if (seat.leaving) items.push(button("Stay", () => seatAction({ type: "stay" })));
    const leaving = seat.leaving
      ? [h("p", { class: "leaving-note" }, `${LEAVING_TEXT} Stay keeps your seat.`)]
      : [];
    element.replaceChildren(
      h("div", { class: "seat-buttons", role: "group", "aria-label": "Your seat" }, ...items),
      ...leaving,
    );
  }

  /** Whether your seat is dealt in the hand in play (leaving then waits for its end). */
  function inHand() {
    const view = room.view;
    return Boolean(
      view?.phase === "playing" &&
        view.hand?.boards?.some((/** @type {any} */ b) => b.seat === room.seat),
    );
  }

  function leave() {
    if (!inHand()) {
      seatAction({ type: "leave" });
      return;
    }
    confirmDialog(page, {
      title: "Leave during the hand?",
      text: `${LEAVING_TEXT} Until the hand ends you can take it back with Stay.`,
      confirm: "Leave",
      cancel: "Keep playing",
      act: async () => {
        const answer = await socket.act({ type: "leave" }, room.view?.state_id ?? null);
        if (answer.type === "ack") announce(LEAVING_TEXT);
        return answer;
      },
    });
  }

  /** @param {Record<string, any>} action */
  async function seatAction(action) {
    const answer = await socket.act(action, room.view?.state_id ?? null);
    if (answer.type === "error") say(answer.message);
    else if (action.type === "leave") announce("You left the table; your chips are back in your wallet.");
    else if (action.type === "stay") announce("You stay: the rest of the hand is yours to play.");
  }

  /** @param {number} seat */
  async function buyIn(seat) {
    const settings = room.settings;
    if (!settings) return;
    if (!currentAccount()) {
      say("Log in to sit at this table.");
      return;
    }
    let balance = currentAccount()?.balance ?? 0;
    try {
      balance = (await loadAccount())?.balance ?? balance;
    } catch {
      // the last balance known will do
    }
    const min = settings.min_buy_in;
    const max = Math.min(settings.max_buy_in, Math.max(min, balance));
    numberDialog(page, {
      title: `Sit at seat ${seat + 1}`,
      text:
        `Buy-in between ${chips(min)} and ${chips(settings.max_buy_in)} chips. ` +
        `Your wallet holds ${chips(balance)} chips.`,
      label: "Buy-in",
      min,
      max,
      value: max,
      submit: "Sit",
      act: async (n) => {
        const answer = await socket.act(
          { type: "sit", seat, buy_in: n },
          room.view?.state_id ?? null,
        );
        if (answer.type === "ack") {
          unseated = "";
          announce(`You sat at seat ${seat + 1} with ${n} chips.`);
          loadAccount().catch(() => {});
        }
        return answer;
      },
    });
  }

  async function topUp() {
    const mySeat = room.seat;
    const settings = room.settings;
    const seat = mySeat !== null ? room.view?.seats?.[mySeat] : null;
    if (!seat || !settings) return;
    let balance = currentAccount()?.balance ?? 0;
    try {
      balance = (await loadAccount())?.balance ?? balance;
    } catch {
      // the last balance known will do
    }
    const headroom = settings.max_buy_in - seat.stack;
    if (headroom < 1) {
      say("Your stack is already at the table's maximum.");
      return;
    }
    numberDialog(page, {
      title: "Top up",
      text:
        `Add up to ${chips(headroom)} chips (between hands). ` +
        `Your wallet holds ${chips(balance)} chips.`,
      label: "Amount",
      min: 1,
      max: headroom,
      value: Math.min(headroom, balance),
      submit: "Top up",
      act: async (n) => {
        const answer = await socket.act(
          { type: "top_up", amount: n },
          room.view?.state_id ?? null,
        );
        if (answer.type === "ack") loadAccount().catch(() => {});
        return answer;
      },
    });
  }

  return { element, draw, buyIn, noteUnseated };
}
