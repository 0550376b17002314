// The lobby's list of open tables: a row a table (its game, scoring, stakes, seats, timers) with
// Join (or why not, or Return to a table you sit at), Watch and, for an admin, Close; the columns
// that sort. A row is kept while its table is unchanged and put where the sort says, so a redraw
// disturbs no focus (a row made again gives the focus back to the same control).

import { currentAccount } from "../api.js";
import { h } from "../ui.js";
import { cell, chips, duration, gameName, rememberReturn, uid } from "./common.js";
import { saveFilters } from "./lobbyfilters.js";

/**
 * @typedef {{id: number, name: string, preset: string, game: string, scoring: string,
 *   unit: number, min_buy_in: number, max_buy_in: number, seats: number, taken: number,
 *   free: number, players: string[], bots: number, bot_level: string, practice: boolean,
 *   time_bank_seconds: number, sit_out_hands: number, status: string, hands_per_hour: number,
 *   timers: Record<string, number>, tournament?: number | null}} LobbyTable
 * @typedef {import("./lobbyfilters.js").Filters} Filters
 */

/** The columns a player may sort by: how to compare two tables. */
/** @type {Record<string, (a: LobbyTable, b: LobbyTable) => number>} */
const SORTS = {
  Table: (a, b) => a.name.localeCompare(b.name) || a.id - b.id,
  Game: (a, b) => a.game.localeCompare(b.game) || a.preset.localeCompare(b.preset),
  Unit: (a, b) => a.unit - b.unit,
  "Buy-in": (a, b) => a.min_buy_in - b.min_buy_in || a.max_buy_in - b.max_buy_in,
  Seats: (a, b) => a.free - b.free || a.taken - b.taken,
  "Hands/hour": (a, b) => a.hands_per_hour - b.hands_per_hour,
};

/**
 * @param {LobbyTable} t
 * @param {Filters} f
 */
export function matches(t, f) {
  if (f.game && t.game !== f.game) return false;
  if (t.free < Number(f.free || 0)) return false;
  if (f.unitMin !== "" && t.unit < Number(f.unitMin)) return false;
  if (f.unitMax !== "" && t.unit > Number(f.unitMax)) return false;
  if (f.kind === "practice" && !t.practice) return false;
  if (f.kind === "real" && t.practice) return false;
  return true;
}

/** "Set 90 s · Showdown 8 s" @param {LobbyTable} t */
function timersText(t) {
  const s = t.timers ?? {};
  const parts =
    t.game === "ofc"
      ? [`First street ${duration(s.first_street)}`, `Streets ${duration(s.street)}`]
      : [`Setting ${duration(s.set_hand)}`];
  if (t.game === "ofc" && s.fantasyland) parts.push(`Fantasyland ${duration(s.fantasyland)}`);
  parts.push(`Showdown ${duration(s.showdown)}`, `Time bank ${duration(t.time_bank_seconds)}`);
  return parts;
}


/**
 * The list: `count` (how many tables show), `list` (the table of tables), `empty` (said when
 * none shows), and `draw(tables, received)` after the feed or the filters changed.
 * @param {Filters} filters the sort is chosen here (and kept with the filters)
 * @param {{changed: () => void, close: (t: LobbyTable) => void}} lobby
 *   `changed` draws the lobby again; `close` asks the admin to confirm closing a table
 */
