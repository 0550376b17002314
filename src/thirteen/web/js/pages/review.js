// A hand's review (#/review/ID): opening the page asks the room for the review of your copy of
// the hand (POST /api/hands/{id}/review: queued once, computed once), shows its progress while
// the room's workers compute it (GET every second), then decision by decision your play beside
// the solvers' best, with the EV of each, the points lost ± their error, the kind of mistake.

import { currentAccount, request } from "../api.js";
import { cardElement, parseCards } from "../cards.js";
import { errorText, h, announce } from "../ui.js";
import { loginPrompt, signed } from "./common.js";
import { cardRow } from "./replay.js";

/**
 * @typedef {{action: string, front: string, middle: string, back: string, discard: string}} Play
 * @typedef {{index: number, decision: string, street: number | null, cards: string,
 *   board: {front: string, middle: string, back: string}, choice: Play, best: Play,
 *   is_best: boolean, ev_choice: number | null, ev_best: number | null, loss: number,
 *   loss_se: number, method: string, kind: string | null, timed_out: boolean}} Decision
 * @typedef {{hand: number, rules: string, seat: number, points: number | null,
 *   fouled: boolean | null, loss: number, loss_se: number, settings: {budget: number, seed: number},
 *   cut: unknown, decisions: Decision[]}} Review
 * @typedef {{hand: number, seat: number, status: string, done: number, total: number | null,
 *   review: Review | null, error: string | null}} Stored
 */

/** How often a page asks how a review is going. */
export const POLL_MS = 1000;

const ROW_NAMES = { front: "Front", middle: "Middle", back: "Back" };
const METHODS = {
  setter: "Valued exactly by the setter.",
  "fantasyland solver": "Valued exactly by the fantasyland solver.",
  "monte carlo": "Valued by the strong player's sampling (± one standard error).",
  forced: "One legal play: nothing to choose.",
};
const ROWS = /** @type {const} */ (["front", "middle", "back"]);

/** "1.25" for points (two decimals, a real minus sign). @param {number} n */
export function points(n) {
  const text = Math.abs(n).toFixed(2);
  return n < 0 ? `−${text}` : text;
}

/** "2.11 ± 1.62" (no ± when the figure is exact). @param {number} n @param {number} se */
export function withError(n, se) {
  return se > 0 ? `${points(n)} ± ${points(se)}` : points(n);
}

/**
 * "1 decision", "3 decisions", "+1 point", "−6 points".
 * @param {number} n
 * @param {string} word
 * @param {(n: number) => string} [written]
 */
export function count(n, word, written = String) {
  return `${written(n)} ${word}${Math.abs(n) === 1 ? "" : "s"}`;
}

/** "Street 2", "Setting", "Fantasyland setting", … @param {Decision} d */
export function decisionName(d) {
  if (d.decision === "street") return `Street ${d.street}`;
  if (d.decision === "fantasyland") return "Fantasyland setting";
  return d.decision.charAt(0).toUpperCase() + d.decision.slice(1);
}

/**
 * A progress bar and its words: "Reviewing: 3 of 10 decisions".
 * @param {string} label the bar's accessible name
 */
export function progressBar(label) {
  const bar = h("progress", { "aria-label": label, max: 1, value: 0 });
  const words = h("span", {});
  const box = h("div", { class: "review-progress", role: "status" }, words, bar);
  return {
    box,
    /** @param {number} done @param {number | null} total @param {string} text */
    show(done, total, text) {
      if (total) {
        bar.setAttribute("max", String(total));
        bar.setAttribute("value", String(done));
      } else bar.removeAttribute("value"); // indeterminate while queued
      words.textContent = text;
    },
  };
}

/**
 * Ask ``poll`` every POLL_MS until it answers true (or the page is left: ``stop``).
 * @param {() => Promise<boolean>} poll
 */
export function every(poll) {
  /** @type {number | undefined} */
  let timer;
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    let finished = true;
    try {
      finished = await poll();
    } catch {
      finished = false; // a moment offline: ask again
    }
    if (!finished && !stopped) timer = window.setTimeout(tick, POLL_MS);
  };
  tick();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}

/**
 * A board after a play: the rows before it with the play's cards added (every row a region
 * named Front, Middle, Back), its discard, or what it declares.
 * @param {string} title "Your play" / "Best play"
 * @param {Decision} d
 * @param {Play} play
 * @param {string} figures its EV
 * @param {number} n the decision's number (the board's name says it: names are unique)
 */
