// The lobby (#/lobby): every open table, live from /ws/lobby (reconnecting after a loss), with
// filters (game, free seats, stakes, practice) that apply as they change; Join and Watch per
// table; for admins, Create table (a dialog) and Close (with a confirmation). Below, the sit &
// gos (./sitandgo.js), looked at again whenever the feed moves.

import { currentAccount, onAccount, request, socketUrl } from "../api.js";
import { announce, errorText, h } from "../ui.js";
import {
  checkInputs,
  checkbox,
  chips,
  duration,
  field,
  formAlert,
  gameName,
  rememberReturn,
  uid,
} from "./common.js";
import { sitAndGoSection } from "./sitandgo.js";

/**
 * @typedef {{id: number, name: string, preset: string, game: string, scoring: string,
 *   unit: number, min_buy_in: number, max_buy_in: number, seats: number, taken: number,
 *   free: number, players: string[], bots: number, bot_level: string, practice: boolean,
 *   time_bank_seconds: number, sit_out_hands: number, status: string, hands_per_hour: number,
 *   timers: Record<string, number>, tournament?: number | null}} LobbyTable
 * @typedef {{game: string, free: string, unitMin: string, unitMax: string, kind: string,
 *   sort: string, descending: boolean}} Filters
 */

/** The presets the room knows (thirteen.engine.rules.PRESETS). */
export const PRESETS = [
  "chinese-1-6",
  "chinese-2-4",
  "chinese-1-4",
  "chinese-1-3",
  "ofc",
  "ofc-pineapple",
  "ofc-pineapple-progressive",
  "open-face-cards",
];
const BOT_LEVELS = ["random", "heuristic", "strong"];
const FILTERS_KEY = "thirteen.lobby-filters";
const NO_FILTERS = {
  game: "",
  free: "0",
  unitMin: "",
  unitMax: "",
  kind: "",
  sort: "",
  descending: false,
};

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

/** The lobby socket: a `lobby` frame on connecting and on every change; reconnects. */
class LobbyFeed {
  /**
   * @param {(tables: LobbyTable[]) => void} onTables
   * @param {(state: "connecting" | "live" | "reconnecting") => void} onState
   */
  constructor(onTables, onState) {
    this.onTables = onTables;
    this.onState = onState;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    /** @type {number | undefined} */
    this.timer = undefined;
    this.online = () => this.retryNow();
    window.addEventListener("online", this.online);
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const ws = new WebSocket(socketUrl("/ws/lobby"));
    this.ws = ws;
    ws.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (frame.type === "lobby") {
        this.attempt = 0;
        this.onState("live");
        this.onTables(frame.tables);
      }
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws || this.stopped) return;
      this.ws = null;
      this.onState("reconnecting");
      this.attempt += 1;
      const delay = Math.min(10_000, 250 * 2 ** Math.min(this.attempt, 6)) * (0.5 + Math.random());
      this.timer = window.setTimeout(() => this.connect(), delay);
    });
  }

  retryNow() {
    if (this.stopped || this.ws) return;
    window.clearTimeout(this.timer);
    this.connect();
  }

  close() {
    this.stopped = true;
    window.clearTimeout(this.timer);
    window.removeEventListener("online", this.online);
    this.ws?.close(1000);
    this.ws = null;
  }
}

/** @returns {Filters} */
function loadFilters() {
  try {
    return { ...NO_FILTERS, ...JSON.parse(sessionStorage.getItem(FILTERS_KEY) || "{}") };
  } catch {
    return { ...NO_FILTERS };
  }
}

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
 * A cell with its column's name for the stacked (phone) layout.
 * @param {string} label
 * @param {...(Node | string | null | false)} content
 */
function cell(label, ...content) {
  return h("td", { role: "cell", "data-label": label }, h("span", { class: "cell-value" }, ...content));
}

/**
 * @param {HTMLElement} main
 */
