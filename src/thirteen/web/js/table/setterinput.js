// The ways to move a card of the setter: a click (into the outlines, back first), a tap to choose
// a card then a tap on where it goes, a double click (back to your cards), the keys (F, M, B, S or
// Backspace, D; Enter plays) and a drag with mouse, pen or finger (./drag.js). Every move goes to
// the arrangement; the turn (./turn.js) draws what changed.

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
    if (selected && card !== selected && zoneEl) {
      const zone = /** @type {Zone} */ (zoneEl.dataset.zone);
      let index;
      if (zone === "set") {
        const without = a.set.filter((c) => c !== selected);
        index = card ? without.indexOf(card) : undefined;
        if (index !== undefined && index < 0) index = undefined;
      } else {
        const slot = /** @type {HTMLElement | null} */ (event.target.closest("[data-slot]"));
        index = slot ? Number(slot.dataset.slot) : undefined;
        // a tap on a full place of a row with room left: take a free place, do not swap
        const slots = a.slots(zone);
        if (index !== undefined && slots?.[index]?.card && a.room(zone) > 0) index = undefined;
      }
      const moved = a.move(selected, zone, index);
      selected = null;
      if (moved) turn.changed();
      else turn.redraw();
      return;
    }
    if (!card) return;
    const at = a.find(card);
    if (at?.zone === "set" && lastPointer !== "touch") {
      selected = null;
      if (a.placeAuto(card) || (a.room("discard") > 0 && a.move(card, "discard"))) turn.changed();
      return;
    }
    // a tap (or a click on a placed card) chooses the card; the next tap says where it goes
    selected = selected === card ? null : card;
    markSelection();
  }

  /** @param {MouseEvent} event */
  function onSetterDoubleClick(event) {
    const a = turn.arrangement();
    if (!a || turn.busy() || !(event.target instanceof Element)) return;
    const cardEl = /** @type {HTMLElement | null} */ (event.target.closest(".card[data-movable]"));
    const card = cardEl?.dataset.card;
    if (!card || a.find(card)?.zone === "set") return;
    selected = null;
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
  }

  return {
    get selected() {
      return selected;
    },
    clear() {
      selected = null;
    },
    /** Listen on a setter just drawn. @param {HTMLElement} root */
    listen(root) {
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
