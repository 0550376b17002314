// Duplicate team events (seed 004): #/events lists them (and the director creates one there);
// #/event/ID is one event — its teams while it registers, then the standings, every hand's team
// scores once its three tables played it, the confirmations, the rulings, the results to
// download; #/event/ID/deal/ROUND/GROUP/HAND shows one deal side by side: seat by seat, how
// each team played the same cards. The pages look again every two seconds while the event is
// on, and stop when left.

import { RoomError, currentAccount, onAccount, request } from "../api.js";
import { cardElement, parseCards } from "../cards.js";
import { confirmResult, confirmedHere } from "../table/event.js";
import { announce, errorText, h } from "../ui.js";
import { checkInputs, duration, field, formAlert, gameName, loginPrompt, signed, timeElement, uid } from "./common.js";
import { PRESETS } from "./lobby.js";

/**
 * @typedef {{id: number, name: string, preset: string, game: string, status: string,
 *   rounds: number, hands_per_round: number, confirm_seconds: number, round: number,
 *   teams: number, starts_at: number | null, started_at: number | null,
 *   finished_at: number | null}} EventSummary
 * @typedef {{id: number, name: string, bot: boolean, disqualified: boolean,
 *   members: {number: number, name: string}[], points: number, rulings: number, total: number,
 *   rounds: number[], rank: number | null}} Team
 * @typedef {{seat: number, team: number, number: number, player: string, points: number}} SeatResult
 * @typedef {{hand: number, complete: boolean, root: string | null, scores: Record<string, number>,
 *   tables: {table_id: number, position: number, seats: SeatResult[]}[], confirmed: number}} HandResult
 * @typedef {{group: number, teams: number[], tables: {table_id: number, position: number,
 *   seats: {team: number, number: number}[]}[], hands: HandResult[]}} Group
 * @typedef {{round: number, groups: Group[], confirmed: number}} Round
 * @typedef {{id: number, kind: string, player: string, team: string, round: number | null,
 *   hand: number | null, table_id: number | null, reason: string, at: number,
 *   points: Record<string, number>}} Ruling
 * @typedef {EventSummary & {director_id: number, standings: Team[], round_results: Round[],
 *   rulings: Ruling[], you: {team: number, number: number, table_id: number | null} | null}} EventDetail
 */

/** @type {Record<string, string>} */
const STATUS = {
  registering: "Registering",
  running: "Running",
  finished: "Finished",
  cancelled: "Cancelled",
};
const BOT_LEVELS = ["random", "heuristic", "strong"];
const KINDS = { foul: "Foul (hand not set by the rules)", warning: "Warning", disqualify: "Disqualify the team" };
/** How often an event on (registering or running) is looked at again. */
const REFRESH_MS = 2000;
const ROWS = /** @type {const} */ (["front", "middle", "back"]);
const ROW_NAMES = { front: "Front", middle: "Middle", back: "Back" };

const isAdmin = () => currentAccount()?.role === "admin";
/** "1 hand", "6 hands" @param {number} n @param {string} word */
const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** @param {string} label @param {...(Node | string | null | false)} content */
function cell(label, ...content) {
  return h("td", { role: "cell", "data-label": label }, h("span", { class: "cell-value" }, ...content));
}

/** A cell of a number (right-aligned). @param {string} label @param {...(Node | string | null | false)} content */
function numCell(label, ...content) {
  const el = cell(label, ...content);
  el.classList.add("num");
  return el;
}

/** @param {string} label @param {...(Node | string | null | false)} content */
function rowHeader(label, ...content) {
  return h("th", { scope: "row", role: "rowheader", "data-label": label }, h("span", { class: "cell-value" }, ...content));
}

/**
 * A data table with a caption and column headers.
 * @param {string} caption @param {string[]} columns @param {HTMLElement[]} rows @param {string} [extra]
 * @param {string[]} [numbers] the columns of numbers (right-aligned)
 */
function dataTable(caption, columns, rows, extra = "", numbers = []) {
  const numeric = new Set(numbers);
  const captionId = uid("caption");
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { class: `data stacked ${extra}`, role: "table", "aria-labelledby": captionId },
      h("caption", { id: captionId }, caption),
      h(
        "thead",
        { role: "rowgroup" },
        h(
          "tr",
          { role: "row" },
          ...columns.map((c) => h("th", { scope: "col", role: "columnheader", class: numeric.has(c) ? "num" : null }, c)),
        ),
      ),
      h("tbody", { role: "rowgroup" }, ...rows),
    ),
  );
}

