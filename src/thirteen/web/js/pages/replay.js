// The replay (#/hand/ID): a finished hand step by step, as its player saw it, from the player's
// copy (GET /api/hands/{id}?format=json). First / Previous / Next / Last, the arrow keys (Home and
// End too), or a step picked from the list; the boards with their rows; the result; a link to
// the hand's review (#/review/ID).

import { currentAccount, request } from "../api.js";
import { cardElement } from "../cards.js";
import { errorText, h } from "../ui.js";
import { downloadLinks } from "./account.js";
import { loginPrompt, signed, timeElement } from "./common.js";
import { buildReplay, NATURALS, ROW_SIZES, ROWS } from "./handsteps.js";

/** @typedef {import("./handsteps.js").BoardStep} BoardStep */
/** @typedef {import("./handsteps.js").Step} Step */

const ROW_NAMES = { front: "Front", middle: "Middle", back: "Back" };
const PLAY_MS = 1200;

/**
 * A row of cards with a visible name, as a named region.
 * @param {string} name
 * @param {string[]} cards
 * @param {string} [note]
 */
export function cardRow(name, cards, note) {
  return h(
    "section",
    { class: "rp-row", "aria-label": name },
    h("span", { class: "rp-row-name", "aria-hidden": "true" }, name),
    h(
      "span",
      { class: "rp-row-cards" },
      ...cards.map((c) => cardElement(c, { small: true })),
      cards.length ? null : h("span", { class: "muted" }, "empty"),
    ),
    note ? h("small", { class: "muted" }, note) : null,
  );
}

/**
 * @param {BoardStep} b
 * @param {Step} step
 * @param {number | null} viewer
 * @param {number} button the button's seat
 */
function boardElement(b, step, viewer, button) {
  const label = `Seat ${b.seat + 1}: ${b.player}${b.seat === viewer ? " (you)" : ""}`;
  const result = step.results?.find((r) => r.seat === b.seat);
  /** @type {string[]} */
  const notes = [];
  if (b.fantasyland) notes.push(`Fantasyland, ${b.fantasyland} cards`);
  if (b.outcome === "surrendered") notes.push("Surrendered");
  else if (b.outcome === "natural") {
    notes.push(`Natural: ${/** @type {Record<string, string>} */ (NATURALS)[b.natural ?? ""] ?? b.natural}`);
  } else if (b.faceDown) notes.push("Set face down");
  else if (b.outcome === "set") notes.push(step.showdown ? "Shown" : "Hand set");
  if (b.timedOut) notes.push("Timed out");
  if (b.leaving) notes.push("Leaving after the hand");
  if (b.seat === button) notes.push("Button");
  const played =
    b.front.length + b.middle.length + b.back.length + b.loose.length + b.discards.length + b.hiddenDiscards;
  if (!b.mine && b.outcome === "playing" && b.cardsDealt > played) {
    notes.push(`${b.cardsDealt - played} cards to play`);
  }
  const body = [];
  if (b.outcome === "surrendered") {
    body.push(h("p", { class: "muted" }, "Surrendered: this hand is never shown."));
    if (b.mine) {
      for (const row of ROWS) if (b[row].length) body.push(cardRow(ROW_NAMES[row], b[row]));
      if (b.loose.length) body.push(cardRow(b.looseNote, b.loose));
    }
  } else if (b.faceDown) {
    for (const row of ROWS) body.push(cardRow(ROW_NAMES[row], Array(ROW_SIZES[row]).fill("??")));
  } else {
    for (const row of ROWS) body.push(cardRow(ROW_NAMES[row], b[row]));
    if (b.loose.length) body.push(cardRow(b.looseNote || "Cards", b.loose, "rows not recorded in this copy"));
  }
  if (b.mine && b.toPlay.length) body.push(cardRow("Your cards to play", b.toPlay));
  if (b.mine && b.discards.length) body.push(cardRow("Your discards", b.discards));
  if (!b.mine && b.hiddenDiscards) {
    body.push(h("p", { class: "muted" }, `${b.hiddenDiscards} discarded face down`));
  }
  return h(
    "section",
    {
      class: `rp-board${b.mine ? " rp-mine" : ""}${step.actor === b.seat ? " rp-acting" : ""}`,
      "aria-label": label,
    },
    h(
      "header",
      {},
      h("h2", {}, label),
      notes.length ? h("p", { class: "rp-notes" }, notes.join(" · ")) : null,
      result
        ? h(
            "p",
            { class: `rp-result ${result.money > 0 ? "amount-in" : result.money < 0 ? "amount-out" : ""}` },
            `${signed(result.total)} points, ${signed(result.money)} chips${result.foul ? ", fouled" : ""}`,
          )
        : null,
    ),
    ...body,
  );
}

/**
 * @param {HTMLElement} main
 * @param {Record<string, string>} params
 */