export function render(main) {
  document.title = "Lobby · Thirteen";
  /** @type {Map<number, LobbyTable>} */
  let tables = new Map();
  let received = false;
  /** @type {Filters} */
  const filters = loadFilters();
  /** @type {Map<number, {key: string, row: HTMLElement}>} */
  const rows = new Map();

  const connection = h("p", { class: "feed-state", role: "status" }, "Connecting…");
  const createButton = h(
    "button",
    { type: "button", class: "primary", onclick: () => openCreate() },
    "Create table",
  );
  const head = h(
    "div",
    { class: "page-head" },
    h("h1", {}, "Lobby"),
    h(
      "div",
      { class: "page-tools" },
      connection,
      h("a", { href: "#/leaderboards" }, "Leaderboards"),
      createButton,
    ),
  );

  // ---- filters
  const game = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name: "game" },
      h("option", { value: "" }, "All games"),
      h("option", { value: "chinese" }, "Chinese Poker"),
      h("option", { value: "ofc" }, "Open-Face Chinese"),
    )
  );
  const free = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name: "free" },
      h("option", { value: "0" }, "Any"),
      h("option", { value: "1" }, "At least 1"),
      h("option", { value: "2" }, "At least 2"),
      h("option", { value: "3" }, "At least 3"),
    )
  );
  const unitMin = /** @type {HTMLInputElement} */ (
    h("input", { name: "unit-min", type: "number", min: 1, step: 1, inputmode: "numeric" })
  );
  const unitMax = /** @type {HTMLInputElement} */ (
    h("input", { name: "unit-max", type: "number", min: 1, step: 1, inputmode: "numeric" })
  );
  const kind = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name: "kind" },
      h("option", { value: "" }, "All tables"),
      h("option", { value: "real" }, "Real chips only"),
      h("option", { value: "practice" }, "Practice only"),
    )
  );
  game.value = filters.game;
  free.value = filters.free;
  unitMin.value = filters.unitMin;
  unitMax.value = filters.unitMax;
  kind.value = filters.kind;
  const clear = h(
    "button",
    {
      type: "button",
      onclick: () => {
        game.value = "";
        free.value = "0";
        unitMin.value = "";
        unitMax.value = "";
        kind.value = "";
        readFilters();
      },
    },
    "Clear filters",
  );
  const filterForm = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filter tables" },
    field("Game", game),
    field("Seats free", free),
    h(
      "fieldset",
      { class: "stakes" },
      h("legend", {}, "Stakes (chips per point)"),
      field("From", unitMin),
      field("To", unitMax),
    ),
    field("Kind", kind),
    h("div", { class: "form-field" }, clear),
  );
  filterForm.addEventListener("submit", (e) => e.preventDefault());
  filterForm.addEventListener("input", () => readFilters());
  filterForm.addEventListener("change", () => readFilters());

  // ---- the list
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
  // on a phone the filters fold away (the summary says how many are on)
  const filterSummary = h("summary", {}, "Filters");
  const filterBox = /** @type {HTMLDetailsElement} */ (
    h("details", { class: "filter-box" }, filterSummary, filterForm)
  );
  filterBox.open = !window.matchMedia("(max-width: 760px)").matches;
  const sng = sitAndGoSection();
  main.append(h("div", { class: "page wide" }, head, filterBox, count, list, empty, sng.element));

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
            sessionStorage.setItem(FILTERS_KEY, JSON.stringify(filters));
            draw();
          },
        },
        name,
      ),
    );
    return th;
  }

  function readFilters() {
    filters.game = game.value;
    filters.free = free.value;
    filters.unitMin = unitMin.validity.valid ? unitMin.value : "";
    filters.unitMax = unitMax.validity.valid ? unitMax.value : "";
    filters.kind = kind.value;
    sessionStorage.setItem(FILTERS_KEY, JSON.stringify(filters));
    draw();
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
                { type: "button", class: "danger", "aria-label": `Close ${label}`, onclick: () => confirmClose(t) },
                "Close",
              )
            : null,
          why ?? null,
        ),
      ),
    );
  }

  function draw() {
    const account = currentAccount();
    createButton.hidden = account?.role !== "admin";
    const shown = [...tables.values()].filter((t) => matches(t, filters));
    const compare = SORTS[filters.sort];
    if (compare) shown.sort((a, b) => (filters.descending ? -1 : 1) * compare(a, b) || a.id - b.id);
    for (const th of list.querySelectorAll("th[data-column]")) {
      const column = th.getAttribute("data-column");
      if (column === filters.sort) {
        th.setAttribute("aria-sort", filters.descending ? "descending" : "ascending");
      } else th.removeAttribute("aria-sort");
    }
    const on = [
      filters.game,
      filters.free !== "0",
      filters.unitMin,
      filters.unitMax,
      filters.kind,
    ].filter(Boolean).length;
    filterSummary.textContent = on ? `Filters (${on} on)` : "Filters";
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

  const feed = new LobbyFeed(
    (list) => {
      received = true;
      tables = new Map(list.map((t) => [t.id, t]));
      draw();
      sng.refresh();
    },
    (state) => {
      connection.textContent =
        state === "live" ? "Live" : state === "connecting" ? "Connecting…" : "Connection lost; reconnecting…";
      connection.classList.toggle("feed-lost", state === "reconnecting");
    },
  );
  const stopListening = onAccount(() => {
    draw();
    sng.redraw();
  });
  draw();

  // ---- admin: create a table
  /** @type {HTMLDialogElement | null} */
  let createDialog = null;

  function openCreate() {
    if (!createDialog) {
      createDialog = createTableDialog((t) => {
        tables.set(t.id, t);
        received = true;
        draw();
        announce(`Table ${t.name} (#${t.id}) is open.`);
      });
      main.append(createDialog);
    }
    createDialog.showModal();
  }

  // ---- admin: close a table
  /** @param {LobbyTable} t */
  function confirmClose(t) {
    const headingId = uid("close-heading");
    const alert = formAlert();
    const yes = h("button", { type: "submit", class: "danger" }, "Close table");
    const dialog = /** @type {HTMLDialogElement} */ (
      h(
        "dialog",
        { class: "page-dialog", "aria-labelledby": headingId },
        h(
          "form",
          { class: "form-stack" },
          h("h2", { id: headingId }, `Close ${t.name} (#${t.id})?`),
          h(
            "p",
            {},
            "The hand in play finishes, then every player leaves with their chips and the table closes.",
          ),
          alert,
          h(
            "div",
            { class: "form-actions" },
            yes,
            h("button", { type: "button", onclick: () => dialog.close() }, "Keep it open"),
          ),
        ),
      )
    );
    dialog.addEventListener("close", () => dialog.remove());
    /** @type {HTMLFormElement} */ (dialog.firstElementChild).addEventListener("submit", async (event) => {
      event.preventDefault();
      yes.setAttribute("disabled", "");
      try {
        await request("DELETE", `/api/tables/${t.id}`);
        announce(`${t.name} is closing.`);
        dialog.close();
      } catch (error) {
        alert.say(errorText(error));
      } finally {
        yes.removeAttribute("disabled");
      }
    });
    main.append(dialog);
    dialog.showModal();
  }

  return () => {
    feed.close();
    sng.close();
    stopListening();
  };
}