/** A number as points, coloured and signed (+3 / −2 / 0). @param {number} n */
function points(n) {
  return h("span", { class: n > 0 ? "amount amount-in" : n < 0 ? "amount amount-out" : "amount" }, signed(n));
}

/**
 * Look at something every REFRESH_MS while `more()` says so; stop() when the page goes.
 * @param {() => Promise<boolean>} look resolves to whether to keep looking
 */
function poller(look) {
  let stopped = false;
  /** @type {number | undefined} */
  let timer;
  async function again() {
    timer = undefined;
    if (stopped) return;
    let more = true;
    try {
      more = await look();
    } catch {
      // the page says what went wrong; the next look tries again
    }
    if (!stopped && more) timer = window.setTimeout(again, REFRESH_MS);
  }
  again();
  return {
    /** Look now (after an action) rather than at the next tick. */
    now() {
      if (stopped) return;
      window.clearTimeout(timer);
      again();
    },
    stop() {
      stopped = true;
      window.clearTimeout(timer);
    },
  };
}

/**
 * Replace a holder's content, keeping the focus on the control of the same accessible name.
 * @param {HTMLElement} holder @param {...Node} children
 */
function redraw(holder, ...children) {
  const focused = holder.contains(document.activeElement) ? document.activeElement?.getAttribute("aria-label") : null;
  holder.replaceChildren(...children);
  if (focused) {
    /** @type {HTMLElement | null} */ (holder.querySelector(`[aria-label="${CSS.escape(focused)}"]`))?.focus();
  }
}

/**
 * @param {HTMLElement} main
 * @param {Record<string, string>} params
 */
export function render(main, params) {
  if (params.event && params.hand) return dealPage(main, Number(params.event), Number(params.round), Number(params.group), Number(params.hand));
  if (params.event) return eventPage(main, Number(params.event));
  return listPage(main);
}

// ---------------------------------------------------------------------------- #/events

/** @param {HTMLElement} main */
function listPage(main) {
  document.title = "Team events · Thirteen";
  const list = h("div", { "aria-live": "polite", "aria-busy": "true" });
  const error = h("p", { class: "error", role: "alert" });
  const create = createEventForm();
  main.append(
    h(
      "div",
      { class: "page" },
      h("h1", {}, "Team events"),
      h(
        "p",
        {},
        "Duplicate team events: teams of three, and in each round three teams meet at three tables " +
          "seated A1 B1 C1 / B2 C2 A2 / C3 A3 B3, every table dealt the same cards. A team's score is " +
          "what its three players scored; the luck of the deal cancels out.",
      ),
      error,
      list,
      create,
    ),
  );
  const stopListening = onAccount(() => {
    create.hidden = !isAdmin();
  });
  create.hidden = !isAdmin();
  let shown = "";
  const poll = poller(async () => {
    try {
      /** @type {{events: EventSummary[]}} */
      const answer = await request("GET", "/api/events");
      error.textContent = "";
      const key = JSON.stringify(answer.events);
      if (key !== shown) {
        shown = key;
        redraw(list, eventList(answer.events));
      }
      list.removeAttribute("aria-busy");
    } catch (e) {
      error.textContent = errorText(e);
    }
    return true;
  });
  return () => {
    poll.stop();
    stopListening();
  };
}

/** @param {EventSummary[]} events */
function eventList(events) {
  if (!events.length) return h("p", { class: "lobby-empty" }, "No team event is registering or running right now.");
  return dataTable(
    "Team events",
    ["Event", "Game", "Status", "Rounds", "Hands per round", "Teams", "When"],
    events.map((e) =>
      h(
        "tr",
        { role: "row" },
        rowHeader("Event", h("a", { href: `#/event/${e.id}`, class: "table-name" }, e.name), " ", h("small", { class: "muted" }, `#${e.id}`)),
        cell("Game", gameName(e.game), h("small", { class: "muted block" }, e.preset)),
        cell("Status", statusText(e)),
        cell("Rounds", String(e.rounds)),
        cell("Hands per round", String(e.hands_per_round)),
        cell("Teams", String(e.teams)),
        cell("When", ...whenText(e)),
      ),
    ),
    "events-list",
  );
}

/** "Running, round 2 of 3" @param {EventSummary} e */
function statusText(e) {
  const word = STATUS[e.status] ?? e.status;
  return e.status === "running" ? `${word}, round ${e.round} of ${e.rounds}` : word;
}

/** @param {EventSummary} e @returns {(Node | string)[]} */
function whenText(e) {
  if (e.finished_at) return [e.status === "cancelled" ? "Cancelled " : "Finished ", timeElement(e.finished_at)];
  if (e.started_at) return ["Started ", timeElement(e.started_at)];
  if (e.starts_at) return ["Starts ", timeElement(e.starts_at)];
  return ["Starts when the director starts it"];
}

