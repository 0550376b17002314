// The ways to move a card of the setter: a click or a tap (into the outlines, back first, right
// to left; a tapped card stays chosen, so a tap on a row then moves it there), a tap on a placed
// card then on where it goes, a double click (back to your cards; the second click of a double
// click never places another card), the keys (F, M, B, S or Backspace, D; the arrows move between
// cards; Enter plays) and a drag with mouse, pen or finger (./drag.js). A line under the cards
// says what a tap on a row will do with the card chosen. Every move goes to the arrangement; the
// turn (./turn.js) draws what changed.

import { cardName } from "../cards.js";
import { enableDrag } from "./drag.js";
import { ROW_NAMES } from "./setter.js";

/** @typedef {import("./setter.js").Arrangement} Arrangement */
/** @typedef {import("./setter.js").Zone} Zone */

const KEYS = { f: "front", m: "middle", b: "back", s: "set", backspace: "set", d: "discard" };

/**
 * Listen for card moves: `listen(root)` on each setter drawn (the drags are listened for on the
 * felt once); `selected` the card chosen by a tap, `clear()` forgets it; `stop()` when the page
 * goes.
 * @param {HTMLElement} felt
 * @param {{arrangement: () => Arrangement | null, busy: () => boolean, changed: () => void,
 *   redraw: () => void, play: () => void, say: (text: string) => void}} turn
 *   `changed` after a move (draws and evaluates), `redraw` after a choice that moved nothing
 */
