// A player's copy of a finished hand (GET /api/hands/{id}?format=json) as steps: what the table
// looked like to that player after the deal, after each action, and at the showdown.
//
// Only what the player saw is shown: their own cards from the deal on; Open-Face streets face up
// as they were placed; a Chinese Poker (or fantasyland) hand face down until the showdown; a
// surrendered hand never. The copy opens only the cards its player saw, so nothing else could be
// shown anyway. Two things a copy does not record: where the room put the cards of a hand that
// timed out, and how it arranged a declared natural — those cards are shown unarranged.

import { parseCards } from "../cards.js";

/**
 * @typedef {{seat: number, player: string, position: number, mine: boolean,
 *   front: string[], middle: string[], back: string[],
 *   hidden: {front: string[], middle: string[], back: string[]} | null,
 *   faceDown: boolean, loose: string[], looseNote: string,
 *   toPlay: string[], discards: string[], hiddenDiscards: number,
 *   cardsDealt: number, fantasyland: number | null, street: number,
 *   outcome: "playing" | "set" | "natural" | "surrendered", natural: string | null,
 *   timedOut: boolean, leaving: boolean}} BoardStep
 * @typedef {{seat: number, player: string, total: number, money: number, foul: boolean}} SeatResult
 * @typedef {{title: string, text: string, actor: number | null, boards: BoardStep[],
 *   showdown: boolean, results: SeatResult[] | null}} Step
 * @typedef {{hand: number, viewer: number | null, rules: string, game: string, button: number,
 *   order: number[], started: number, steps: Step[], results: SeatResult[] | null,
 *   commitment: string}} Replay
 */

export const NATURALS = {
  dragon: "a dragon",
  "three-flushes": "three flushes",
  "three-straights": "three straights",
  "six-pairs": "six pairs",
  "no-face-cards": "no face cards",
};

const ROWS = /** @type {const} */ (["front", "middle", "back"]);
const ROW_SIZES = { front: 3, middle: 5, back: 5 };

/** "+1 point", "−6 points" (a real minus sign) @param {number} n */
function points(n) {
  const sign = n > 0 ? "+" : n < 0 ? "−" : "";
  return `${sign}${Math.abs(n)} ${Math.abs(n) === 1 ? "point" : "points"}`;
}

/** @param {string[]} cards */
function listed(cards) {
  return cards.length ? cards.join(" ") : "nothing";
}

/**
 * The seats dealt in, in dealing order (from the left of the button), and the button, as the
 * engine deals them (thirteen.engine.table._start_hand).
 * @param {any} start
 * @param {any} result
 * @returns {{order: number[], button: number}}
 */
export function dealingOrder(start, result) {
  const n = start.seats.length;
  if (result && Array.isArray(result.seats) && result.seats.length) {
    const order = /** @type {number[]} */ (result.seats);
    return { order, button: order[order.length - 1] };
  }
  const ready = start.seats
    .map((/** @type {any} */ s, /** @type {number} */ i) => (s && !s.sitting_out && s.stack > 0 ? i : -1))
    .filter((/** @type {number} */ i) => i >= 0);
  const fl = ready.some((/** @type {number} */ i) => start.rules.fantasyland && start.seats[i].fantasyland);
  let button;
  if (start.button !== null && fl && start.rules.fantasyland_freezes_button) button = start.button;
  else {
    const from = start.button === null ? 0 : (start.button + 1) % n;
    button = [...ready].sort((a, b) => ((a - from + n) % n) - ((b - from + n) % n))[0];
  }
  const order = [...ready].sort(
    (a, b) => ((a - button - 1 + 2 * n) % n) - ((b - button - 1 + 2 * n) % n),
  );
  return { order, button };
}

/**
 * Build the steps of a hand from a player's copy.
 * @param {any} history
 * @returns {Replay}
 */
