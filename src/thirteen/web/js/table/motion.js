// The table's motion: your cards dealt into your hand when a decision comes, and the boards that
// were face down turning face up at the showdown. The page redraws the seats on every frame, so
// each motion is remembered with the time it began and a redraw carries it on where it was (a
// negative delay), never starting it again. The CSS draws it (table.css) and leaves it out when
// the browser asks for reduced motion (`prefers-reduced-motion`).

/** @typedef {import("./seats.js").View} View */

/** How long a motion is carried on across redraws (ms): longer than any of them lasts. */
const DEAL_MS = 900;
const FLIP_MS = 1200;

/**
 * The motion of one table page: `note(view, seat)` before each draw, `flip(seat)` for each
 * board drawn, `deal(setter)` once the seats are drawn, `stop()` when the page goes.
 */
export function tableMotion() {
  /** the hand whose boards were face down (or not yet shown), and those seats */
  let hand = -1;
  /** @type {Set<number>} */
  let hidden = new Set();
  /** @type {{hand: number, at: number, seats: Set<number>}} the showdown being turned */
  let flipping = { hand: -1, at: 0, seats: new Set() };
  /** @type {{key: string, at: number}} the decision being dealt */
  let dealing = { key: "", at: 0 };

  return {
    /** What the view shows before it is drawn. @param {View} view @param {number | null} mine */
    note(view, mine) {
      const number = view.hand?.number ?? -1;
      if (number !== hand) {
        hand = number;
        hidden = new Set();
      }
      const boards = view.hand?.boards ?? [];
      if (view.phase === "playing") {
        for (const b of boards) {
          const shown = [b.front, b.middle, b.back].some((row) => row && row !== "");
          if (b.seat !== mine && (b.face_down || !shown)) hidden.add(b.seat);
        }
      } else if (view.phase === "showdown" && flipping.hand !== number) {
        flipping = { hand: number, at: performance.now(), seats: new Set(hidden) };
      }
    },

    /** How long ago the seat's board began to turn (null: it does not). @param {number} seat */
    flip(seat) {
      const since = performance.now() - flipping.at;
      return flipping.hand === hand && flipping.seats.has(seat) && since < FLIP_MS ? since : null;
    },

    /**
     * Your cards dealt: the setter of a new decision is marked, and again on the redraws of
     * the first moments (a card moved before the end draws the setter anew, unmarked). On a
     * small screen your seat is brought into view when the decision comes.
     * @param {Element | null} setter
     */
    deal(setter) {
      if (!(setter instanceof HTMLElement)) return;
      const key = setter.dataset.key ?? "";
      const now = performance.now();
      if (key !== dealing.key) {
        dealing = { key, at: now };
        const seat = setter.closest(".seat");
        const box = seat?.getBoundingClientRect();
        if (seat && box && (box.bottom > window.innerHeight || box.top < 0)) {
          seat.scrollIntoView({ block: "end", behavior: "instant" });
        }
      }
      const since = now - dealing.at;
      if (since < DEAL_MS) {
        setter.classList.add("dealt");
        setter.style.setProperty("--since", `${-Math.round(since)}ms`);
      } else {
        setter.classList.remove("dealt");
      }
    },

    stop() {
      flipping = { hand: -1, at: 0, seats: new Set() };
    },
  };
}
