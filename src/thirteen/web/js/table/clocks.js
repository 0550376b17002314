// The table's clocks, four times a second and whenever the tab shows again: each timer's time
// left (marked low in the last ten seconds), the next deal's countdown, an alert once when your
// own time runs low, and "(Your turn)" in the tab's title while the tab is hidden. Times are the
// room's (the socket's clock offset), so a browser's wrong clock does not show wrong times.

import { alertNow } from "../ui.js";
import { clock } from "./seats.js";

const LOW_TIME = 10;

/**
 * Start the clocks of a table page: `tick()` writes them now (after a draw), `stop()` when the
 * page goes.
 * @param {HTMLElement} page
 * @param {{now: () => number, title: () => string,
 *   waiting: () => {key: string, deadline: number | null} | null}} table
 *   `now`: the room's clock; `title`: the page's title; `waiting`: your decision while it waits
 *   for you (none once sent)
 */
export function startClocks(page, table) {
  let lowAlerted = "";

  function tick() {
    const now = table.now();
    for (const el of page.querySelectorAll("[data-deadline]")) {
      const left = Number(/** @type {HTMLElement} */ (el).dataset.deadline) - now;
      el.textContent = `${clock(left)} left`;
      el.classList.toggle("low", left <= LOW_TIME);
    }
    for (const el of page.querySelectorAll("[data-until]")) {
      const at = Number(/** @type {HTMLElement} */ (el).dataset.until);
      el.textContent = at ? `Next deal in ${clock(at - now)}` : "";
    }
    const mine = table.waiting();
    if (mine?.deadline) {
      const left = mine.deadline - now;
      if (left <= LOW_TIME && left > 0 && lowAlerted !== mine.key) {
        lowAlerted = mine.key;
        alertNow(`Time is running low: ${Math.ceil(left)} seconds left.`);
      }
    }
    const base = table.title();
    document.title = mine && document.hidden ? `(Your turn) ${base}` : base;
  }

  const ticker = window.setInterval(tick, 250);
  const onVisible = () => tick();
  document.addEventListener("visibilitychange", onVisible);
  return {
    tick,
    stop() {
      window.clearInterval(ticker);
      document.removeEventListener("visibilitychange", onVisible);
    },
  };
}
