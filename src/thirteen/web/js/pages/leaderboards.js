// The leaderboards (#/leaderboards, or #/leaderboards/GAME/PERIOD to link to one board): net
// units, hands and big hands per account for a game and a period, people and bots on separate
// boards — people first: while nobody has played the period's minimum, everyone who played a
// hand is shown rather than an empty board above the bots' (which come last, folded). The
// choice is kept in the address (replaced, not pushed: no history entry per change).

import { currentAccount, request } from "../api.js";
import { announce, errorText, h } from "../ui.js";
import { cell, field, PRESETS, signed, uid } from "./common.js";

/**
 * @typedef {{rank: number, name: string, hands: number, net_units: number,
 *   units_per_hand: number, big_hands: number}} Standing
 * @typedef {{name: string, hands: number, net_units: number, units_per_hand: number,
 *   big_hands: number, rank: number | null, hands_to_rank: number}} You
 * @typedef {{game: string, period: string, who: string, since: number | null,
 *   until: number | null, min_hands: number, counted_at: number, big_hand_units: number,
 *   games: string[], standings: Standing[], you: You | null}} Board
 */

/** @type {[string, string][]} value, what a person reads */
const GAMES = [
  ["all", "All games"],
  ["chinese", "Chinese Poker (every scoring)"],
  ["ofc", "Open-Face Chinese (every variant)"],
  ...PRESETS.map((p) => /** @type {[string, string]} */ ([p, p])),
];
/** @type {Record<string, string>} */
const PERIODS = { day: "Today", week: "This week", all: "All time" };
/** @type {Record<string, string>} */
const PERIOD_WORDS = { day: "today", week: "this week", all: "of all time" };
const MIN_HANDS = ["1", "10", "25", "50", "100", "500"];
const COLUMNS = ["Rank", "Name", "Net units", "Hands", "Units per hand", "Big hands"];

/** A day or a moment as "Monday 23 November, 00:00 UTC". @param {number} t */
function utcDay(t) {
  return new Date(t * 1000).toLocaleDateString("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    timeZone: "UTC",
  });
}

/** "1 hand", "25 hands" @param {number} n */
function hands(n) {
  return `${n.toLocaleString("en")} ${n === 1 ? "hand" : "hands"}`;
}

/** What the board covers, in a sentence. @param {Board} board */
function coverage(board) {
  const span =
    board.since === null || board.until === null
      ? "Every hand ever settled"
      : board.period === "day"
        ? `Hands settled on ${utcDay(board.since)} (00:00 to 24:00 UTC)`
        : `Hands settled from ${utcDay(board.since)}, 00:00 UTC, to ${utcDay(board.until)}, 00:00 UTC`;
  return (
    `${span}. Ranked after ${hands(board.min_hands)}; a big hand wins ${board.big_hand_units} units ` +
    "or more. Practice tables do not count."
  );
}

/** Your own line, ranked or not: "You: 3 hands, +4 units, 1 big hand; 22 more this week to
 * be ranked." @param {Board} board */
function yourLine(board) {
  const you = board.you;
  if (!you) return "";
  const big = `${you.big_hands} big ${you.big_hands === 1 ? "hand" : "hands"}`;
  const within = { day: " today", week: " this week", all: "" }[board.period] ?? "";
  const where =
    you.rank !== null
      ? `ranked ${you.rank}`
      : you.hands_to_rank > 0
        ? `${you.hands_to_rank} more${within} to be ranked`
        : `below the ${board.standings.length} shown`;
  return `You: ${hands(you.hands)}, ${signed(you.net_units)} units, ${big}; ${where}.`;
}


/** "Nobody has played 25 hands this week yet." @param {Board} board @param {string} gameLabel */
function nobody(board, gameLabel) {
  const where = board.game === "all" ? "" : ` in ${gameLabel}`;
  return `Nobody has played ${hands(board.min_hands)} ${PERIOD_WORDS[board.period]} yet${where}.`;
}

