// The arrangement in progress: the player's cards in the set (one row), the three outlines
// (front, middle, back) and the discard target. No DOM here: setterview.js draws it.
//
// Chinese Poker and fantasyland (`me.mode` "set"): every card of `me.cards` is movable; the rows
// hold 3, 5 and 5; cards left in the set (fantasyland) or in the discard are discarded.
// OFC streets (`me.mode` "street"): the rows start with the cards of earlier streets (locked),
// then `me.room` free places each; `me.discard_now` cards go to the discard.

import { sortByRank, sortBySuit } from "../cards.js";

/** @typedef {import("../cards.js").Card} Card */
/** @typedef {"front" | "middle" | "back"} Row */
/** @typedef {Row | "set" | "discard"} Zone */
/** @typedef {{card: Card | null, locked: boolean}} Slot */

/** @type {Row[]} */
export const ROWS = ["front", "middle", "back"];
/** Rows in the order a click fills them: back, middle, front. @type {Row[]} */
export const FILL_ORDER = ["back", "middle", "front"];
export const ROW_NAMES = { front: "Front", middle: "Middle", back: "Back" };
export const SIZES = { front: 3, middle: 5, back: 5 };

export class Arrangement {
  /**
   * @param {{key: string, mode: string, cards: Card[], fixed: Record<Row, Card[]>,
   *          room: number[], discard: number}} spec
   */
  constructor(spec) {
    this.key = spec.key;
    this.mode = spec.mode;
    /** Every card this decision plays (for checking against the room's view). */
    this.cards = [...spec.cards];
    /** @type {Card[]} */
    this.set = [...spec.cards];
    /** @type {Record<Row, Slot[]>} */
    this.rows = { front: [], middle: [], back: [] };
    ROWS.forEach((row, i) => {
      const fixed = spec.fixed[row] ?? [];
      const free = spec.mode === "set" ? SIZES[row] : Math.max(0, spec.room[i] ?? 0);
      this.rows[row] = [
        ...fixed.map((card) => ({ card, locked: true })),
        ...Array.from({ length: free }, () => ({ card: null, locked: false })),
      ];
    });
    /** @type {Slot[]} */
    this.discard = Array.from({ length: Math.max(0, spec.discard) }, () => ({
      card: null,
      locked: false,
    }));
  }

  /** @param {Zone} zone @returns {Slot[] | null} */
  slots(zone) {
    if (zone === "set") return null;
    return zone === "discard" ? this.discard : this.rows[zone];
  }

  /**
   * Where a movable card is.
   * @param {Card} card
   * @returns {{zone: Zone, index: number} | null}
   */
  find(card) {
    const i = this.set.indexOf(card);
    if (i >= 0) return { zone: "set", index: i };
    for (const zone of /** @type {Zone[]} */ ([...ROWS, "discard"])) {
      const slots = /** @type {Slot[]} */ (this.slots(zone));
      const j = slots.findIndex((s) => s.card === card && !s.locked);
      if (j >= 0) return { zone, index: j };
    }
    return null;
  }

  /** @param {Card} card */
  isMovable(card) {
    return this.find(card) !== null;
  }

  /** @param {Card} card @returns {{zone: Zone, index: number} | null} */
  take(card) {
    const at = this.find(card);
    if (!at) return null;
    if (at.zone === "set") this.set.splice(at.index, 1);
    else /** @type {Slot[]} */ (this.slots(at.zone))[at.index].card = null;
    return at;
  }

  /** The rightmost free place of a zone, or -1. @param {Zone} zone */
  freeSlot(zone) {
    const slots = this.slots(zone);
    if (!slots) return -1;
    for (let i = slots.length - 1; i >= 0; i--) if (!slots[i].card) return i;
    return -1;
  }

  /** Free places left in a zone. @param {Zone} zone */
  room(zone) {
    const slots = this.slots(zone);
    return slots ? slots.filter((s) => !s.card).length : Infinity;
  }

  /**
   * A click on a card of the set: into the outlines from back to front, right to left.
   * @param {Card} card
   */
  placeAuto(card) {
    const row = FILL_ORDER.find((r) => this.freeSlot(r) >= 0);
    if (!row || this.find(card)?.zone !== "set") return false;
    return this.move(card, row);
  }