/**
 * The admin's dialog to open a table: POST /api/tables.
 * @param {(table: LobbyTable) => void} created
 * @returns {HTMLDialogElement}
 */
function createTableDialog(created) {
  /** @param {string} name @param {Record<string, any>} [more] */
  const number = (name, more = {}) =>
    /** @type {HTMLInputElement} */ (h("input", { name, type: "number", inputmode: "decimal", ...more }));
  const name = /** @type {HTMLInputElement} */ (h("input", { name: "name", maxlength: 64 }));
  const preset = /** @type {HTMLSelectElement} */ (
    h("select", { name: "preset" }, ...PRESETS.map((p) => h("option", { value: p }, p)))
  );
  const unit = number("unit", { min: 1, max: 1000000, step: 1, value: 1, required: true });
  const seats = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name: "seats" },
      h("option", { value: "" }, "As the game allows"),
      h("option", { value: "2" }, "2"),
      h("option", { value: "3" }, "3"),
      h("option", { value: "4" }, "4"),
    )
  );
  const bots = number("bots", { min: 0, max: 4, step: 1, value: 0, required: true });
  const botLevel = /** @type {HTMLSelectElement} */ (
    h("select", { name: "bot-level" }, ...BOT_LEVELS.map((l) => h("option", { value: l }, l)))
  );
  botLevel.value = "strong";
  const minBuyIn = number("min-buy-in", { min: 1, step: 1, placeholder: "50 × unit" });
  const maxBuyIn = number("max-buy-in", { min: 1, step: 1, placeholder: "200 × unit" });
  const practice = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", name: "practice" }));
  const timeBank = number("time-bank", { min: 0, max: 600, step: "any", value: 30, required: true });
  /** @type {[string, string, HTMLInputElement][]} */
  const timers = [
    ["set_hand_seconds", "Setting a hand", number("set-hand", { min: 1, step: "any" })],
    ["first_street_seconds", "First street", number("first-street", { min: 1, step: "any" })],
    ["street_seconds", "Later streets", number("street", { min: 1, step: "any" })],
    ["fantasyland_seconds", "Fantasyland", number("fantasyland", { min: 1, step: "any" })],
    ["showdown_seconds", "Showdown on show", number("showdown", { min: 0, step: "any" })],
  ];
  const alert = formAlert();
  const submit = h("button", { type: "submit", class: "primary" }, "Create");
  const headingId = uid("create-heading");
  const dialog = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      { class: "page-dialog", "aria-labelledby": headingId },
      h(
        "form",
        { class: "form-stack", novalidate: true },
        h("h2", { id: headingId }, "Create table"),
        h(
          "div",
          { class: "form-grid" },
          field("Name", name, "Optional; the preset's name otherwise."),
          field("Preset", preset),
          field("Unit (chips per point)", unit),
          field("Seats", seats),
          field("Bots", bots),
          field("Bot level", botLevel),
          field("Minimum buy-in", minBuyIn, "Optional; 50 units otherwise."),
          field("Maximum buy-in", maxBuyIn, "Optional; 200 units otherwise."),
          field("Time bank (seconds)", timeBank),
        ),
        checkbox("Practice table", practice),
        h(
          "fieldset",
          {},
          h("legend", {}, "Timers (seconds; empty for the preset's)"),
          h("div", { class: "form-grid" }, ...timers.map(([, label, input]) => field(label, input))),
        ),
        alert,
        h(
          "div",
          { class: "form-actions" },
          submit,
          h("button", { type: "button", onclick: () => dialog.close() }, "Cancel"),
        ),
      ),
    )
  );
  const form = /** @type {HTMLFormElement} */ (dialog.querySelector("form"));
  dialog.addEventListener("close", () => alert.say(""));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!checkInputs(dialog, [unit, bots, minBuyIn, maxBuyIn, timeBank, ...timers.map((t) => t[2])], alert)) return;
    /** @type {Record<string, any>} */
    const rules = {};
    for (const [key, , input] of timers) if (input.value !== "") rules[key] = Number(input.value);
    /** @type {Record<string, any>} */
    const body = {
      preset: preset.value,
      unit: Number(unit.value),
      bots: Number(bots.value),
      bot_level: botLevel.value,
      practice: practice.checked,
      time_bank_seconds: Number(timeBank.value),
      rules,
    };
    if (name.value.trim()) body.name = name.value.trim();
    if (seats.value) body.seats = Number(seats.value);
    if (minBuyIn.value !== "") body.min_buy_in = Number(minBuyIn.value);
    if (maxBuyIn.value !== "") body.max_buy_in = Number(maxBuyIn.value);
    alert.say("");
    submit.setAttribute("disabled", "");
    try {
      const table = await request("POST", "/api/tables", body);
      dialog.close();
      form.reset();
      botLevel.value = "strong";
      created(table);
    } catch (error) {
      alert.say(errorText(error));
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  return dialog;
}