/**
 * One board as a table (or a sentence when nobody is ranked yet).
 * @param {Board} board
 * @param {string} title "People" or "Bots"
 * @param {string} gameLabel
 * @param {string} [more] after the caption: "at least 1 hand" on a board with a lower minimum
 */
function boardTable(board, title, gameLabel, more = "") {
  const when = PERIOD_WORDS[board.period];
  if (!board.standings.length) return h("p", { class: "board-empty" }, nobody(board, gameLabel));
  const me = currentAccount()?.name;
  return rankTable(
    `${title}: ${gameLabel}, ${when}${more ? ` (${more})` : ""}`,
    COLUMNS,
    board.standings.map((s) =>
      h(
        "tr",
        { role: "row", class: s.name === me ? "board-you" : "" },
        cell("Rank", String(s.rank)),
        cell("Name", s.name, s.name === me ? h("span", { class: "muted" }, " (you)") : ""),
        cell(
          "Net units",
          h("span", { class: s.net_units > 0 ? "amount amount-in" : s.net_units < 0 ? "amount amount-out" : "amount" }, signed(s.net_units)),
        ),
        cell("Hands", s.hands.toLocaleString("en")),
        cell("Units per hand", signed(s.units_per_hand)),
        cell("Big hands", s.big_hands.toLocaleString("en")),
      ),
    ),
  );
}

/**
 * A ranking as a table: its caption, column headers and rows.
 * @param {string} caption @param {string[]} columns @param {HTMLElement[]} rows
 */
function rankTable(caption, columns, rows) {
  const captionId = uid("caption");
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { class: "data stacked leaderboard", role: "table", "aria-labelledby": captionId },
      h("caption", { id: captionId }, caption),
      h(
        "thead",
        { role: "rowgroup" },
        h("tr", { role: "row" }, ...columns.map((c) => h("th", { scope: "col", role: "columnheader" }, c))),
      ),
      h("tbody", { role: "rowgroup" }, ...rows),
    ),
  );
}

const TEAM_COLUMNS = ["Rank", "Team", "Points", "Events", "Points per event", "Events won"];

/**
 * Duplicate team rankings (who=teams): a board's "hands" are the events a team played, its
 * "net units" its points in them and its "big hands" the events it won.
 * @param {Board} board @param {string} gameLabel
 */
function teamTable(board, gameLabel) {
  if (!board.standings.length) {
    return h("p", { class: "muted" }, "No team has finished an event of this game in this period.");
  }
  return rankTable(
    `Teams: ${gameLabel}, ${PERIOD_WORDS[board.period]}`,
    TEAM_COLUMNS,
    board.standings.map((s) =>
      h(
        "tr",
        { role: "row" },
        cell("Rank", String(s.rank)),
        cell("Team", s.name),
        cell("Points", signed(s.net_units)),
        cell("Events", s.hands.toLocaleString("en")),
        cell("Points per event", signed(s.units_per_hand)),
        cell("Events won", s.big_hands.toLocaleString("en")),
      ),
    ),
  );
}

/**
 * @param {HTMLElement} main
 * @param {Record<string, string>} params
 */
