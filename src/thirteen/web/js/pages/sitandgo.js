// The lobby's sit & go list (GET /api/tournaments): each tournament's seats, buy-in, pool,
// prizes and unit schedule, with Register / Unregister while it registers, and Play (for its
// players) or Watch once its table runs. The lobby refreshes it whenever its feed moves.

import { currentAccount, refreshAccount, request } from "../api.js";
import { announce, errorText, h } from "../ui.js";
import { cell, chips, formAlert, gameName, rememberReturn } from "./common.js";

/**
 * @typedef {{id: number, name: string, preset: string, game: string, seats: number,
 *   registered: number, entrants: string[], free: number, buy_in: number, pool: number,
 *   starting_stack: number, unit: number, rise_every: number, rise_percent: number,
 *   payouts: number[], prizes: number[], status: string, table_id: number | null}} SitAndGo
 */

const STATUS = {
  registering: "Registering",
  running: "Running",
  finished: "Finished",
  cancelled: "Cancelled",
};
const PLACES = ["1st", "2nd", "3rd", "4th"];
const COLUMNS = ["Sit & go", "Game", "Players", "Buy-in", "Prizes", "Stacks and unit", "Status", "Actions"];
/** The least time between two looks at the list (the lobby's feed moves with every hand). */
const REFRESH_MS = 1500;


/** The section, and `refresh()` to look again. */
export function sitAndGoSection() {
  const alert = formAlert();
  const body = h("tbody", { role: "rowgroup" });
  const list = h(
    "table",
    { class: "lobby-tables sng-list", role: "table", "aria-labelledby": "sng-caption" },
    h("caption", { id: "sng-caption" }, "Sit & go tournaments"),
    h(
      "thead",
      { role: "rowgroup" },
      h("tr", { role: "row" }, ...COLUMNS.map((c) => h("th", { scope: "col", role: "columnheader" }, c))),
    ),
    body,
  );
  const empty = h("p", { class: "lobby-empty", hidden: true }, "No sit & go is open right now.");
  const element = h(
    "section",
    { class: "sng", "aria-labelledby": "sng-heading" },
    h("h2", { id: "sng-heading" }, "Sit & go"),
    h(
      "p",
      { class: "muted" },
      "Starts when its seats fill. Everyone buys in the same, starts with the same tournament chips, and the unit rises every few hands; the last player with chips wins.",
    ),
    alert,
    list,
    empty,
  );
  /** @type {SitAndGo[]} */
  let shown = [];
  let loading = false;
  let again = false;
  let last = 0;
  /** @type {number | undefined} */
  let timer;
  let stopped = false;

  async function load() {
    if (stopped) return;
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    last = Date.now();
    try {
      const answer = await request("GET", "/api/tournaments");
      shown = answer.tournaments;
      noteYours();
      draw();
    } catch {
      // the list stays as it was; the next refresh tries again
    } finally {
      loading = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  /** The statuses of your sit & gos, as last seen ("" before the first look). */
  let yours = "";

  /** One of your sit & gos moved on (started, finished — prizes paid —, cancelled — buy-ins
   * back): the wallet on screen is asked again. */
  function noteYours() {
    const name = currentAccount()?.name;
    const now = JSON.stringify(
      shown.filter((t) => name && t.entrants.includes(name)).map((t) => [t.id, t.status]),
    );
    if (yours && now !== yours) refreshAccount();
    yours = now;
  }

  /** Look again soon (at most once every REFRESH_MS). */
  function refresh() {
    if (stopped || timer !== undefined) return;
    const wait = Math.max(0, last + REFRESH_MS - Date.now());
    timer = window.setTimeout(() => {
      timer = undefined;
      load();
    }, wait);
  }

  /** @param {SitAndGo} t @param {"POST" | "DELETE"} method */
  async function registration(t, method) {
    alert.say("");
    try {
      await request(method, `/api/tournaments/${t.id}/registration`);
      announce(
        method === "POST"
          ? `You are registered for ${t.name}; ${chips(t.buy_in)} chips went to its pool.`
          : `You left ${t.name}; your ${chips(t.buy_in)} chips are back.`,
      );
    } catch (error) {
      alert.say(errorText(error));
    }
    await load();
  }

  /** @param {SitAndGo} t */
  function actions(t) {
    const account = currentAccount();
    const label = `${t.name} (sit & go #${t.id})`;
    const mine = account !== null && t.entrants.includes(account.name);
    if (t.status === "registering") {
      if (!account) {
        return [h("a", { href: "#/login", onclick: () => rememberReturn("#/lobby") }, "Log in"), " to register"];
      }
      if (mine) {
        return [
          h(
            "button",
            { type: "button", "aria-label": `Unregister from ${label}`, onclick: () => registration(t, "DELETE") },
            "Unregister",
          ),
        ];
      }
      return [
        h(
          "button",
          { type: "button", class: "primary", "aria-label": `Register for ${label}`, onclick: () => registration(t, "POST") },
          "Register",
        ),
      ];
    }
    if (t.status === "running" && t.table_id !== null) {
      return mine
        ? [h("a", { class: "button primary", href: `#/table/${t.table_id}`, "aria-label": `Play ${label}` }, "Play")]
        : [h("a", { class: "button", href: `#/table/${t.table_id}/watch`, "aria-label": `Watch ${label}` }, "Watch")];
    }
    return [];
  }

  /** @param {SitAndGo} t */
  function row(t) {
    const prizes = t.prizes.map((p, i) => `${PLACES[i]} ${chips(p)}`).join(" · ");
    return h(
      "tr",
      { role: "row", "data-tournament": t.id },
      h(
        "th",
        { scope: "row", role: "rowheader", "data-label": "Sit & go" },
        h("span", { class: "cell-value" }, h("span", { class: "table-name" }, t.name), " ", h("small", { class: "muted" }, `#${t.id}`)),
      ),
      cell("Game", gameName(t.game), h("small", { class: "muted block" }, t.preset)),
      cell(
        "Players",
        `${t.registered} of ${t.seats} registered`,
        h("small", { class: "muted block" }, t.entrants.length ? t.entrants.join(", ") : "nobody yet"),
      ),
      cell("Buy-in", chips(t.buy_in), h("small", { class: "muted block" }, `Pool ${chips(t.pool)}`)),
      cell("Prizes", prizes),
      cell(
        "Stacks and unit",
        `${chips(t.starting_stack)} chips`,
        h(
          "small",
          { class: "muted block" },
          `Unit ${chips(t.unit)}, +${t.rise_percent}% every ${t.rise_every} ${t.rise_every === 1 ? "hand" : "hands"}`,
        ),
      ),
      cell("Status", STATUS[/** @type {keyof typeof STATUS} */ (t.status)] ?? t.status),
      cell("Actions", h("div", { class: "row-actions" }, ...actions(t))),
    );
  }

  function draw() {
    const focused = body.contains(document.activeElement) ? document.activeElement?.getAttribute("aria-label") : null;
    body.replaceChildren(...shown.map((t) => row(t)));
    list.hidden = shown.length === 0;
    empty.hidden = shown.length > 0;
    if (focused) {
      const again = /** @type {HTMLElement | null} */ (body.querySelector(`[aria-label="${CSS.escape(focused)}"]`));
      again?.focus();
    }
  }

  function close() {
    stopped = true;
    window.clearTimeout(timer);
  }

  load();
  return { element, refresh, redraw: draw, close };
}