export function buildReplay(history) {
  const start = history.start;
  const rules = start.rules;
  const ofc = rules.game === "ofc";
  const streets = /** @type {number[]} */ (rules.streets);
  const perPlayer = streets.reduce((a, b) => a + b, 0);
  let flMax = 0;
  if (rules.fantasyland) {
    flMax = Math.max(0, ...Object.values(rules.fantasyland_entry ?? {}).map(Number));
    if (rules.fantasyland_repeat_cards) flMax = Math.max(flMax, rules.fantasyland_repeat_cards);
  }
  const slice = Math.max(perPlayer, flMax);
  const viewer = typeof history.viewer === "number" ? history.viewer : null;
  /** @type {Map<number, string>} */
  const opened = new Map();
  for (const [position, card] of history.deal?.openings ?? []) opened.set(position, card);
  if (history.deal?.deck) {
    parseCards(history.deal.deck).forEach((card, i) => opened.set(i, card));
  }
  /** @param {number} from @param {number} count */
  const cardsAt = (from, count) =>
    Array.from({ length: count }, (_, i) => opened.get(from + i) ?? "??");

  const { order, button } = dealingOrder(start, history.result);
  /** @param {number} seat */
  const player = (seat) => start.seats[seat]?.player ?? `Seat ${seat + 1}`;
  /** @param {number} seat */
  const who = (seat) => (seat === viewer ? "You" : player(seat));

  /** @type {BoardStep[]} */
  let boards = order.map((seat, position) => {
    const fl = rules.fantasyland ? (start.seats[seat]?.fantasyland ?? null) : null;
    const count = fl ?? streets[0];
    const dealt = cardsAt(position * slice, count);
    return {
      seat,
      player: player(seat),
      position,
      mine: seat === viewer,
      front: [],
      middle: [],
      back: [],
      hidden: null,
      faceDown: false,
      loose: [],
      looseNote: "",
      toPlay: seat === viewer ? dealt : [],
      discards: [],
      hiddenDiscards: 0,
      cardsDealt: count,
      fantasyland: fl,
      street: 0,
      outcome: "playing",
      natural: null,
      timedOut: false,
      leaving: false,
    };
  });
  let street = 0;
  /** @param {number} seat */
  const boardOf = (seat) => boards.find((b) => b.seat === seat);
  /** @param {BoardStep} b */
  const dealtSoFar = (b) =>
    cardsAt(b.position * slice, b.fantasyland ?? streets.slice(0, b.street + 1).reduce((x, y) => x + y, 0));

  /** Deal the next Open-Face street once everyone has played this one (as the engine does). */
  function openStreets() {
    if (!ofc) return;
    const playing = boards.filter((b) => b.outcome === "playing" && b.fantasyland === null);
    while (playing.length && playing.every((b) => b.street > street) && street + 1 < streets.length) {
      street += 1;
      const begin = streets.slice(0, street).reduce((x, y) => x + y, 0);
      for (const b of playing) {
        b.cardsDealt += streets[street];
        if (b.mine) b.toPlay = cardsAt(b.position * slice + begin, streets[street]);
      }
    }
  }

  /** @returns {BoardStep[]} */
  const snapshot = () => boards.map((b) => ({ ...b, hidden: b.hidden && { ...b.hidden } }));

  /** @type {Step[]} */
  const steps = [];
  const mine = boardOf(viewer ?? -1);
  const dealtText = mine
    ? ` You are dealt ${mine.toPlay.length} cards${mine.fantasyland ? " (fantasyland)" : ""}: ${listed(mine.toPlay)}.`
    : "";
  steps.push({
    title: "Deal",
    text: `Hand ${history.hand} is dealt to ${order.length} players; ${who(button) === "You" ? "you have" : `${player(button)} has`} the button.${dealtText}`,
    actor: null,
    boards: snapshot(),
    showdown: false,
    results: null,
  });

  const actions = /** @type {any[]} */ (history.actions ?? []);
  for (const action of actions.slice(1)) {
    const seat = typeof action.seat === "number" ? action.seat : null;
    const b = seat === null ? undefined : boardOf(seat);
    const name = seat === null ? "The room" : who(seat);
    let text = "";
    switch (action.type) {
      case "set_hand": {
        if (!b) break;
        const rows = {
          front: parseCards(action.front),
          middle: parseCards(action.middle),
          back: parseCards(action.back),
        };
        b.outcome = "set";
        if (b.mine) {
          Object.assign(b, rows);
          const placed = new Set([...rows.front, ...rows.middle, ...rows.back]);
          b.discards = b.toPlay.filter((c) => !placed.has(c));
          b.toPlay = [];
          text = `You set your hand: front ${listed(rows.front)}, middle ${listed(rows.middle)}, back ${listed(rows.back)}.`;
        } else {
          b.hidden = rows;
          b.faceDown = true;
          text = `${name} set their hand face down.`;
        }
        break;
      }
      case "place": {
        if (!b) break;
        const rows = {
          front: parseCards(action.front),
          middle: parseCards(action.middle),
          back: parseCards(action.back),
        };
        for (const row of ROWS) b[row] = [...b[row], ...rows[row]];
        const discard = parseCards(action.discard);
        const hiddenDiscard = discard.filter((c) => c === "??").length;
        b.hiddenDiscards += hiddenDiscard;
        b.discards = [...b.discards, ...discard.filter((c) => c !== "??")];
        b.toPlay = [];
        b.street += 1;
        if (b.street >= streets.length) b.outcome = "set";
        const where = ROWS.filter((r) => rows[r].length).map((r) => `${r} ${listed(rows[r])}`);
        text = `${name} placed ${where.join(", ") || "nothing"}`;
        if (discard.length) {
          text += hiddenDiscard
            ? ` and discarded ${hiddenDiscard === 1 ? "a card" : `${hiddenDiscard} cards`} face down`
            : ` and discarded ${listed(discard)}`;
        }
        text += ".";
        break;
      }
      case "declare_natural": {
        if (!b) break;
        b.outcome = "natural";
        b.natural = action.natural;
        b.loose = dealtSoFar(b);
        b.looseNote = "Arranged by the room";
        b.toPlay = [];
        const title = /** @type {Record<string, string>} */ (NATURALS)[action.natural] ?? action.natural;
        text = `${name} declared ${title}, shown at once.`;
        break;
      }
      case "surrender": {
        if (!b) break;
        b.outcome = "surrendered";
        b.faceDown = false;
        if (b.mine) {
          b.loose = [...b.loose, ...b.toPlay];
          b.looseNote = "Your cards";
        }
        b.toPlay = [];
        text = `${name} surrendered; that hand is never shown.`;
        break;
      }
      case "time_out": {
        if (!b) break;
        b.timedOut = true;
        if (!ofc || b.fantasyland !== null) {
          b.outcome = "set";
          if (b.mine) {
            b.loose = b.toPlay;
            b.looseNote = "Set by the room";
          } else {
            b.faceDown = true;
            b.loose = dealtSoFar(b);
            b.looseNote = "Set by the room";
          }
        } else {
          const begin = streets.slice(0, b.street).reduce((x, y) => x + y, 0);
          b.loose = [...b.loose, ...cardsAt(b.position * slice + begin, streets[b.street] ?? 0)];
          b.looseNote = "Placed by the room";
          b.street += 1;
          if (b.street >= streets.length) b.outcome = "set";
        }
        b.toPlay = [];
        text = `${name} ran out of time; the room played for ${b.mine ? "you" : "them"}.`;
        break;
      }
      case "use_time_bank":
        text = `${name} used ${Math.round(action.seconds)} seconds of time bank.`;
        break;
      case "leave":
        if (b) b.leaving = true;
        text = `${name} will leave after this hand.`;
        break;
      case "sit_out":
        text = `${name} will sit out from the next hand.`;
        break;
      case "sit_in":
        text = `${name} will be dealt in from the next hand.`;
        break;
      case "top_up":
        text = `${name} will add ${action.amount} chips.`;
        break;
      case "sit":
        text = `${action.player} sat down in seat ${seat === null ? "?" : seat + 1}.`;
        break;
      default:
        text = `${name}: ${String(action.type).replace(/_/g, " ")}.`;
    }
    openStreets();
    steps.push({
      title: "",
      text,
      actor: seat,
      boards: snapshot(),
      showdown: false,
      results: null,
    });
  }

  /** @type {SeatResult[] | null} */
  let results = null;
  const r = history.result;
  if (r) {
    results = r.seats.map((/** @type {number} */ seat, /** @type {number} */ i) => ({
      seat,
      player: player(seat),
      total: r.totals[i],
      money: r.money[i],
      foul: r.fouls[i],
    }));
    // the showdown: every hand set face down is turned over (a surrendered one never is)
    boards = snapshot().map((b) => {
      if (b.hidden && b.outcome !== "surrendered") {
        return { ...b, ...b.hidden, hidden: null, faceDown: false };
      }
      if (b.faceDown && b.loose.length && b.outcome !== "surrendered") {
        return { ...b, faceDown: false };
      }
      return b;
    });
    const line = results
      .map((x) => `${x.seat === viewer ? "you" : x.player} ${points(x.total)}${x.foul ? " (fouled)" : ""}`)
      .join(", ");
    steps.push({
      title: "Showdown",
      text: `Showdown: ${line}.`,
      actor: null,
      boards,
      showdown: true,
      results,
    });
  }

  return {
    hand: history.hand,
    viewer,
    rules: rules.name,
    game: rules.game,
    button,
    order,
    started: actions[0]?.at ?? 0,
    steps,
    results,
    commitment: history.commitment,
  };
}

export { ROWS, ROW_SIZES };