  /**
   * Move a movable card to a zone: at a place (`index`: a slot, or a position in the set
   * without the card), or at the rightmost free place (the end of the set). A card brought from
   * elsewhere onto an occupied place takes a free place of that row when it has one, and swaps
   * with the card there only when the row is full (or within the row). Returns whether anything
   * moved.
   * @param {Card} card
   * @param {Zone} zone
   * @param {number} [index]
   */
  move(card, zone, index) {
    const from = this.find(card);
    if (!from) return false;
    if (zone === "set") {
      // `index` counts positions in the set without the card moved
      this.take(card);
      const at = index ?? this.set.length;
      this.set.splice(Math.max(0, Math.min(at, this.set.length)), 0, card);
      return true;
    }
    const slots = /** @type {Slot[]} */ (this.slots(zone));
    let target = index ?? -1;
    if (target >= 0 && (target >= slots.length || slots[target].locked)) target = -1;
    if (target >= 0 && slots[target].card && from.zone !== zone && this.room(zone) > 0) {
      target = -1;
    }
    if (target < 0) {
      if (from.zone === zone) return false;
      target = this.freeSlot(zone);
      if (target < 0) return false;
    }
    const other = slots[target].card;
    if (other === card) return false;
    this.take(card);
    if (other) {
      // swap: the card that was there goes where the moved one came from
      slots[target].card = null;
      if (from.zone === "set") this.set.splice(from.index, 0, other);
      else /** @type {Slot[]} */ (this.slots(from.zone))[from.index].card = other;
    }
    slots[target].card = card;
    return true;
  }

  /** Every movable card of a row (or the discard) back to the end of the set. @param {Zone} zone */
  reset(zone) {
    const slots = this.slots(zone);
    if (!slots) return;
    for (const slot of slots) {
      if (slot.card && !slot.locked) {
        this.set.push(slot.card);
        slot.card = null;
      }
    }
  }

  resetAll() {
    for (const zone of /** @type {Zone[]} */ ([...ROWS, "discard"])) this.reset(zone);
  }

  /** @param {"rank" | "suit"} by */
  sort(by) {
    this.set = by === "rank" ? sortByRank(this.set) : sortBySuit(this.set);
  }

  /** Cards placed (movable ones) in the rows and the discard. */
  placed() {
    return this.cards.length - this.set.length;
  }

  /** @param {Row} row */
  full(row) {
    return this.rows[row].every((s) => s.card);
  }

  /** The arrangement can be played. */
  complete() {
    if (this.mode === "set") return ROWS.every((r) => this.full(r));
    return this.set.length === 0 && this.discard.every((s) => s.card);
  }

  /** Every card of a row, locked ones included. @param {Row} row @returns {Card[]} */
  rowCards(row) {
    return /** @type {Card[]} */ (this.rows[row].map((s) => s.card).filter(Boolean));
  }

  /** The movable cards of a zone. @param {Zone} zone @returns {Card[]} */
  newCards(zone) {
    const slots = this.slots(zone);
    if (!slots) return [...this.set];
    return /** @type {Card[]} */ (slots.filter((s) => !s.locked && s.card).map((s) => s.card));
  }

  /** The action that plays this arrangement. */
  action() {
    if (this.mode === "set") {
      return {
        type: "set_hand",
        front: this.rowCards("front").join(" "),
        middle: this.rowCards("middle").join(" "),
        back: this.rowCards("back").join(" "),
      };
    }
    /** @type {Record<string, string>} */
    const action = {
      type: "place",
      front: this.newCards("front").join(" "),
      middle: this.newCards("middle").join(" "),
      back: this.newCards("back").join(" "),
    };
    if (this.discard.length) action.discard = this.newCards("discard").join(" ");
    return action;
  }

  /**
   * Put the cards as an action says (a hint's arrangement); false when it does not fit.
   * @param {Record<string, string>} action
   */
  apply(action) {
    this.resetAll();
    for (const zone of /** @type {Zone[]} */ ([...ROWS, "discard"])) {
      const text = action[zone];
      if (!text) continue;
      for (const card of text.split(/\s+/).filter(Boolean)) {
        if (this.find(card)?.zone !== "set") continue;
        // a set hand names whole rows: skip the cards already there (locked)
        if (!this.move(card, zone)) return false;
      }
    }
    return true;
  }
}