export function cardMoves(felt, turn) {
  /** @type {string | null} the card chosen to move (tap, then tap a row) */
  let selected = null;
  /** the chosen card was just placed by its tap (a tap on another of your cards places that
   * one, rather than moving the chosen card among your cards) */
  let justPlaced = false;
  let lastPointer = "mouse";

  const stopDrag = enableDrag(felt, {
    card(el) {
      const card = /** @type {HTMLElement} */ (el).dataset.card;
      return card && el.hasAttribute("data-movable") && turn.arrangement() && !turn.busy()
        ? card
        : null;
    },
    onDrop(card, target, x) {
      const arrangement = turn.arrangement();
      if (!arrangement || !target) return;
      const zoneEl = /** @type {HTMLElement | null} */ (target.closest("[data-zone]"));
      if (!zoneEl) return;
      const zone = /** @type {Zone} */ (zoneEl.dataset.zone);
      let index;
      if (zone === "set") index = setIndexAt(zoneEl, x, card);
      else {
        const slot = /** @type {HTMLElement | null} */ (target.closest("[data-slot]"));
        index = slot ? Number(slot.dataset.slot) : undefined;
      }
      if (arrangement.move(card, zone, index)) turn.changed();
    },
  });

  /**
   * Where in the set (without the card dragged) a card dropped at x goes.
   * @param {HTMLElement} zoneEl @param {number} x @param {string} card
   */
  function setIndexAt(zoneEl, x, card) {
    const cards = [...zoneEl.querySelectorAll(".card[data-card]")].filter(
      (el) => /** @type {HTMLElement} */ (el).dataset.card !== card,
    );
    let index = cards.length;
    for (let i = 0; i < cards.length; i++) {
      const box = cards[i].getBoundingClientRect();
      if (x <= box.left + box.width / 2) {
        index = i;
        break;
      }
    }
    return index;
  }

  /** @param {MouseEvent} event */
  function onSetterClick(event) {
    const a = turn.arrangement();
    if (!a || turn.busy() || !(event.target instanceof Element)) return;
    const cardEl = /** @type {HTMLElement | null} */ (event.target.closest(".card[data-movable]"));
    const zoneEl = /** @type {HTMLElement | null} */ (event.target.closest("[data-zone]"));
    if (event.target.closest("button:not(.card), select")) return;
    const card = cardEl?.dataset.card ?? null;
    const inSet = card !== null && a.find(card)?.zone === "set";
    if (selected && card !== selected && zoneEl && !(justPlaced && inSet)) {
      const zone = /** @type {Zone} */ (zoneEl.dataset.zone);
      let index;
      if (zone === "set") {
        const without = a.set.filter((c) => c !== selected);
        index = card ? without.indexOf(card) : undefined;
        if (index !== undefined && index < 0) index = undefined;
      } else {
        const slot = /** @type {HTMLElement | null} */ (event.target.closest("[data-slot]"));
        index = slot ? Number(slot.dataset.slot) : undefined;
      }
      const moved = a.move(selected, zone, index);
      selected = null;
      justPlaced = false;
      if (moved) turn.changed();
      else turn.redraw();
      return;
    }
    if (!card) return;
    const touch = lastPointer === "touch";
    if (inSet) {
      // the second click of a double click: the card under the pointer is another one now
      if (!touch && event.detail >= 2) return;
      if (a.placeAuto(card) || (a.room("discard") > 0 && a.move(card, "discard"))) {
        // a tapped card stays chosen: a tap on a row moves it on
        selected = touch ? card : null;
        justPlaced = touch;
        turn.changed();
      }
      return;
    }
    // a tap (or a click on a placed card) chooses the card; the next tap says where it goes
    selected = selected === card ? null : card;
    justPlaced = false;
    markSelection();
  }

  /** What a tap does now with the card chosen, in a line under the cards ("" for none). */
  function tip() {
    const a = turn.arrangement();
    const at = selected && a ? a.find(selected) : null;
    if (!a || !selected || !at) return "";
    const tap = lastPointer === "touch" ? "tap" : "click";
    const rows = a.discard.length ? "a row or the discard" : "a row";
    const name = cardName(selected);
    if (at.zone === "set") return `${name} chosen: now ${tap} ${rows} to put it there.`;
    const where = at.zone === "discard" ? "the discard" : `the ${at.zone}`;
    return justPlaced
      ? `${name} went to ${where}: ${tap} another row to move it, or ${tap} your next card.`
      : `${name} chosen (in ${where}): now ${tap} ${rows}, or your cards, to move it.`;
  }

  /** @param {ParentNode} root */
  function writeTip(root) {
    const line = root.querySelector(".select-tip");
    if (line) line.textContent = tip();
  }

  /**
   * The arrows move the focus between movable cards: left and right to the one before or after,
   * up and down to the first card of the zone before or after.
   * @param {HTMLElement} from @param {string} key
   */
  function focusAlong(from, key) {
    const cards = /** @type {HTMLElement[]} */ ([
      ...felt.querySelectorAll(".setter .card[data-movable]"),
    ]);
    const i = cards.indexOf(from);
    if (i < 0) return;
    let next = null;
    if (key === "arrowleft") next = cards[i - 1];
    else if (key === "arrowright") next = cards[i + 1];
    else {
      const zoneOf = (/** @type {HTMLElement} */ el) => el.closest("[data-zone]");
      const zones = [...new Set(cards.map(zoneOf))];
      const z = zones.indexOf(zoneOf(from)) + (key === "arrowup" ? -1 : 1);
      next = cards.find((el) => zoneOf(el) === zones[z]);
    }
    next?.focus();
  }

  /** @param {MouseEvent} event */
  function onSetterDoubleClick(event) {
    const a = turn.arrangement();
    if (!a || turn.busy() || !(event.target instanceof Element)) return;
    const cardEl = /** @type {HTMLElement | null} */ (event.target.closest(".card[data-movable]"));
    const card = cardEl?.dataset.card;
    // two quick taps are two cards placed, never a double click that sends the second back
    if (!card || a.find(card)?.zone === "set" || lastPointer === "touch") return;
    selected = null;
    justPlaced = false;
    if (a.move(card, "set")) turn.changed();
  }

  /** @param {KeyboardEvent} event */
  function onSetterKey(event) {
    const a = turn.arrangement();
    if (!a || event.ctrlKey || event.metaKey || event.altKey) return;
    lastPointer = "keyboard";
    const key = event.key.toLowerCase();
    const control = /** @type {HTMLElement} */ (event.target);
    if (key === "enter") {
      // Enter on a card plays; on another button or the natural's list it does that instead
      if (control.closest?.("button:not(.card), select")) return;
      if (a.complete() && !turn.busy()) {
        event.preventDefault();
        turn.play();
      }
      return;
    }
    const target = /** @type {HTMLElement} */ (event.target);
    const card = target.matches?.(".card[data-movable]") ? target.dataset.card : null;
    if (card && key.startsWith("arrow")) {
      event.preventDefault();
      focusAlong(target, key);
      return;
    }
    const keys = /** @type {Record<string, Zone>} */ (KEYS);
    const zone = keys[key];
    if (!card || !zone || turn.busy()) return;
    if (zone === "discard" && !a.discard.length) return;
    event.preventDefault();
    const from = a.find(card);
    if (!a.move(card, zone)) {
      const where = zone === "discard" ? "the discard" : ROW_NAMES[zone].toLowerCase();
      turn.say(zone === "set" ? "That card is already in your cards." : `No room in ${where}.`);
      return;
    }
    selected = null;
    justPlaced = false;
    turn.changed();
    // keep working through the set: focus the card that took this one's place
    let next = card;
    if (from?.zone === "set" && a.set.length) next = a.set[Math.min(from.index, a.set.length - 1)];
    const focus = felt.querySelector(`.setter .card[data-card="${next}"]`);
    /** @type {HTMLElement | null} */ (focus)?.focus();
  }

  function markSelection() {
    for (const el of felt.querySelectorAll(".setter .card[data-movable]")) {
      const on = /** @type {HTMLElement} */ (el).dataset.card === selected;
      el.classList.toggle("selected", on);
      if (on) el.setAttribute("aria-pressed", "true");
      else el.removeAttribute("aria-pressed");
    }
    writeTip(felt);
  }

  return {
    get selected() {
      return selected;
    },
    clear() {
      selected = null;
      justPlaced = false;
    },
    /** Listen on a setter just drawn (and write its line on the card chosen).
     * @param {HTMLElement} root */
    listen(root) {
      writeTip(root);
      root.addEventListener("pointerdown", (event) => {
        lastPointer = event.pointerType || "mouse";
      });
      root.addEventListener("click", onSetterClick);
      root.addEventListener("dblclick", onSetterDoubleClick);
      root.addEventListener("keydown", onSetterKey);
    },
    stop: stopDrag,
  };
}
