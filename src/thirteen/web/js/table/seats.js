// The seats around the table and what they show: name, stack, dealer button, state, timer,
// board, and at the showdown each player's results. Only what the frame gives is drawn: a board
// that is face down is drawn as card backs, never from anything else.

import { currentAccount } from "../api.js";
import { cardElement, parseCards } from "../cards.js";
import { h } from "../ui.js";
import { ROWS, ROW_NAMES, SIZES } from "./setter.js";

/** @typedef {Record<string, any>} View */
/**
 * What the table page knows of the room, written by the page as frames come and read by its
 * pieces: the table's settings (from the snapshot), the view and the viewer's seat (from the
 * last snapshot or update), the time bank left, and the sentence last said to the player
 * (`say()`; a new decision or a card moved clears it).
 * @typedef {{settings: Record<string, any> | null, view: View | null, seat: number | null,
 *   timeBank: number | null, message: string}} Room
 */

export const NATURAL_NAMES = {
  dragon: "Dragon (13 unique cards)",
  "six-pairs": "Six pairs",
  "three-flushes": "Three flushes",
  "three-straights": "Three straights",
  "no-face-cards": "No face cards",
};

/** @param {string} name */
export function naturalName(name) {
  return /** @type {Record<string, string>} */ (NATURAL_NAMES)[name] ?? name;
}

/** "+8", "-3", "0" @param {number} n */
export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** m:ss from seconds. @param {number} seconds */
export function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * Where a seat sits on screen, counted from the viewer's own seat (at the bottom).
 * @param {number} seat @param {number} mine @param {number} count
 */
export function position(seat, mine, count) {
  const r = (seat - mine + count) % count;
  if (r === 0) return "bottom";
  if (count === 2) return "top";
  if (count === 3) return r === 1 ? "left" : "right";
  return ["bottom", "left", "top", "right"][r];
}

/**
 * A board as everyone may see it (small cards, rows named). A surrendered board is face-down
 * cards under a "Surrendered" stamp, the surrendering player's own included (seed 000: "his
 * cards will be shown at the table face-down with Surrendered label"); a fouled one at the
 * showdown is stamped "Fouled" and named so ("Fouled board").
 * @param {Record<string, any> | null} board
 * @param {Record<string, any> | null} me the viewer's own cards when this is the viewer's board
 * @param {Record<string, string | null> | null} [names] each row's hand name (at the showdown)
 * @param {{fouled?: boolean, flip?: number | null}} [marks] `fouled`: the board fouled (its
 *   result says so); `flip`: the cards turn face up, started this many ms ago (the showdown)
 */
export function boardElement(board, me, names = null, marks = {}) {
  const surrendered = board?.outcome === "surrendered";
  const hidden = Boolean(board && (surrendered || (!me && board.face_down)));
  let faces = 0;
  const rows = ROWS.map((row) => {
    /** @type {string[]} */
    let cards = parseCards(me ? me[row] : board?.[row]);
    if (hidden) cards = Array(SIZES[row]).fill("??");
    faces += cards.filter((c) => c !== "??").length;
    const slots = [];
    for (let i = 0; i < SIZES[row]; i++) {
      slots.push(
        cards[i] ? cardElement(cards[i], { small: true }) : h("span", { class: "slot small" }),
      );
    }
    const name = names?.[row];
    return h(
      "div",
      { class: "board-row", role: "group", "aria-label": ROW_NAMES[row] },
      h("span", { class: "row-tag", "aria-hidden": "true" }, ROW_NAMES[row][0]),
      ...slots,
      name ? h("span", { class: "row-name" }, name) : null,
    );
  });
  const fouled = Boolean(marks.fouled) && !surrendered;
  const classes = ["board"];
  if (surrendered) classes.push("surrendered");
  if (fouled) classes.push("fouled");
  if (!faces) classes.push("no-faces"); // backs or empty places: drawn compact on a phone
  const stamp = surrendered ? "Surrendered" : fouled ? "Fouled" : null;
  const element = h(
    "div",
    {
      class: classes.join(" "),
      role: "group",
      "aria-label": surrendered ? "Surrendered board" : fouled ? "Fouled board" : "Board",
    },
    stamp ? h("p", { class: "board-label" }, stamp) : null,
    ...rows,
  );
  if (marks.flip !== undefined && marks.flip !== null && faces) {
    element.classList.add("flip");
    // a redraw during the flip carries it on where it was (CSSOM: allowed by the strict CSP)
    element.style.setProperty("--since", `${-Math.round(marks.flip)}ms`);
  }
  return element;
}

