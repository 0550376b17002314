// Duplicate practice: #/practice starts a run (a private table, you against bots, a number of
// deals; after each hand the strong bot plays the same deal from your seat) and lists your runs;
// #/practice/ID shows one run hand by hand, your rows beside the bot's.

import { currentAccount, loadAccount, request } from "../api.js";
import { cardElement, parseCards } from "../cards.js";
import { difference } from "../table/duplicate.js";
import { announce, errorText, h } from "../ui.js";
import { PRESETS, chips, field, formAlert, gameName, loginPrompt, timeElement } from "./common.js";

const STATUS = { playing: "Playing", finished: "Finished", ended: "Ended early" };
const LEVELS = [
  ["club", "Club (steady, quick)"],
  ["beginner", "Beginner (makes mistakes)"],
  ["expert", "Expert (the strong bot)"],
];
const ROWS = [
  ["front", "Front"],
  ["middle", "Middle"],
  ["back", "Back"],
  ["discards", "Discards"],
];

/**
 * @param {HTMLElement} main
 * @param {{run?: string}} params
 */
export async function render(main, params) {
  const page = h("section", { class: "practice-page", "aria-labelledby": "practice-title" });
  main.replaceChildren(page);
  if (!currentAccount()) await loadAccount().catch(() => null);
  if (!currentAccount()) {
    page.append(
      h("h1", { id: "practice-title" }, "Duplicate practice"),
      loginPrompt("to play a duplicate practice run against the strong bot"),
    );
    return;
  }
  if (params.run) await runPage(page, Number(params.run));
  else await startPage(page);
}

/** The form to start a run, and the list of your runs. @param {HTMLElement} page */
async function startPage(page) {
  document.title = "Duplicate practice · Thirteen";
  const alert = formAlert();
  const preset = /** @type {HTMLSelectElement} */ (
    h("select", { name: "preset" }, ...PRESETS.map((p) => h("option", { value: p }, p)))
  );
  const deals = /** @type {HTMLInputElement} */ (
    h("input", { type: "number", name: "deals", min: "1", max: "100", value: "10", required: true })
  );
  const opponents = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name: "opponents" },
      h("option", { value: "" }, "Every other seat"),
      h("option", { value: "1" }, "1 bot"),
      h("option", { value: "2" }, "2 bots"),
      h("option", { value: "3" }, "3 bots"),
    )
  );
  const level = /** @type {HTMLSelectElement} */ (
    h("select", { name: "bot_level" }, ...LEVELS.map(([v, label]) => h("option", { value: v }, label)))
  );
  const buyIn = /** @type {HTMLInputElement} */ (
    h("input", { type: "number", name: "buy_in", min: "1", value: "500", required: true })
  );
  const start = h("button", { type: "submit", class: "primary" }, "Start the run");
  const form = h(
    "form",
    { class: "practice-form", "aria-labelledby": "practice-start" },
    h("h2", { id: "practice-start" }, "Start a run"),
    alert,
    field("Game", preset),
    field("Deals", deals, "1 to 100 deals."),
    field("Opponents", opponents),
    field("Opponents' level", level),
    field("Buy-in (chips)", buyIn, "From your wallet; a point is worth one chip, and what is left comes back when the run ends."),
    start,
  );
  const list = h("div", { class: "practice-runs" });
  page.append(
    h("h1", { id: "practice-title" }, "Duplicate practice"),
    h(
      "p",
      { class: "muted" },
      "Play a run of deals at a table of your own against bots. After each hand the strong bot plays the very same deal from your seat; the difference between your points and its points, hand by hand and in total, tells you how you did against it.",
    ),
    form,
    h("h2", { id: "practice-runs" }, "Your runs"),
    list,
  );

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    alert.say("");
    start.setAttribute("disabled", "");
    /** @type {Record<string, any>} */
    const body = {
      preset: preset.value,
      deals: Number(deals.value),
      bot_level: level.value,
      buy_in: Number(buyIn.value),
    };
    if (opponents.value) body.opponents = Number(opponents.value);
    try {
      const run = await request("POST", "/api/practice/duplicate", body);
      await loadAccount().catch(() => null);
      announce(`Your run of ${run.deals} deals is ready at table ${run.table_id}.`);
      location.hash = `#/table/${run.table_id}`;
    } catch (error) {
      alert.say(errorText(error));
    } finally {
      start.removeAttribute("disabled");
    }
  });

  try {
    const answer = await request("GET", "/api/practice/duplicate");
    list.replaceChildren(runsTable(answer.runs));
  } catch (error) {
    list.replaceChildren(h("p", { class: "error" }, errorText(error)));
  }
}