/** The director's form: POST /api/events, then the new event's page. */
function createEventForm() {
  /** @param {string} name @param {Record<string, any>} [more] */
  const number = (name, more = {}) =>
    /** @type {HTMLInputElement} */ (h("input", { name, type: "number", inputmode: "decimal", ...more }));
  const preset = /** @type {HTMLSelectElement} */ (
    h("select", { name: "preset" }, ...PRESETS.map((p) => h("option", { value: p }, p)))
  );
  preset.value = "open-face-cards";
  const name = /** @type {HTMLInputElement} */ (h("input", { name: "name", maxlength: 64 }));
  const rounds = number("rounds", { min: 1, max: 50, step: 1, value: 3, required: true });
  const hands = number("hands", { min: 1, max: 100, step: 1, value: 6, required: true });
  const confirm = number("confirm", { min: 0, max: 120, step: "any", value: 8, required: true });
  const startsAt = /** @type {HTMLInputElement} */ (h("input", { name: "starts-at", type: "datetime-local" }));
  const botLevel = /** @type {HTMLSelectElement} */ (
    h("select", { name: "bot-level" }, ...BOT_LEVELS.map((l) => h("option", { value: l }, l)))
  );
  botLevel.value = "strong";
  /** @type {[string, string, HTMLInputElement][]} */
  const timers = [
    ["set_hand_seconds", "Setting a hand", number("set-hand", { min: 1, step: "any" })],
    ["first_street_seconds", "First street", number("first-street", { min: 1, step: "any" })],
    ["street_seconds", "Later streets", number("street", { min: 1, step: "any" })],
    ["showdown_seconds", "Showdown on show", number("showdown", { min: 0, step: "any" })],
  ];
  const alert = formAlert();
  const submit = h("button", { type: "submit", class: "primary" }, "Create event");
  const headingId = uid("create-event");
  const form = /** @type {HTMLFormElement} */ (
    h(
      "form",
      { class: "form-stack", novalidate: true, "aria-labelledby": headingId },
      h(
        "div",
        { class: "form-grid" },
        field("Preset", preset, "Any game for three."),
        field("Name", name, "Optional; the preset's name otherwise."),
        field("Rounds", rounds),
        field("Hands per round", hands),
        field("Seconds to confirm", confirm, "A result confirms itself after this long."),
        field("Start time", startsAt, "Optional; it starts then if its teams are ready."),
        field("Bot teams play", botLevel),
      ),
      h(
        "fieldset",
        {},
        h("legend", {}, "Timers (seconds; empty for the preset's)"),
        h("div", { class: "form-grid" }, ...timers.map(([, label, input]) => field(label, input))),
      ),
      alert,
      h("div", { class: "form-actions" }, submit),
    )
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!checkInputs(form, [rounds, hands, confirm, ...timers.map((t) => t[2])], alert)) return;
    /** @type {Record<string, any>} */
    const rules = {};
    for (const [key, , input] of timers) if (input.value !== "") rules[key] = Number(input.value);
    /** @type {Record<string, any>} */
    const body = {
      preset: preset.value,
      rounds: Number(rounds.value),
      hands_per_round: Number(hands.value),
      confirm_seconds: Number(confirm.value),
      bot_level: botLevel.value,
      rules,
    };
    if (name.value.trim()) body.name = name.value.trim();
    if (startsAt.value) {
      const at = new Date(startsAt.value).getTime() / 1000;
      if (!Number.isFinite(at) || at < Date.now() / 1000) {
        startsAt.setAttribute("aria-invalid", "true");
        alert.say("Start time: choose a moment in the future, or leave it empty.");
        startsAt.focus();
        return;
      }
      body.starts_at = at;
    }
    alert.say("");
    submit.setAttribute("disabled", "");
    try {
      /** @type {EventDetail} */
      const made = await request("POST", "/api/events", body);
      announce(`Event ${made.name} created; teams may register.`);
      location.hash = `#/event/${made.id}`;
    } catch (error) {
      alert.say(errorText(error));
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  return h("section", { class: "event-create", "aria-labelledby": headingId }, h("h2", { id: headingId }, "Create event"), form);
}

// ---------------------------------------------------------------------------- #/event/ID

/**
 * @param {HTMLElement} main
 * @param {number} eventId
 */
function eventPage(main, eventId) {
  document.title = `Event ${eventId} · Thirteen`;
  const heading = h("h1", {}, `Event ${eventId}`);
  const meta = h("p", { class: "muted event-meta" });
  const alert = formAlert();
  const you = h("div", { class: "event-you" });
  const director = h("section", { class: "event-director", "aria-labelledby": "director-heading", hidden: true });
  const teams = h("section", { "aria-labelledby": "teams-heading", hidden: true });
  const register = h("div", { class: "event-register" });
  const standings = h("section", { "aria-labelledby": "standings-heading", hidden: true });
  const downloads = h("p", { class: "event-downloads", hidden: true });
  const results = h("section", { "aria-labelledby": "hands-heading", hidden: true });
  const rulings = h("section", { "aria-labelledby": "rulings-heading", hidden: true });
  const rulingsList = h("div", {});
  const ruleForm = rulingForm(eventId, () => poll.now(), alert);
  rulings.append(h("h2", { id: "rulings-heading" }, "Rulings"), rulingsList, ruleForm.element);
  main.append(
    h(
      "div",
      { class: "page wide event-page" },
      h("p", {}, h("a", { href: "#/events" }, "All team events")),
      heading,
      meta,
      alert,
      you,
      director,
      teams,
      standings,
      downloads,
      results,
      rulings,
    ),
  );

  // --- the director's buttons while teams register (built once: the count keeps its value)
  const botCount = /** @type {HTMLInputElement} */ (h("input", { type: "number", min: 1, max: 30, step: 1, value: 3, name: "bot-teams" }));
  const cancelAsk = h("span", { class: "row-actions", hidden: true });
  const registeringTools = h(
    "div",
    { class: "director-tools" },
    h(
      "form",
      { class: "inline-form", "aria-label": "Add bot teams" },
      field("Bot teams", botCount),
      h("button", { type: "submit" }, "Add bot teams"),
    ),
    h("button", { type: "button", class: "primary", onclick: () => act("POST", `/api/events/${eventId}/start`, "The event started: the first round's tables are open.") }, "Start event"),
    h("button", { type: "button", class: "danger", onclick: () => (cancelAsk.hidden = false) }, "Cancel event"),
    cancelAsk,
  );
  cancelAsk.append(
    h("span", {}, "Cancel it for good?"),
    h("button", { type: "button", class: "danger", onclick: () => act("DELETE", `/api/events/${eventId}`, "The event is cancelled.") }, "Yes, cancel the event"),
    h("button", { type: "button", onclick: () => (cancelAsk.hidden = true) }, "No, keep it"),
  );
  /** @type {HTMLFormElement} */ (registeringTools.querySelector("form")).addEventListener("submit", (e) => {
    e.preventDefault();
    const n = Number(botCount.value);
    act("POST", `/api/events/${eventId}/bot-teams`, `${count(n, "bot team")} registered.`, { count: n });
  });
  director.append(h("h2", { id: "director-heading" }, "Director"), registeringTools);

  // --- registering a team (built once: the name keeps what is typed)
  const teamName = /** @type {HTMLInputElement} */ (h("input", { name: "team-name", maxlength: 40, required: true, autocomplete: "off" }));
  const registerForm = h(
    "form",
    { class: "inline-form", "aria-labelledby": "register-heading" },
    h("h3", { id: "register-heading" }, "Register a team"),
    field("Team name", teamName, "You are its player 1; two teammates join it."),
    h("button", { type: "submit", class: "primary" }, "Register a team"),
  );
  registerForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = teamName.value.trim();
    if (!name) {
      alert.say("Team name: give the team a name.");
      teamName.focus();
      return;
    }
    if (await act("POST", `/api/events/${eventId}/teams`, `Team ${name} is registered; you are its player 1.`, { name })) {
      teamName.value = "";
    }
  });
  const teamsList = h("div", {});
  teams.append(h("h2", { id: "teams-heading" }, "Teams"), teamsList, register);

  /** @type {EventDetail | null} */
  let detail = null;
  let shown = "";

  /**
   * Ask the room to do something, say what happened (or why not), and look again.
   * @param {string} method @param {string} path @param {string} done @param {unknown} [body]
   * @returns {Promise<boolean>}
   */
  async function act(method, path, done, body) {
    alert.say("");
    try {
      await request(method, path, body);
      announce(done);
      cancelAsk.hidden = true;
      poll.now();
      return true;
    } catch (error) {
      alert.say(errorText(error));
      return false;
    }
  }

  /** @param {number} round @param {number} hand */
  async function confirm(round, hand) {
    alert.say("");
    try {
      await confirmResult(eventId, round, hand);
      announce(hand ? `You confirmed the result of round ${round}, hand ${hand}.` : `You confirmed round ${round}'s team totals.`);
    } catch (error) {
      alert.say(errorText(error));
    }
    shown = "";
    poll.now();
  }

  function draw() {
    const d = detail;
    if (!d) return;
    const key = JSON.stringify([d, currentAccount()?.name, currentAccount()?.role, [...confirmedHere(eventId)]]);
    if (key === shown) return;
    shown = key;
    document.title = `${d.name} · Thirteen`;
    heading.textContent = d.name;
    meta.textContent = [
      `${gameName(d.game)} (${d.preset})`,
      statusText(d),
      count(d.rounds, "round"),
      `${count(d.hands_per_round, "hand")} a round`,
      `results confirm themselves after ${duration(d.confirm_seconds)}`,
    ].join(" · ");
    const admin = isAdmin();
    director.hidden = !admin || d.status !== "registering";
    ruleForm.element.hidden = !admin;
    ruleForm.update(d);
    drawYou(d);
    teams.hidden = d.status !== "registering";
    if (d.status === "registering") drawTeams(d);
    const played = d.status === "running" || d.status === "finished";
    standings.hidden = !played;
    results.hidden = !played;
    rulings.hidden = !played;
    downloads.hidden = !played;
    if (played) {
      redraw(standings, h("h2", { id: "standings-heading" }, d.status === "finished" ? "Final standings" : "Standings"), ...standingsTables(d));
      redraw(results, h("h2", { id: "hands-heading" }, "Hands"), ...d.round_results.map((r) => roundSection(d, r)));
      redraw(rulingsList, rulingsTable(d));
      downloads.replaceChildren(
        "Results: ",
        h("a", { href: `/api/events/${eventId}/results.csv`, download: `event-${eventId}.csv` }, "Download results (CSV)"),
        " · ",
        h("a", { href: `/api/events/${eventId}/results.json`, download: `event-${eventId}.json` }, "Download results (JSON)"),
      );
    }
  }

  /** @param {EventDetail} d */
  function drawYou(d) {
    const me = d.you;
    if (!currentAccount()) {
      redraw(you, d.status === "registering" ? loginPrompt("to register a team or join one") : "");
      return;
    }
    if (!me) {
      redraw(you);
      return;
    }
    const team = d.standings.find((t) => t.id === me.team);
    const parts = [h("span", {}, `You play for ${team?.name ?? "your team"} as its player ${me.number}.`)];
    if (d.status === "registering") {
      parts.push(
        h("button", { type: "button", onclick: () => act("DELETE", `/api/events/${eventId}/membership`, "You left your team.") }, "Leave my team"),
      );
    } else if (me.table_id !== null && d.status === "running") {
      parts.push(h("a", { class: "button primary", href: `#/table/${me.table_id}` }, "Your table"));
    } else if (d.status === "running") {
      parts.push(h("span", { class: "muted" }, "Your table of this round has closed; the next round opens once every table played."));
    }
    redraw(you, h("p", { class: "row-actions" }, ...parts));
  }

  /** @param {EventDetail} d */
  function drawTeams(d) {
    const me = d.you;
    const account = currentAccount();
    const rows = d.standings.map((t) => {
      const free = 3 - t.members.length;
      const label = `Join ${t.name}`;
      return h(
        "tr",
        { role: "row", class: me?.team === t.id ? "board-you" : "" },
        rowHeader("Team", t.name, t.bot ? h("span", { class: "lobby-badge" }, "bots") : "", me?.team === t.id ? h("span", { class: "muted" }, " (your team)") : ""),
        cell("Players", t.members.length ? t.members.map((m) => `${m.number}. ${m.name}`).join(", ") : "nobody yet"),
        cell("Places", free > 0 ? `${free} free` : "Full"),
        cell(
          "Actions",
          free > 0 && account && !me
            ? h("button", { type: "button", "aria-label": label, onclick: () => act("POST", `/api/events/${eventId}/teams/${t.id}/members`, `You joined ${t.name}.`) }, "Join")
            : "",
        ),
      );
    });
    const ready = d.standings.filter((t) => t.members.length === 3).length;
    redraw(
      teamsList,
      h(
        "p",
        { class: "muted" },
        `${count(d.standings.length, "team")} registered, ${ready} with their three players. ` +
          "The event starts with a multiple of three full teams.",
      ),
      rows.length ? dataTable("Registered teams", ["Team", "Players", "Places", "Actions"], rows) : h("p", { class: "lobby-empty" }, "No team has registered yet."),
    );
    register.hidden = !account || me !== null;
    if (!register.contains(registerForm)) register.append(registerForm);
  }

  /** @param {EventDetail} d */
  function standingsTables(d) {
    const mine = d.you?.team;
    const roundCols = Array.from({ length: d.rounds }, (_, i) => `Round ${i + 1}`);
    const columns = ["Rank", "Team", "Players", ...roundCols, "Rulings", "Total"];
    /** @param {Team} t */
    const row = (t) =>
      h(
        "tr",
        { role: "row", class: [t.id === mine ? "board-you" : "", t.disqualified ? "event-dq" : ""].join(" ").trim() },
        cell("Rank", t.rank === null ? "—" : String(t.rank)),
        rowHeader(
          "Team",
          t.name,
          t.id === mine ? h("span", { class: "muted" }, " (your team)") : "",
          t.disqualified ? h("span", { class: "lobby-badge event-dq-badge" }, "Disqualified") : "",
        ),
        cell("Players", t.members.map((m) => m.name).join(", ")),
        ...t.rounds.map((p, i) => numCell(`Round ${i + 1}`, i < d.round ? points(p) : h("span", { class: "muted" }, "—"))),
        numCell("Rulings", points(t.rulings)),
        numCell("Total", h("strong", {}, points(t.total))),
      );
    const ranked = d.standings.filter((t) => !t.disqualified);
    const out = d.standings.filter((t) => t.disqualified);
    const tables = [
      h(
        "p",
        { class: "muted" },
        "A hand counts once all three tables of its group have played it. Rulings move points as the director ruled.",
      ),
      dataTable("Standings", columns, ranked.map(row), "event-standings", [...roundCols, "Rulings", "Total"]),
    ];
    if (out.length) {
      tables.push(
        h("h3", {}, "Disqualified"),
        dataTable("Disqualified teams (not ranked)", columns, out.map(row), "event-standings", [...roundCols, "Rulings", "Total"]),
      );
    }
    return tables;
  }

  /** @param {EventDetail} d @param {Round} r */
  function roundSection(d, r) {
    const names = new Map(d.standings.map((t) => [t.id, t.name]));
    const mine = d.you?.team;
    const done = new Set(confirmedHere(eventId));
    const running = d.status === "running";
    const roundOver = d.status === "finished" || d.round > r.round;
    const myGroup = r.groups.find((g) => mine !== undefined && g.teams.includes(mine));
    const sectionId = uid("round");
    const parts = [h("h3", { id: sectionId }, `Round ${r.round}`)];
    const allComplete = myGroup?.hands.every((x) => x.complete) ?? false;
    const totals = h(
      "p",
      { class: "row-actions" },
      `Team totals confirmed by ${count(r.confirmed, "player")}.`,
    );
    if (myGroup && running && r.round === d.round && allComplete) {
      if (done.has(`${r.round}:0`)) totals.append(h("span", { class: "ok" }, "You confirmed them."));
      else {
        totals.append(
          h(
            "button",
            { type: "button", class: "primary", "aria-label": `Confirm round ${r.round} team totals`, onclick: () => confirm(r.round, 0) },
            "Confirm",
          ),
        );
      }
    }
    parts.push(totals);
    for (const g of r.groups) {
      const teamNames = g.teams.map((t) => names.get(t) ?? `Team ${t}`);
      const columns = ["Hand", ...teamNames, "Status", "Actions"];
      const rows = g.hands.map((x) => {
        const actions = [];
        if (x.complete && (roundOver || isAdmin())) {
          actions.push(
            h(
              "a",
              { href: `#/event/${eventId}/deal/${r.round}/${g.group}/${x.hand}`, "aria-label": `Side by side: round ${r.round}, group ${g.group}, hand ${x.hand}` },
              "Side by side",
            ),
          );
        }
        if (x.complete && running && g === myGroup && r.round <= d.round && !done.has(`${r.round}:${x.hand}`)) {
          actions.push(
            h(
              "button",
              { type: "button", "aria-label": `Confirm round ${r.round}, hand ${x.hand}`, onclick: () => confirm(r.round, x.hand) },
              "Confirm",
            ),
          );
        }
        const status = x.complete
          ? `Played at the three tables; confirmed by ${count(x.confirmed, "player")}${done.has(`${r.round}:${x.hand}`) ? " (you too)" : ""}`
          : "In play";
        return h(
          "tr",
          { role: "row" },
          rowHeader("Hand", `Hand ${x.hand}`),
          ...g.teams.map((t, i) =>
            numCell(teamNames[i], x.complete ? points(x.scores[String(t)] ?? 0) : h("span", { class: "muted" }, "in play")),
          ),
          cell("Status", status),
          cell("Actions", h("span", { class: "row-actions" }, ...actions)),
        );
      });
      const tableLinks = g.tables.map((t, i) => {
        const seated = t.seats.map((s) => `${names.get(s.team) ?? s.team} ${s.number}`).join(", ");
        const watch =
          isAdmin() && running && r.round === d.round
            ? [" · ", h("a", { href: `#/table/${t.table_id}/watch`, "aria-label": `Watch table ${i + 1} of round ${r.round}, group ${g.group}` }, "Watch")]
            : [];
        return h("li", {}, `Table ${i + 1} (#${t.table_id}): ${seated}`, ...watch);
      });
      parts.push(
        h(
          "div",
          { class: "event-group" },
          dataTable(`Round ${r.round}, group ${g.group}: ${teamNames.join(", ")}`, columns, rows, "event-hands", teamNames),
          h("details", {}, h("summary", {}, "Seating"), h("ul", {}, ...tableLinks)),
        ),
      );
    }
    return h("section", { "aria-labelledby": sectionId }, ...parts);
  }

  /** @param {EventDetail} d */
  function rulingsTable(d) {
    if (!d.rulings.length) return h("p", { class: "muted" }, "No rulings.");
    return dataTable(
      "Rulings",
      ["Kind", "Player", "Team", "Round", "Hand", "Reason", "Points", "When"],
      d.rulings.map((r) =>
        h(
          "tr",
          { role: "row" },
          rowHeader("Kind", r.kind === "foul" ? "Foul" : r.kind === "warning" ? "Warning" : r.kind === "disqualify" ? "Disqualification" : r.kind),
          cell("Player", r.player),
          cell("Team", r.team),
          cell("Round", r.round === null ? "—" : String(r.round)),
          cell("Hand", r.hand === null ? "—" : String(r.hand)),
          cell("Reason", r.reason),
          cell(
            "Points",
            Object.keys(r.points).length
              ? Object.entries(r.points)
                  .map(([team, p]) => `${team} ${signed(p)}`)
                  .join(", ")
              : "—",
          ),
          cell("When", timeElement(r.at)),
        ),
      ),
    );
  }

  let missing = false;
  const poll = poller(async () => {
    try {
      detail = await request("GET", `/api/events/${eventId}`);
      if (missing) alert.say("");
      missing = false;
      draw();
    } catch (error) {
      missing = true;
      alert.say(errorText(error));
      if (error instanceof RoomError && error.status === 404) return false; // no such event
    }
    return detail === null || detail.status === "registering" || detail.status === "running";
  });
  const stopListening = onAccount(() => {
    shown = "";
    poll.now();
  });
  return () => {
    poll.stop();
    stopListening();
  };
}