/**
 * What a seat is doing, in words (colour is never the only signal).
 * @param {Record<string, any>} seat @param {View} view @param {Set<number> | null} away
 */
export function seatState(seat, view, away) {
  const parts = [];
  const hand = view.hand;
  const board = hand?.boards?.find((/** @type {any} */ b) => b.seat === seat.seat);
  if (away && away.has(seat.seat)) parts.push("Disconnected");
  if (board) {
    if (board.fantasyland) parts.push(`In fantasyland (${board.fantasyland} cards)`);
    if (view.phase === "playing") {
      const acting = hand.to_act.some((/** @type {any} */ t) => t[0] === seat.seat);
      if (board.outcome === "surrendered") parts.push("Surrendered");
      else if (board.outcome === "natural") parts.push(`Natural: ${naturalName(board.natural)}`);
      else if (acting) parts.push("To act");
      else if (board.outcome === "set") parts.push(board.face_down ? "Set, face down" : "Set");
      else parts.push("Playing");
    } else if (board.outcome === "surrendered") {
      parts.push("Surrendered");
    } else if (board.outcome === "natural") {
      parts.push(`Natural: ${naturalName(board.natural)}`);
    } else {
      parts.push("Showdown");
    }
    if (board.timed_out) parts.push("Timed out");
  } else if (!seat.sitting_out) {
    parts.push(hand && view.phase !== "waiting" ? "Waiting for the next hand" : "Ready");
  }
  if (seat.sitting_out) parts.push("Sitting out");
  if (seat.leaving) parts.push("Leaving after the hand");
  if (seat.fantasyland_next && !board?.fantasyland) {
    parts.push(`Fantasyland next hand (${seat.fantasyland_next} cards)`);
  }
  return parts.join(" · ");
}

/**
 * One player's results at the showdown.
 * @param {Record<string, any>} result
 * @param {(seat: number) => string} nameOf
 * @param {number} unit
 */
export function resultElement(result, nameOf, unit) {
  const items = [];
  items.push(
    h(
      "li",
      { class: result.total > 0 ? "won" : result.total < 0 ? "lost" : "" },
      h("strong", {}, `Total ${signed(result.total)}`),
      unit === 1 ? ` (${signed(result.money)} chips)` : ` (${signed(result.money)} chips)`,
    ),
  );
  for (const [seat, points] of result.against) {
    items.push(h("li", {}, `Against ${nameOf(seat)}: ${signed(points)}`));
  }
  if (result.surrendered) items.push(h("li", {}, "Surrendered"));
  if (result.foul) items.push(h("li", { class: "foul" }, "Fouled"));
  if (result.natural) items.push(h("li", {}, `Natural: ${naturalName(result.natural)}`));
  if (result.royalties) items.push(h("li", {}, `Royalties ${result.royalties}`));
  if (result.fan) items.push(h("li", {}, `Fan ${result.fan}`));
  if (result.fantasyland_next) {
    items.push(h("li", {}, `Fantasyland next hand (${result.fantasyland_next} cards)`));
  }
  return h("ul", { class: "result", "aria-label": "Result" }, ...items);
}

/**
 * The showdown as a table: for each player the points against each opponent and the total.
 * @param {View} view @param {(seat: number) => string} nameOf
 */
export function resultsTable(view, nameOf) {
  const results = view.hand?.results;
  if (!results) return null;
  const rows = results.map((/** @type {any} */ r) =>
    h(
      "tr",
      { "data-seat": r.seat },
      h("th", { scope: "row" }, h("span", { class: "name" }, nameOf(r.seat))),
      h(
        "td",
        { class: "against" },
        ...r.against.flatMap((/** @type {any} */ a, /** @type {number} */ i) => [
          i ? ", " : "",
          h("span", { class: "name" }, `${nameOf(a[0])} ${signed(a[1])}`),
        ]),
      ),
      h(
        "td",
        { class: "notes" },
        [
          r.surrendered && "surrendered",
          r.foul && "fouled",
          r.natural && naturalName(r.natural),
          r.royalties && `royalties ${r.royalties}`,
          r.fan && `fan ${r.fan}`,
          r.fantasyland_next && `fantasyland next (${r.fantasyland_next})`,
        ]
          .filter(Boolean)
          .join(", "),
      ),
      h("td", { class: "total" }, signed(r.total)),
      h("td", { class: "money" }, signed(r.money)),
    ),
  );
  return h(
    "table",
    { class: "results" },
    h("caption", {}, `Hand ${view.hand.number}: results`),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col" }, "Against each opponent"),
        h("th", { scope: "col" }, "Notes"),
        h("th", { scope: "col" }, "Total"),
        h("th", { scope: "col" }, "Chips"),
      ),
    ),
    h("tbody", {}, ...rows),
  );
}