/** @param {Record<string, any>[]} runs */
function runsTable(runs) {
  if (!runs.length) return h("p", { class: "muted" }, "No run yet.");
  return h(
    "table",
    { class: "data practice-list", "aria-labelledby": "practice-runs" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ...["Started", "Game", "Deals", "Total against the bot", "Status", ""].map((c) =>
          h("th", { scope: "col" }, c),
        ),
      ),
    ),
    h(
      "tbody",
      {},
      ...runs.map((run) => {
        const label = `run at table ${run.table_id}`;
        return h(
          "tr",
          {},
          h("td", {}, timeElement(run.created_at)),
          h("td", {}, `${run.preset} (${gameName(run.game)})`),
          h("td", {}, `${run.played} of ${run.deals}`),
          h("td", {}, difference(run.total)),
          h("td", {}, /** @type {Record<string, string>} */ (STATUS)[run.status] ?? run.status),
          h(
            "td",
            {},
            run.status === "playing"
              ? h("a", { class: "button primary", href: `#/table/${run.table_id}`, "aria-label": `Play the ${label}` }, "Play")
              : null,
            " ",
            h("a", { class: "button", href: `#/practice/${run.table_id}`, "aria-label": `Hands of the ${label}` }, "Hands"),
          ),
        );
      }),
    ),
  );
}

/** One run, hand by hand. @param {HTMLElement} page @param {number} tableId */
async function runPage(page, tableId) {
  document.title = `Duplicate practice at table ${tableId} · Thirteen`;
  page.append(h("h1", { id: "practice-title" }, `Duplicate practice at table ${tableId}`));
  /** @type {Record<string, any>} */
  let run;
  try {
    run = await request("GET", `/api/practice/duplicate/${tableId}`);
  } catch (error) {
    page.append(h("p", { class: "error", role: "alert" }, errorText(error)));
    return;
  }
  const state = /** @type {Record<string, string>} */ (STATUS)[run.status] ?? run.status;
  const ways =
    run.status === "playing"
      ? [h("p", {}, h("a", { href: `#/table/${tableId}` }, "Back to the table"))]
      : [h("p", {}, h("a", { href: "#/practice" }, "Start a new run"))];
  page.append(
    h(
      "p",
      { class: "table-meta" },
      `${run.preset} · ${run.seats} seats · opponents: ${run.bot_level} · buy-in ${chips(run.buy_in)} · ${state}`,
    ),
    h(
      "p",
      { role: "status" },
      `${run.played} of ${run.deals} deals played. Total against the strong bot: ${difference(run.total)}.`,
    ),
    ...ways,
    h("p", {}, h("a", { href: "#/practice" }, "All your runs")),
    ...run.hands.map(handSection),
  );
}

/** @param {Record<string, any>} hand */
function handSection(hand) {
  const title = `Hand ${hand.number}`;
  if (hand.pending) {
    return h("section", { "aria-label": title }, h("h2", {}, title), h("p", {}, "The bot is still playing this deal."));
  }
  const line = `You ${difference(hand.your_points)}, the bot ${difference(hand.bot_points)}: difference ${difference(hand.difference)} (total ${difference(hand.running_total)}).`;
  return h(
    "section",
    { class: "practice-hand", "aria-label": title },
    h("h2", {}, title),
    h("p", {}, line, " ", h("a", { href: `#/hand/${hand.hand_id}` }, `Replay hand ${hand.number}`)),
    h(
      "table",
      { class: "data practice-boards" },
      h("caption", {}, `${title}: your rows and the bot's`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Row"), h("th", { scope: "col" }, "Yours"), h("th", { scope: "col" }, "The bot's"))),
      h(
        "tbody",
        {},
        ...ROWS.filter(([key]) => hand.your_board[key] || hand.bot_board[key]).map(([key, name]) =>
          h("tr", {}, h("th", { scope: "row" }, name), cardsCell(hand.your_board[key]), cardsCell(hand.bot_board[key])),
        ),
        h("tr", {}, h("th", { scope: "row" }, "Outcome"), h("td", {}, outcome(hand.your_board)), h("td", {}, outcome(hand.bot_board))),
      ),
    ),
  );
}

/** @param {string} text */
function cardsCell(text) {
  const cards = parseCards(text);
  return h("td", {}, ...(cards.length ? cards.map((c) => cardElement(c, { small: true })) : ["—"]));
}

/** @param {Record<string, any>} board */
function outcome(board) {
  const bits = [];
  if (board.surrendered) bits.push("surrendered");
  else if (board.natural) bits.push(`natural: ${board.natural}`);
  else if (board.foul) bits.push("fouled");
  else bits.push("set");
  if (board.royalties) bits.push(`royalties ${board.royalties}`);
  if (board.fantasyland_next) bits.push("fantasyland earned");
  return bits.join(", ");
}