/**
 * The director's ruling form (POST /api/events/ID/rulings).
 * @param {number} eventId @param {() => void} after @param {HTMLElement & {say: (text: string) => void}} pageAlert
 */
function rulingForm(eventId, after, pageAlert) {
  const kind = /** @type {HTMLSelectElement} */ (
    h("select", { name: "kind" }, ...Object.entries(KINDS).map(([value, label]) => h("option", { value }, label)))
  );
  const listId = uid("players");
  const players = h("datalist", { id: listId });
  const player = /** @type {HTMLInputElement} */ (h("input", { name: "player", required: true, list: listId, autocomplete: "off" }));
  const round = /** @type {HTMLInputElement} */ (h("input", { name: "round", type: "number", min: 1, step: 1 }));
  const hand = /** @type {HTMLInputElement} */ (h("input", { name: "hand", type: "number", min: 1, step: 1 }));
  const reason = /** @type {HTMLInputElement} */ (h("input", { name: "reason", required: true, maxlength: 500 }));
  const alert = formAlert();
  const headingId = uid("rule");
  const form = /** @type {HTMLFormElement} */ (
    h(
      "form",
      { class: "form-stack", novalidate: true, "aria-labelledby": headingId },
      h("h3", { id: headingId }, "Rule"),
      h(
        "div",
        { class: "form-grid" },
        field("Kind", kind),
        field("Player", player),
        field("Round", round, "A foul names its round and hand."),
        field("Hand", hand),
      ),
      field("Reason", reason, "Kept with the ruling and shown to everyone."),
      players,
      alert,
      h("div", { class: "form-actions" }, h("button", { type: "submit", class: "primary" }, "Rule")),
    )
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    alert.say("");
    pageAlert.say("");
    if (!player.value.trim() || !reason.value.trim()) {
      alert.say("A ruling names its player and gives its reason.");
      (player.value.trim() ? reason : player).focus();
      return;
    }
    /** @type {Record<string, any>} */
    const body = { kind: kind.value, player: player.value.trim(), reason: reason.value.trim() };
    if (round.value !== "") body.round = Number(round.value);
    if (hand.value !== "") body.hand = Number(hand.value);
    try {
      await request("POST", `/api/events/${eventId}/rulings`, body);
      announce(`Ruling recorded: ${KINDS[/** @type {keyof typeof KINDS} */ (kind.value)]}, ${body.player}.`);
      form.reset();
      after();
    } catch (error) {
      alert.say(errorText(error));
    }
  });
  return {
    element: form,
    /** @param {EventDetail} d */
    update(d) {
      const names = d.standings.flatMap((t) => t.members.map((m) => m.name));
      if (players.childElementCount !== names.length) {
        players.replaceChildren(...names.map((n) => h("option", { value: n })));
      }
      round.max = String(Math.max(1, d.round));
      hand.max = String(d.hands_per_round);
    },
  };
}

