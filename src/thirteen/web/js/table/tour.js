// A first-visit tour of the setting controls: the first time this browser is asked to set cards,
// a small panel walks through your cards, the three rows, the ways to move a card and the
// buttons, pointing at each (an outline). It never blocks the table (the clock runs: you may set
// while reading), "Skip the tour" ends it at any step, and once skipped or finished it is not
// shown again in this browser (localStorage). Each step is said to screen readers as it shows.

import { announce, h } from "../ui.js";

const DONE_KEY = "thirteen.setting-tour";

/**
 * @typedef {{title: string, text: string, target: (page: HTMLElement) => Element | null,
 *   when?: (page: HTMLElement) => boolean}} Step
 */

/** @param {string} label @returns {(page: HTMLElement) => Element | null} */
const region = (label) => (page) => page.querySelector(`.setter [aria-label="${label}"]`);

/** @param {string} text @returns {(page: HTMLElement) => HTMLButtonElement | null} */
const button = (text) => (page) =>
  [...page.querySelectorAll(".setter button")].find((b) => b.textContent?.trim() === text) ??
  null;

/** @type {Step[]} */
const STEPS = [
  {
    title: "The cards you set",
    text:
      "These are the cards you set now. Click or tap one to place it: the back row fills first, " +
      "then the middle, then the front.",
    target: region("Your cards"),
  },
  {
    title: "The three rows",
    text:
      "Front holds 3 cards, Middle 5 and Back 5. Each row must be no stronger than the row " +
      "below it — Back the strongest — or the hand fouls; the name of each row's hand shows " +
      "as you set.",
    target: region("Back"),
  },
  {
    title: "Moving a card",
    text:
      "Drag a card to any row, or back to your cards. On a keyboard: Tab to a card, then F, M " +
      "or B puts it in the front, middle or back row, and S takes it back.",
    target: region("Middle"),
  },
  {
    title: "Surrender or a natural",
    text:
      "At Chinese Poker a weak hand may surrender (it pays less than losing every row), and " +
      "a natural is declared here instead of setting rows.",
    target: button("Surrender"),
    when: (page) => button("Surrender")(page) !== null,
  },
  {
    title: "Play",
    text:
      "Play sends your hand once the rows are complete; until then Reset takes cards back. " +
      "The clock beside your name shows the time left. Enjoy the game!",
    target: button("Play"),
  },
];

/** Whether this browser has seen (or skipped) the tour. */
function done() {
  try {
    return localStorage.getItem(DONE_KEY) === "done";
  } catch {
    return true; // no storage: no tour every time
  }
}

/**
 * The tour of a table page: `element` (put it on the page once), `update()` after every draw
 * (starts the tour at the first setter on show, points at the step's control again).
 * @param {HTMLElement} page
 */
export function settingTour(page) {
  const title = h("h2");
  const count = h("p", { class: "tour-count" });
  const text = h("p");
  const back = h("button", { type: "button", onclick: () => go(step - 1) }, "Previous");
  const next = h("button", { type: "button", class: "primary", onclick: () => go(step + 1) }, "Next");
  const skip = h("button", { type: "button", onclick: () => finish() }, "Skip the tour");
  const element = h(
    "section",
    { class: "tour", "aria-label": "Tour of the setting controls", hidden: true },
    count,
    title,
    text,
    h("div", { class: "tour-buttons" }, back, next, skip),
  );
  /** @type {Step[]} */
  let steps = [];
  let step = -1;
  let over = done();
  // the setter draws itself anew as cards move (not only with the table): point again then
  const watcher = new MutationObserver(() => point());

  function update() {
    if (over) return;
    if (step < 0) {
      if (!page.querySelector(".setter")) return;
      steps = STEPS.filter((s) => !s.when || s.when(page));
      watcher.observe(page, { childList: true, subtree: true });
      go(0);
      return;
    }
    point();
  }

  /** @param {number} n */
  function go(n) {
    step = Math.max(0, n);
    if (step >= steps.length) {
      finish();
      return;
    }
    const s = steps[step];
    element.hidden = false;
    count.textContent = `Setting your cards: a short tour, step ${step + 1} of ${steps.length}`;
    title.textContent = s.title;
    text.textContent = s.text;
    back.hidden = step === 0;
    next.textContent = step === steps.length - 1 ? "Done" : "Next";
    point();
    announce(`${count.textContent}. ${s.title}. ${s.text}`);
  }

  /** The step's control, outlined (found again: the table draws anew). */
  function point() {
    const target = over || step < 0 ? null : (steps[step]?.target(page) ?? null);
    for (const el of page.querySelectorAll(".tour-target")) {
      if (el !== target) el.classList.remove("tour-target");
    }
    if (target && !target.classList.contains("tour-target")) target.classList.add("tour-target");
  }

  function finish() {
    over = true;
    watcher.disconnect();
    element.hidden = true;
    point();
    try {
      localStorage.setItem(DONE_KEY, "done");
    } catch {
      // no storage: the tour just ends
    }
  }

  return { element, update };
}