export function render(main, params) {
  document.title = "Leaderboards · Thirteen";
  const game = /** @type {HTMLSelectElement} */ (
    h("select", { name: "game" }, ...GAMES.map(([value, label]) => h("option", { value }, label)))
  );
  const period = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name: "period" },
      ...Object.entries(PERIODS).map(([value, label]) => h("option", { value }, label)),
    )
  );
  const least = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name: "min-hands" },
      h("option", { value: "" }, "By period (10, 25, 50)"),
      ...MIN_HANDS.map((n) => h("option", { value: n }, n)),
    )
  );
  game.value = GAMES.some(([g]) => g === params.game) ? params.game : "all";
  period.value = params.period in PERIODS ? params.period : "week";
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Choose a leaderboard" },
    field("Game", game),
    field("Period", period),
    field("Minimum hands", least),
  );
  form.addEventListener("submit", (e) => e.preventDefault());
  const about = h("p", { class: "muted board-about" });
  const error = h("p", { class: "error", role: "alert" });
  const yours = h("p", { class: "board-you-line" });
  const people = h("div", {});
  const bots = h("div", {});
  const teams = h("div", {});
  main.append(
    h(
      "div",
      { class: "page" },
      h("h1", {}, "Leaderboards"),
      h(
        "p",
        {},
        "Net units are chips won less chips lost, each hand's divided by its table's unit, so " +
          "every stake counts alike. Periods are UTC calendar days and weeks (from Monday).",
      ),
      form,
      about,
      error,
      h(
        "section",
        { "aria-labelledby": "people-heading" },
        h("h2", { id: "people-heading" }, "People"),
        yours,
        people,
      ),
      h(
        "section",
        { "aria-labelledby": "teams-heading" },
        h("h2", { id: "teams-heading" }, "Teams"),
        h("p", { class: "muted" }, "Duplicate team events: points summed over the events each team finished."),
        teams,
      ),
      h(
        "section",
        { "aria-labelledby": "bots-heading" },
        h("h2", { id: "bots-heading" }, "Bots"),
        h(
          "details",
          { class: "bots-board" },
          h("summary", {}, "The room's bots, ranked apart from people"),
          bots,
        ),
      ),
    ),
  );

  let generation = 0;
  let stopped = false;
  async function load() {
    const mine = ++generation;
    const fewest = least.value ? `&min_hands=${least.value}` : "";
    const query = `game=${encodeURIComponent(game.value)}&period=${period.value}${fewest}`;
    history.replaceState(null, "", `#/leaderboards/${game.value}/${period.value}`);
    const gameLabel = GAMES.find(([g]) => g === game.value)?.[1] ?? game.value;
    for (const holder of [people, bots, teams]) holder.setAttribute("aria-busy", "true");
    try {
      /** @type {[Board, Board, Board]} */
      const [ours, theirs, squads] = await Promise.all([
        request("GET", `/api/leaderboards?${query}&who=people`),
        request("GET", `/api/leaderboards?${query}&who=bots`),
        request("GET", `/api/leaderboards?game=${encodeURIComponent(game.value)}&period=${period.value}&who=teams`),
      ]);
      if (mine !== generation || stopped) return;
      error.textContent = "";
      about.textContent = coverage(ours);
      yours.textContent = yourLine(ours);
      people.replaceChildren(...(await peopleBoard(ours, query, gameLabel)));
      if (mine !== generation || stopped) return;
      bots.replaceChildren(boardTable(theirs, "Bots", gameLabel));
      teams.replaceChildren(teamTable(squads, gameLabel));
      announce(`${gameLabel}, ${PERIOD_WORDS[ours.period]}: ${ours.standings.length} people ranked.`);
    } catch (e) {
      if (mine !== generation || stopped) return;
      error.textContent = errorText(e);
    } finally {
      if (mine === generation) for (const holder of [people, bots, teams]) holder.removeAttribute("aria-busy");
    }
  }
  /**
   * The people's board; while nobody has played the period's minimum (and the minimum is the
   * period's own), everyone who played a hand, said so.
   * @param {Board} board @param {string} query @param {string} gameLabel
   * @returns {Promise<HTMLElement[]>}
   */
  async function peopleBoard(board, query, gameLabel) {
    if (board.standings.length || least.value || board.min_hands <= 1) {
      return [boardTable(board, "People", gameLabel)];
    }
    /** @type {Board} */
    const anyone = await request("GET", `/api/leaderboards?${query}&who=people&min_hands=1`);
    if (!anyone.standings.length) return [boardTable(anyone, "People", gameLabel)];
    return [
      h(
        "p",
        { class: "board-empty" },
        `${nobody(board, gameLabel).replace(/\.$/, "")} to be ranked; until someone has, here is everyone who played a hand:`,
      ),
      boardTable(anyone, "People", gameLabel, "at least 1 hand"),
    ];
  }

  form.addEventListener("change", () => load());
  load();
  return () => {
    stopped = true;
  };
}