// ---------------------------------------------------------------------------- side by side

/**
 * @param {HTMLElement} main
 * @param {number} eventId @param {number} round @param {number} group @param {number} hand
 */
function dealPage(main, eventId, round, group, hand) {
  const title = `Round ${round}, group ${group}, hand ${hand}`;
  document.title = `${title}: side by side · Thirteen`;
  const heading = h("h1", {}, `${title}: side by side`);
  const about = h("p", { class: "muted" });
  const alert = formAlert();
  const nav = h("p", { class: "row-actions" });
  const body = h("div", { "aria-busy": "true" });
  main.append(
    h(
      "div",
      { class: "page wide side-by-side" },
      h("p", {}, h("a", { href: `#/event/${eventId}` }, "Back to the event")),
      heading,
      about,
      nav,
      alert,
      body,
    ),
  );
  let stopped = false;
  (async () => {
    try {
      const [deal, detail] = await Promise.all([
        request("GET", `/api/events/${eventId}/deals/${round}/${group}/${hand}`),
        request("GET", `/api/events/${eventId}`).catch(() => null),
      ]);
      if (stopped) return;
      if (detail) {
        heading.textContent = `${detail.name}: ${title}`;
        document.title = `${detail.name}, ${title} · Thirteen`;
        const links = [];
        if (hand > 1) links.push(h("a", { href: `#/event/${eventId}/deal/${round}/${group}/${hand - 1}` }, "Previous hand"));
        if (hand < detail.hands_per_round) links.push(h("a", { href: `#/event/${eventId}/deal/${round}/${group}/${hand + 1}` }, "Next hand"));
        nav.replaceChildren(...links);
      }
      about.textContent =
        `The same cards at the group's three tables (${deal.teams.join(", ")}): seat by seat, how each team played them.` +
        (deal.root ? ` Deck root ${deal.root}.` : "");
      body.replaceChildren(...deal.seats.map((/** @type {any} */ s) => seatSection(s)));
    } catch (error) {
      if (!stopped) alert.say(errorText(error));
    } finally {
      body.removeAttribute("aria-busy");
    }
  })();
  return () => {
    stopped = true;
  };
}

