// What an arrangement makes under a table's rules, computed in the browser on the frame a card
// moves: each row's hand name (as the engine names it), whether it fouls (or can no longer
// avoid it) with the engine's sentence, and the royalties of the complete rows. A port of
// `thirteen.engine.arrangement.assess` (the room's GET /api/tables/{id}/evaluate gives the same
// answer; tests/web/test_table_rank.py compares the two on tens of thousands of arrangements).
// The room's verdict still decides when the hand is played.
//
// A hand is compared by its class key, [category, r1, …, r5]: the ranks (1 = a two … 13 = an
// ace) in order of importance, 0-padded, so that a three-card front sorts below the five-card
// hands that share its first ranks (the engine's strengths are these keys' order).

import { RANKS } from "../cards.js";

/** @typedef {import("../cards.js").Card} Card */
/** @typedef {"front" | "middle" | "back"} Row */
/** @typedef {number[]} ClassKey  [category, r1, r2, r3, r4, r5] */
/**
 * The answer, shaped as the room's evaluate endpoint answers.
 * @typedef {{rows: {row: Row, cards: string, name: string | null, royalty: number}[],
 *   foul: boolean, warning: string | null, royalties: number}} Assessment
 */

const HIGH_CARD = 0;
const PAIR = 1;
const TWO_PAIR = 2;
const TRIPS = 3;
const STRAIGHT = 4;
const FLUSH = 5;
const FULL_HOUSE = 6;
const QUADS = 7;
const STRAIGHT_FLUSH = 8;
const CATEGORY_NAMES = [
  "high card",
  "pair",
  "two pair",
  "trips",
  "straight",
  "flush",
  "full house",
  "quads",
  "straight flush",
];
const RANK_NAMES = [
  "Two",
  "Three",
  "Four",
  "Five",
  "Six",
  "Seven",
  "Eight",
  "Nine",
  "Ten",
  "Jack",
  "Queen",
  "King",
  "Ace",
];
/** @type {Row[]} */
const ROWS = ["front", "middle", "back"];
const SIZES = { front: 3, middle: 5, back: 5 };
const TITLES = { front: "Front", middle: "Middle", back: "Back" };
/** Scoop and overall bonuses of each scoring (rules.py's _SCORING_BONUSES). */
const SCORING_BONUSES = { "1-6": [3, 0], "2-4": [0, 1], "1-4": [1, 0], "1-3": [0, 0] };

/** 1 for a two … 13 for an ace. @param {Card} card */
const rankOf = (card) => RANKS.indexOf(card[0]) + 1;

/** "Kings", "Sixes". @param {number} rank 1 … 13 */
const plural = (rank) => {
  const name = RANK_NAMES[rank - 1];
  return name === "Six" ? "Sixes" : `${name}s`;
};

/**
 * The ranks of some cards grouped as the engine orders them: most copies first, then highest.
 * @param {Card[]} cards @returns {[number, number][]} [rank, copies]
 */
function groups(cards) {
  /** @type {Map<number, number>} */
  const counts = new Map();
  for (const card of cards) counts.set(rankOf(card), (counts.get(rankOf(card)) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1] || y[0] - x[0]);
}

/** @param {number} category @param {number[]} ranks @returns {ClassKey} */
const key = (category, ...ranks) => [category, ...ranks, 0, 0, 0, 0, 0].slice(0, 6);

/**
 * The class key of a complete row: three cards (no straights or flushes) or five.
 * @param {Card[]} cards @returns {ClassKey}
 */
export function classKey(cards) {
  const g = groups(cards);
  const ranks = g.map(([r]) => r);
  if (cards.length === 3) {
    if (g[0][1] === 3) return key(TRIPS, ranks[0]);
    return key(g[0][1] === 2 ? PAIR : HIGH_CARD, ...ranks);
  }
  if (g.length === 5) {
    const flush = cards.every((c) => c[1] === cards[0][1]);
    const wheel = ranks[0] === 13 && ranks[1] === 4;
    if (ranks[0] - ranks[4] === 4 || wheel) {
      return key(flush ? STRAIGHT_FLUSH : STRAIGHT, wheel ? 4 : ranks[0]);
    }
    return key(flush ? FLUSH : HIGH_CARD, ...ranks);
  }
  const [top, next] = [g[0][1], g[1][1]];
  if (top === 4) return key(QUADS, ...ranks);
  if (top === 3) return key(next === 2 ? FULL_HOUSE : TRIPS, ...ranks);
  return key(next === 2 ? TWO_PAIR : PAIR, ...ranks);
}

