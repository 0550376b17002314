// At a duplicate practice table (GET /api/practice/duplicate/ID answers for its player only): a
// small panel of each hand's points, the strong bot's with the same cards, the difference and the
// running total, looked at again after every hand (and while the bot is still replaying one).

import { request } from "../api.js";
import { h } from "../ui.js";

/** How soon to look again while the bot is replaying a hand that is over. */
const PENDING_MS = 1000;

/** +3 / −2 / 0 (a real minus sign). @param {number} n */
export function difference(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return "0";
}

/**
 * The panel: `element` (hidden until the table turns out to be a run of yours), `start()` to
 * ask once the table's settings are known, `refresh()` after each hand, `stop()` when the page
 * goes; `active` once it is a run (`onActive` is called then).
 * @param {number} tableId
 * @param {() => void} onActive
 */
export function duplicatePanel(tableId, onActive) {
  const summary = h("p", { class: "duplicate-total", role: "status" });
  const body = h("tbody");
  const element = h(
    "section",
    { class: "duplicate-panel", "aria-labelledby": "duplicate-heading", hidden: true },
    h("h2", { id: "duplicate-heading" }, "Duplicate practice: you against the strong bot"),
    summary,
    h(
      "table",
      { class: "data duplicate-hands" },
      h("caption", {}, "Each hand: your points, the bot's with your cards, the difference"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...["Hand", "You", "Bot", "Difference", "Total"].map((c) => h("th", { scope: "col" }, c)),
        ),
      ),
      body,
    ),
    h("p", {}, h("a", { href: `#/practice/${tableId}` }, "Every hand with the bot's rows")),
  );
  const panel = {
    element,
    active: false,
    start,
    refresh,
    stop,
  };
  let stopped = false;
  let asked = false;
  let loading = false;
  let again = false;
  /** @type {number | undefined} */
  let timer;

  let starting = false;

  /** Whether the table is one of your runs (your list, not the run itself: no 404 to log). */
  async function start() {
    if (asked || starting) return;
    starting = true;
    try {
      const mine = await request("GET", "/api/practice/duplicate");
      if (stopped || !mine.runs.some((/** @type {any} */ r) => r.table_id === tableId)) return;
      asked = true;
      await refresh();
    } catch {
      // the room is away: an ordinary practice table's page (the next snapshot asks again)
    } finally {
      starting = false;
    }
  }

  async function refresh() {
    if (stopped || !asked) return;
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    window.clearTimeout(timer);
    try {
      draw(await request("GET", `/api/practice/duplicate/${tableId}`));
    } catch {
      // not a run of yours (or the room is away): no panel
    } finally {
      loading = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  /** @param {Record<string, any>} run */
  function draw(run) {
    if (!panel.active) {
      panel.active = true;
      element.hidden = false;
      onActive();
    }
    const rows = run.hands.map((/** @type {Record<string, any>} */ hand) =>
      hand.pending
        ? h(
            "tr",
            {},
            h("th", { scope: "row" }, `Hand ${hand.number}`),
            h("td", { colspan: "4" }, "The bot is playing this deal…"),
          )
        : h(
            "tr",
            {},
            h("th", { scope: "row" }, `Hand ${hand.number}`),
            h("td", {}, difference(hand.your_points)),
            h("td", {}, difference(hand.bot_points)),
            h("td", {}, difference(hand.difference)),
            h("td", {}, difference(hand.running_total)),
          ),
    );
    body.replaceChildren(...rows);
    const where =
      run.status === "playing"
        ? `${run.played} of ${run.deals} deals played`
        : run.status === "finished"
          ? run.deals === 1
            ? "The deal is played"
            : `All ${run.deals} deals played`
          : `Ended after ${run.played} of ${run.deals} deals`;
    const text = `${where}. Total against the bot: ${difference(run.total)} over ${run.compared} hand${run.compared === 1 ? "" : "s"}.`;
    if (summary.textContent !== text) summary.textContent = text;
    if (run.hands.some((/** @type {Record<string, any>} */ hand) => hand.pending)) {
      timer = window.setTimeout(refresh, PENDING_MS);
    }
  }

  function stop() {
    stopped = true;
    window.clearTimeout(timer);
  }

  return panel;
}