/**
 * One seat on the felt: a free one (with "Sit here" when the viewer may sit), or its player's
 * name, stack, dealer button, timer and state, then the board (the viewer's own setter while
 * they decide), the viewer's discards and, at the showdown, the result.
 * @param {Record<string, any> | null} seat @param {number} index @param {string} where
 * @param {{room: Room, watching: boolean, away: Set<number> | null,
 *   setter: () => HTMLElement | null,
 *   names: (board: Record<string, any>) => Record<string, string | null> | null,
 *   nameOf: (seat: number) => string, buyIn: (seat: number) => void,
 *   flip: (seat: number) => number | null}} table
 *   `setter`: the viewer's decision in progress, if any; `names`: a board's row names on show;
 *   `flip`: how long ago the seat's board began to turn face up (null: it does not turn)
 */
export function seatElement(seat, index, where, table) {
  const { room, watching, away, nameOf } = table;
  const { view, seat: mySeat, settings } = room;
  if (!seat) {
    const account = currentAccount();
    return h(
      "section",
      { class: `seat empty pos-${where}`, "aria-label": `Seat ${index + 1}: free` },
      h("p", { class: "seat-name" }, `Seat ${index + 1}`),
      mySeat === null && !watching && account
        ? h("button", { type: "button", onclick: () => table.buyIn(index) }, "Sit here")
        : mySeat === null && !account
          ? h("a", { href: "#/login" }, "Log in to sit")
          : h("p", { class: "muted" }, "Free"),
    );
  }
  const hand = view?.hand;
  const board = hand?.boards?.find((/** @type {any} */ b) => b.seat === index) ?? null;
  const acting = hand?.to_act?.find((/** @type {any} */ t) => t[0] === index);
  const isMe = index === mySeat;
  const classes = ["seat", `pos-${where}`];
  if (isMe) classes.push("me");
  if (acting) classes.push("acting");
  if (seat.sitting_out) classes.push("out");
  if (away?.has(index)) classes.push("away");
  const head = h(
    "div",
    { class: "seat-head" },
    h("span", { class: "seat-name" }, seat.player, isMe ? " (you)" : ""),
    h(
      "span",
      { class: "stack" },
      h("span", { class: "chip-stack", "aria-hidden": "true" }),
      `${seat.stack.toLocaleString("en")} chips`,
    ),
    view?.button === index
      ? h("span", { class: "dealer", role: "img", "aria-label": "Dealer button" }, "D")
      : null,
    acting
      ? h("span", {
          class: "timer",
          role: "timer",
          "aria-label": `Time left for ${seat.player}`,
          "data-deadline": acting[1],
        })
      : null,
  );
  const state = h("p", { class: "seat-state" }, seatState(seat, view ?? {}, away));
  let body = null;
  const setter = isMe ? table.setter() : null;
  const result = hand?.results?.find((/** @type {any} */ r) => r.seat === index);
  if (setter) body = setter;
  else if (board) {
    body = boardElement(board, isMe ? hand.me : null, table.names(board), {
      fouled: Boolean(result?.foul) && view?.phase === "showdown",
      flip: table.flip(index),
    });
  }
  // your own discards (pineapple, fantasyland): yours to see, sent to no one else
  const discards = isMe ? parseCards(hand?.me?.discards) : [];
  const discarded = discards.length
    ? h(
        "div",
        { class: "my-discards", role: "group", "aria-label": "Your discards" },
        h("span", {}, "Your discards (no one else sees them):"),
        ...discards.map((c) => cardElement(c, { small: true })),
      )
    : null;
  if (result?.foul && view?.phase === "showdown") classes.push("fouled");
  const element = h(
    "section",
    {
      class: classes.join(" "),
      "aria-label": `Seat ${index + 1}: ${seat.player}${isMe ? " (you)" : ""}`,
      "data-seat": index,
      "data-position": board ? board.position : null,
    },
    head,
    state,
    body,
    discarded,
    result && view?.phase === "showdown"
      ? resultElement(result, nameOf, settings?.unit ?? 1)
      : null,
  );
  // the decision's card count: your cards' place keeps the height of them all while they leave
  // it (nothing below moves as you set); CSSOM, which the strict CSP allows
  if (setter) element.style.setProperty("--count", String(parseCards(hand?.me?.cards).length));
  return element;
}