export async function render(main, params) {
  const id = Number(params.hand);
  document.title = `Hand ${id} · Thirteen`;
  const page = h("div", { class: "page replay" }, h("h1", {}, `Hand #${id}`));
  main.append(page);
  if (!currentAccount()) {
    page.append(loginPrompt("to replay your hands"));
    return;
  }
  const loading = h("p", { role: "status" }, "Loading the hand…");
  page.append(loading);
  let history;
  try {
    history = await request("GET", `/api/hands/${id}?format=json`);
  } catch (error) {
    loading.remove();
    page.append(
      h("p", { class: "error", role: "alert" }, errorText(error)),
      h("p", {}, h("a", { href: "#/account" }, "Back to your hands")),
    );
    return;
  }
  if (!main.isConnected) return;
  loading.remove();
  const replay = buildReplay(history);
  const steps = replay.steps;
  let at = 0;

  const facts = h(
    "p",
    { class: "muted" },
    `${replay.rules} · hand ${replay.hand} at the table · dealt `,
    timeElement(replay.started),
  );
  const downloads = h("p", { class: "downloads" }, "Download: ", ...downloadLinks(id).flatMap((a, i) => (i ? [" · ", a] : [a])));
  const counter = h("p", { class: "step-count" });
  const text = h("p", { class: "step-text", id: "step-text", "aria-live": "polite", "aria-atomic": "true" });
  /** @param {string} label @param {() => number} target @param {string} keys */
  const button = (label, target, keys) =>
    h("button", { type: "button", "aria-keyshortcuts": keys, onclick: () => go(target()) }, label);
  const first = button("First", () => 0, "Home");
  const previous = button("Previous", () => at - 1, "ArrowLeft");
  const next = button("Next", () => at + 1, "ArrowRight");
  const last = button("Last", () => steps.length - 1, "End");
  // Play: a step every PLAY_MS until the end (any other move stops it)
  /** @type {number | undefined} */
  let playing;
  const play = h("button", { type: "button", class: "primary" }, "Play");
  function stop() {
    window.clearInterval(playing);
    playing = undefined;
    play.textContent = "Play";
  }
  play.addEventListener("click", () => {
    if (playing !== undefined) {
      stop();
      return;
    }
    if (at === steps.length - 1) go(0);
    play.textContent = "Pause";
    playing = window.setInterval(() => {
      show(at + 1);
      if (at === steps.length - 1) stop();
    }, PLAY_MS);
  });
  const controls = h(
    "div",
    { class: "step-controls", role: "group", "aria-label": "Steps" },
    first,
    previous,
    next,
    last,
    play,
  );
  const boards = h("div", { class: "rp-boards" });
  const list = h(
    "ol",
    { class: "step-list" },
    ...steps.map((s, i) =>
      h("li", {}, h("button", { type: "button", class: "link-button", onclick: () => go(i) }, s.text)),
    ),
  );
  const results = replay.results
    ? h(
        "table",
        { class: "data", role: "table", "aria-labelledby": "result-caption" },
        h("caption", { id: "result-caption" }, "Result"),
        h(
          "thead",
          { role: "rowgroup" },
          h(
            "tr",
            { role: "row" },
            ...["Player", "Points", "Chips", "Foul"].map((c) => h("th", { scope: "col", role: "columnheader" }, c)),
          ),
        ),
        h(
          "tbody",
          { role: "rowgroup" },
          ...replay.results.map((r) =>
            h(
              "tr",
              { role: "row", class: r.seat === replay.viewer ? "rp-mine" : "" },
              h("th", { scope: "row", role: "rowheader" }, `${r.player}${r.seat === replay.viewer ? " (you)" : ""}`),
              h("td", { role: "cell" }, signed(r.total)),
              h("td", { role: "cell" }, signed(r.money)),
              h("td", { role: "cell" }, r.foul ? "Fouled" : "No"),
            ),
          ),
        ),
      )
    : h("p", {}, "This hand has no result.");

  page.append(
    facts,
    downloads,
    h("p", {}, h("a", { href: `#/review/${id}` }, "Review this hand"), ": each decision against the solvers."),
    h(
      "section",
      { class: "stepper", "aria-label": "Replay" },
      controls,
      h("p", { class: "replay-hint muted" }, "The arrow keys step back and forth; Home and End jump to the ends; Play steps on by itself."),
      counter,
      text,
      boards,
    ),
    h("details", { class: "all-steps" }, h("summary", {}, "Every step"), list),
    h("section", { "aria-label": "Result" }, results),
    h("p", {}, h("a", { href: "#/account" }, "Back to your hands")),
  );

  /** @param {number} i */
  function go(i) {
    stop();
    show(i);
  }

  /** @param {number} i */
  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    const step = steps[at];
    counter.textContent = `Step ${at + 1} of ${steps.length}${step.title ? `: ${step.title}` : ""}`;
    text.textContent = step.text;
    boards.replaceChildren(...step.boards.map((b) => boardElement(b, step, replay.viewer, replay.button)));
    for (const [control, disabled] of /** @type {[HTMLElement, boolean][]} */ ([
      [first, at === 0],
      [previous, at === 0],
      [next, at === steps.length - 1],
      [last, at === steps.length - 1],
    ])) {
      if (disabled && document.activeElement === control) {
        (control === first || control === previous ? next : previous).focus();
      }
      control.toggleAttribute("disabled", disabled);
    }
    list.querySelectorAll("button").forEach((b, j) => {
      if (j === at) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
    });
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (target && target.closest("input, select, textarea, [contenteditable], dialog")) return;
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 };
    const to = /** @type {Record<string, number>} */ (moves)[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  }
  document.addEventListener("keydown", onKey);
  go(0);
  return () => {
    stop();
    document.removeEventListener("keydown", onKey);
  };
}