/** <0, 0, >0 as x is weaker, as strong, stronger. @param {ClassKey} x @param {ClassKey} y */
export function compareKeys(x, y) {
  for (let i = 0; i < 6; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** A readable name, as the engine's `describe`. @param {ClassKey} k */
export function describe(k) {
  const [category, r1, r2] = k;
  const single = r1 ? RANK_NAMES[r1 - 1] : "";
  switch (category) {
    case HIGH_CARD:
      return `${single} high`;
    case PAIR:
      return `Pair of ${plural(r1)}`;
    case TWO_PAIR:
      return `Two pair, ${plural(r1)} and ${plural(r2)}`;
    case TRIPS:
      return `Three ${plural(r1)}`;
    case STRAIGHT:
      return `${single}-high straight`;
    case FLUSH:
      return `${single}-high flush`;
    case FULL_HOUSE:
      return `${plural(r1)} full of ${plural(r2)}`;
    case QUADS:
      return `Four ${plural(r1)}`;
    default:
      return r1 === 13 ? "Royal flush" : `${single}-high straight flush`;
  }
}

/** The labels royalty tables key a hand by, most specific first ("QQ", "pair").
 * @param {ClassKey} k */
function labels(k) {
  const [category, r1] = k;
  const name = CATEGORY_NAMES[category];
  if (category === PAIR) return [RANKS[r1 - 1].repeat(2), name];
  if (category === TRIPS) return [RANKS[r1 - 1].repeat(3), name];
  if (category === STRAIGHT_FLUSH && r1 === 13) return ["royal flush", name];
  return [name];
}

/**
 * What an incomplete row already makes by ranks alone (straights and flushes only count once
 * the row is full): its category, the ranks of its pairs, trips or quads (or its highest card),
 * and its name.
 * @param {Card[]} cards @returns {{category: number, ranks: number[], name: string}}
 */
function made(cards) {
  const g = groups(cards);
  const [top, copies] = g[0];
  if (copies === 4) return { category: QUADS, ranks: [top], name: `Four ${plural(top)}` };
  if (copies === 3) return { category: TRIPS, ranks: [top], name: `Three ${plural(top)}` };
  if (copies === 2) {
    if (g.length > 1 && g[1][1] === 2) {
      const low = g[1][0];
      const name = `Two pair, ${plural(top)} and ${plural(low)}`;
      return { category: TWO_PAIR, ranks: [top, low], name };
    }
    return { category: PAIR, ranks: [top], name: `Pair of ${plural(top)}` };
  }
  return { category: HIGH_CARD, ranks: [top], name: `${RANK_NAMES[top - 1]} high` };
}

/** The name of a complete row (a lowball middle as a 2-7 low).
 * @param {Record<string, any>} rules @param {Row} row @param {Card[]} cards */
function rowName(rules, row, cards) {
  const k = classKey(cards);
  if (row === "middle" && rules.lowball_middle && k[0] === HIGH_CARD) {
    const ranks = [...cards].sort((x, y) => cardIndex(y) - cardIndex(x)).map((c) => c[0]);
    return `2-7 low ${ranks.join("-")}`;
  }
  return describe(k);
}

/** The engine's card number (rank × 4 + suit). @param {Card} card */
const cardIndex = (card) => (rankOf(card) - 1) * 4 + "cdhs".indexOf(card[1]);

/** Whether an incomplete row beats a complete one however it is finished.
 * @param {Card[]} upper @param {ClassKey} lower */
function beatsForSure(upper, lower) {
  const { category, ranks } = made(upper);
  if (category !== lower[0]) return category > lower[0];
  // finished in the same category, its leading ranks are these (a better finish only helps)
  const theirs = lower.slice(1, 1 + ranks.length);
  for (let i = 0; i < ranks.length; i++) if (ranks[i] !== theirs[i]) return ranks[i] > theirs[i];
  return false;
}

/** A front ties a five-card row on the front's own ranks (seed 004's reading): same category
 * and the same leading ranks. @param {ClassKey} front @param {ClassKey} row */
function tiesOnFrontRanks(front, row) {
  const n = front.slice(1).filter(Boolean).length;
  return front.slice(0, 1 + n).every((v, i) => v === row[i]);
}

/**
 * The sentence when the arrangement fouls or can no longer avoid it; null otherwise.
 * @param {Record<string, any>} rules @param {Card[][]} rows @param {(ClassKey | null)[]} keys
 */
function foulWarning(rules, rows, keys) {
  const pairs = rules.lowball_middle
    ? [[0, 2]]
    : [
        [0, 1],
        [1, 2],
        [0, 2],
      ];
  for (const [upper, lower] of pairs) {
    const high = keys[upper];
    const low = keys[lower];
    const a = TITLES[ROWS[upper]];
    const b = TITLES[ROWS[lower]];
    if (high && low) {
      if (upper === 0 && rules.front_below_middle && tiesOnFrontRanks(high, low)) {
        return (
          `${a} ties ${b} on the front's ranks, and at this table the front must be ` +
          "below the middle: this hand would foul."
        );
      }
      if (compareKeys(high, low) > 0) return `${a} beats ${b}: this hand would foul.`;
    } else if (low && rows[upper].length && beatsForSure(rows[upper], low)) {
      return `${a} already beats ${b}: this hand will foul whatever comes.`;
    }
  }
  return null;
}

/** The royalty units a complete row earns under a royalty table.
 * @param {Record<string, any>} rules @param {Row} row @param {ClassKey} k */
function royalty(rules, row, k) {
  const paid = rules.royalties?.[row] ?? {};
  for (const label of labels(k)) if (label in paid) return Number(paid[label]);
  return 0;
}

/**
 * Each row's name, the foul and the royalties of an arrangement (rows maybe incomplete) under
 * a table's rules (the settings as the room sends them: `Rules.to_dict`).
 * @param {Record<string, any>} rules
 * @param {Record<Row, Card[]>} cards
 * @returns {Assessment}
 */
export function assess(rules, cards) {
  const rows = ROWS.map((row) => cards[row] ?? []);
  const complete = ROWS.map((row, i) => rows[i].length === SIZES[row]);
  // a lowball middle is compared with neither row (only front ≤ back): no key needed
  const keys = ROWS.map((row, i) =>
    complete[i] && !(row === "middle" && rules.lowball_middle) ? classKey(rows[i]) : null,
  );
  const warning = foulWarning(rules, rows, keys);
  const royalties = ROWS.map((row, i) => {
    const k = keys[i];
    return k && warning === null && rules.royalty_mode !== "off" ? royalty(rules, row, k) : 0;
  });
  return {
    rows: ROWS.map((row, i) => ({
      row,
      cards: rows[i].join(" "),
      name: !rows[i].length
        ? null
        : complete[i]
          ? rowName(rules, row, rows[i])
          : made(rows[i]).name,
      royalty: royalties[i],
    })),
    foul: warning !== null,
    warning,
    royalties: royalties.reduce((x, y) => x + y, 0),
  };
}

/**
 * What a fouled hand pays each opponent who did not foul, before their royalties
 * (`Rules.foul_cost`): the foul penalty, or else a scoop.
 * @param {Record<string, any>} rules
 */
export function foulCost(rules) {
  if (typeof rules.foul_penalty === "number") return rules.foul_penalty;
  const [scoop, overall] =
    /** @type {Record<string, number[]>} */ (SCORING_BONUSES)[rules.scoring] ?? [3, 0];
  return 3 + scoop + overall;
}