function playBoard(title, d, play, figures, n) {
  /** @type {(Node | null)[]} */
  const body = [];
  if (play.action === "surrender") body.push(h("p", {}, "Surrender"));
  else if (play.action === "natural") body.push(h("p", {}, "Declare the natural"));
  else {
    for (const row of ROWS) {
      const before = parseCards(d.board[row]);
      body.push(cardRow(ROW_NAMES[row], [...before, ...parseCards(play[row])]));
    }
    if (play.discard) body.push(cardRow("Discard", parseCards(play.discard)));
  }
  return h(
    "section",
    { class: `rp-board${title === "Your play" ? " rp-mine" : ""}`, "aria-label": `${title}, decision ${n}` },
    h("header", {}, h("h3", {}, title), h("p", { class: "rp-notes" }, figures)),
    ...body,
  );
}

/** @param {number | null} ev */
function evText(ev) {
  return ev === null ? "EV: one legal play" : `EV ${ev < 0 ? "" : "+"}${points(ev)} points`;
}

/** One decision: its cards, the two plays side by side, and its figures. @param {Decision} d @param {number} n */
function decisionElement(d, n) {
  const title = `Decision ${n}: ${decisionName(d)}`;
  const verdict = d.is_best
    ? "The best play."
    : `Lost ${withError(d.loss, d.loss_se)} points${d.kind ? ` · ${d.kind}` : ""}.`;
  return h(
    "section",
    { class: `review-decision${d.loss > 0 ? " review-lost" : ""}`, "aria-label": title },
    h("h2", {}, title),
    h(
      "p",
      { class: "review-cards" },
      h("span", {}, d.decision === "street" ? "Cards to play: " : "Cards: "),
      ...parseCards(d.cards).map((c) => cardElement(c, { small: true })),
    ),
    h("p", { class: "review-verdict" }, verdict, d.timed_out ? " Played by the table when your time ran out." : ""),
    h(
      "div",
      { class: "rp-boards" },
      playBoard("Your play", d, d.choice, evText(d.ev_choice), n),
      d.is_best ? null : playBoard("Best play", d, d.best, evText(d.ev_best), n),
    ),
    h("p", { class: "muted review-method" }, /** @type {Record<string, string>} */ (METHODS)[d.method] ?? d.method),
  );
}

/** The whole review: the hand's figures, then each decision. @param {Review} r */
function reviewElement(r) {
  const lost = r.decisions.filter((d) => d.loss > 0).length;
  const result =
    r.points === null ? "" : ` The hand: ${count(r.points, "point", signed)}${r.fouled ? ", fouled" : ""}.`;
  return h(
    "div",
    { class: "review" },
    h(
      "p",
      { class: "review-total" },
      `EV lost: ${withError(r.loss, r.loss_se)} points over ${count(r.decisions.length, "decision")}` +
        ` (${lost} of them lost points).${result}`,
    ),
    r.decisions.some((d) => d.method === "monte carlo")
      ? h(
          "p",
          { class: "muted" },
          `Streets sampled with a budget of ${r.settings.budget} s and seed ${r.settings.seed}; ± is one standard error.`,
        )
      : null,
    r.cut ? h("p", { class: "muted" }, "The review stops early: the copy cannot show what the table did next.") : null,
    ...r.decisions.map((d, i) => decisionElement(d, i + 1)),
  );
}

/**
 * @param {HTMLElement} main
 * @param {Record<string, string>} params
 */
export async function render(main, params) {
  const id = Number(params.hand);
  document.title = `Review of hand ${id} · Thirteen`;
  const page = h("div", { class: "page replay" }, h("h1", {}, `Review of hand #${id}`));
  main.append(page);
  if (!currentAccount()) {
    page.append(loginPrompt("to review your hands"));
    return;
  }
  page.append(
    h(
      "p",
      { class: "row-actions review-links" },
      h("a", { href: `#/hand/${id}` }, "Replay the hand"),
      h("a", { href: "#/reviews" }, "Review my session"),
      h("a", { href: "#/account" }, "Your hands"),
    ),
  );
  const progress = progressBar("Review progress");
  const body = h("div", {});
  page.append(progress.box, body);
  progress.show(0, null, "Asking for the review…");
  /** @param {Stored} s */
  const shown = (s) => {
    if (s.status === "done" && s.review) {
      progress.box.remove();
      body.replaceChildren(reviewElement(s.review));
      announce("The review is ready.");
      return true;
    }
    if (s.status === "failed") {
      progress.box.remove();
      body.replaceChildren(h("p", { class: "error", role: "alert" }, s.error ?? "The review failed."));
      return true;
    }
    const text =
      s.status === "running"
        ? `Reviewing: ${s.done} of ${s.total ?? "?"} decisions`
        : "Waiting for a review worker…";
    progress.show(s.done, s.total, text);
    return false;
  };
  try {
    if (shown(await request("POST", `/api/hands/${id}/review`))) return;
  } catch (error) {
    progress.box.remove();
    body.replaceChildren(h("p", { class: "error", role: "alert" }, errorText(error)));
    return;
  }
  return every(async () => shown(await request("GET", `/api/hands/${id}/review`)));
}