/** @param {{seat: number, plays: Record<string, any>[]}} s */
function seatSection(s) {
  const id = uid("seat");
  return h(
    "section",
    { class: "sbs-seat", "aria-labelledby": id },
    h("h2", { id }, `Seat ${s.seat + 1}`),
    h(
      "div",
      { class: "sbs-plays" },
      ...s.plays.map((p) => {
        const playId = uid("play");
        const rows = ROWS.map((row) =>
          h(
            "section",
            { class: "rp-row", "aria-label": ROW_NAMES[row] },
            h("span", { class: "rp-row-name", "aria-hidden": "true" }, ROW_NAMES[row]),
            h(
              "span",
              { class: "rp-row-cards" },
              ...parseCards(p[row]).map((c) => cardElement(c, { small: true })),
              p[row] ? null : h("span", { class: "muted" }, "empty"),
            ),
          ),
        );
        return h(
          "section",
          { class: `rp-board sbs-play${p.foul ? " sbs-foul" : ""}`, "aria-labelledby": playId },
          h(
            "header",
            {},
            h("h3", { id: playId }, `${p.team}: ${p.player}`),
            h(
              "p",
              {},
              h("strong", { class: p.points > 0 ? "rp-result amount-in" : p.points < 0 ? "rp-result amount-out" : "rp-result" }, `${signed(p.points)} points`),
              p.foul ? h("span", { class: "sbs-foul-tag" }, " · Fouled") : "",
              p.outcome && p.outcome !== "set" && !p.foul ? ` · ${p.outcome}` : "",
              h("span", { class: "muted" }, ` · table #${p.table_id}`),
            ),
          ),
          ...rows,
        );
      }),
    ),
  );
}