export function tablesList(filters, lobby) {
  /** @type {Map<number, {key: string, row: HTMLElement}>} */
  const rows = new Map();
  const count = h("p", { class: "lobby-count", role: "status" });
  const body = h("tbody", { role: "rowgroup" });
  const columns = [
    "Table",
    "Game",
    "Scoring",
    "Unit",
    "Buy-in",
    "Seats",
    "Timers",
    "Hands/hour",
    "Practice",
    "Actions",
  ];
  const list = h(
    "table",
    { class: "lobby-tables", role: "table", "aria-labelledby": "tables-caption" },
    h("caption", { id: "tables-caption" }, "Open tables"),
    h(
      "thead",
      { role: "rowgroup" },
      h("tr", { role: "row" }, ...columns.map((c) => columnHeader(c))),
    ),
    body,
  );
  const empty = h("p", { class: "lobby-empty", hidden: true });

  /** A column's header: a button that sorts by it when it can. @param {string} name */
  function columnHeader(name) {
    const th = h("th", { scope: "col", role: "columnheader", "data-column": name });
    if (!SORTS[name]) {
      th.textContent = name;
      return th;
    }
    th.append(
      h(
        "button",
        {
          type: "button",
          class: "sort",
          onclick: () => {
            if (filters.sort === name) filters.descending = !filters.descending;
            else [filters.sort, filters.descending] = [name, false];
            saveFilters(filters);
            lobby.changed();
          },
        },
        name,
      ),
    );
    return th;
  }

  /** @param {LobbyTable} t */
  function joinControl(t) {
    const account = currentAccount();
    const label = `${t.name} (#${t.id})`;
    if (account && t.players.includes(account.name)) {
      return [h("a", { class: "button primary", href: `#/table/${t.id}`, "aria-label": `Return to ${label}` }, "Return")];
    }
    let reason = "";
    if (t.status !== "open") reason = "Closing";
    else if (t.tournament) reason = "A sit & go: its players only";
    else if (t.free <= 0) reason = "Table full";
    else if (!account) reason = "Log in to join";
    if (!reason) {
      return [h("a", { class: "button primary", href: `#/table/${t.id}/join`, "aria-label": `Join ${label}` }, "Join")];
    }
    const why = uid("why");
    const because = !account && t.status === "open" && t.free > 0 && !t.tournament
      ? [
          h("a", { href: "#/login", onclick: () => rememberReturn(`#/table/${t.id}/join`) }, "Log in"),
          " to join",
        ]
      : [reason];
    return [
      h(
        "button",
        { type: "button", class: "primary", "aria-disabled": "true", "aria-label": `Join ${label}`, "aria-describedby": why },
        "Join",
      ),
      h("small", { id: why, class: "join-why" }, ...because),
    ];
  }

  /** @param {LobbyTable} t */
  function makeRow(t) {
    const label = `${t.name} (#${t.id})`;
    const admin = currentAccount()?.role === "admin";
    const players = t.players.length ? t.players.join(", ") : "nobody yet";
    const [join, why] = joinControl(t);
    return h(
      "tr",
      { role: "row", "data-table": t.id },
      h(
        "th",
        { scope: "row", role: "rowheader", "data-label": "Table" },
        h(
          "span",
          { class: "cell-value" },
          h("span", { class: "table-name" }, t.name),
          " ",
          h("small", { class: "muted" }, `#${t.id}`),
          t.status !== "open" ? h("span", { class: "lobby-badge" }, t.status === "closing" ? "Closing" : t.status) : null,
        ),
      ),
      cell("Game", gameName(t.game), h("small", { class: "muted block" }, t.preset)),
      cell("Scoring", t.scoring),
      cell("Unit", chips(t.unit)),
      cell("Buy-in", `${chips(t.min_buy_in)}–${chips(t.max_buy_in)}`),
      cell(
        "Seats",
        h("span", { class: "seats-count" }, `${t.taken} of ${t.seats} taken, ${t.free} free`),
        h("small", { class: "muted block" }, players),
      ),
      cell("Timers", h("span", { class: "timers" }, timersText(t).join(" · "))),
      cell("Hands/hour", String(t.hands_per_hour)),
      cell("Practice", t.practice ? "Yes" : "No"),
      cell(
        "Actions",
        h(
          "div",
          { class: "row-actions" },
          join,
          h("a", { class: "button", href: `#/table/${t.id}/watch`, "aria-label": `Watch ${label}` }, "Watch"),
          admin && t.status === "open"
            ? h(
                "button",
                { type: "button", class: "danger", "aria-label": `Close ${label}`, onclick: () => lobby.close(t) },
                "Close",
              )
            : null,
          why ?? null,
        ),
      ),
    );
  }

  /**
   * Show the tables that match the filters, in the sort's order.
   * @param {Map<number, LobbyTable>} tables every open table
   * @param {boolean} received whether the feed told them yet
   */
  function draw(tables, received) {
    const account = currentAccount();
    const shown = [...tables.values()].filter((t) => matches(t, filters));
    const compare = SORTS[filters.sort];
    if (compare) shown.sort((a, b) => (filters.descending ? -1 : 1) * compare(a, b) || a.id - b.id);
    for (const th of list.querySelectorAll("th[data-column]")) {
      const column = th.getAttribute("data-column");
      if (column === filters.sort) {
        th.setAttribute("aria-sort", filters.descending ? "descending" : "ascending");
      } else th.removeAttribute("aria-sort");
    }
    const seen = new Set(shown.map((t) => t.id));
    for (const [id, entry] of rows) {
      if (!seen.has(id)) {
        entry.row.remove();
        rows.delete(id);
      }
    }
    let before = /** @type {ChildNode | null} */ (body.firstChild);
    for (const t of shown) {
      const key = JSON.stringify([t, account?.name, account?.role]);
      let entry = rows.get(t.id);
      if (!entry || entry.key !== key) {
        const row = makeRow(t);
        if (entry) {
          const focused = entry.row.contains(document.activeElement)
            ? document.activeElement?.getAttribute("aria-label")
            : null;
          if (before === entry.row) before = row;
          entry.row.replaceWith(row);
          if (focused) {
            /** @type {HTMLElement | null} */ (row.querySelector(`[aria-label="${CSS.escape(focused)}"]`))?.focus();
          }
        }
        entry = { key, row };
        rows.set(t.id, entry);
      }
      if (entry.row !== before) body.insertBefore(entry.row, before);
      before = entry.row.nextSibling;
    }
    const total = tables.size;
    const text = !received
      ? "Loading tables…"
      : total === shown.length
        ? `${total} ${total === 1 ? "table" : "tables"}`
        : `Showing ${shown.length} of ${total} tables`;
    if (count.textContent !== text) count.textContent = text;
    list.hidden = shown.length === 0;
    empty.hidden = !received || shown.length > 0;
    empty.textContent = total
      ? "No table matches these filters."
      : "No table is open right now.";
  }

  return { count, list, empty, draw };
}
