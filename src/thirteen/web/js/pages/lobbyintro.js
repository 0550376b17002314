// The lobby's first lines for a newcomer: what each game is, in a line, and "Play now" — the
// room picks the table (GET /api/tables/play-now: the one you sit at, else the fullest open
// table with a free seat your wallet covers) and the page opens its buy-in at once. Logged out,
// "Play now" leads to logging in first and comes back to the lobby.

import { currentAccount, request } from "../api.js";
import { errorText, h } from "../ui.js";
import { formAlert, rememberReturn } from "./common.js";

/** @type {[string, string, string][]} game, its name, what it is in a line */
const GAMES = [
  [
    "chinese",
    "Chinese Poker",
    "Thirteen cards each, set all at once in three rows — 3 in front, 5 in the middle, 5 in " +
      "the back, each row weaker than the one below it — then every row is compared with each " +
      "opponent's.",
  ],
  [
    "ofc",
    "Open-Face Chinese",
    "The same three rows, filled face up a few cards at a time as they are dealt: a card " +
      "placed stays, and a row stronger than the one below it fouls the hand.",
  ],
];

/** The section: a line and a "Play now" per game, and where to practise. */
export function lobbyIntro() {
  const alert = formAlert();
  const element = h(
    "section",
    { class: "lobby-intro", "aria-labelledby": "lobby-intro" },
    h("h2", { id: "lobby-intro" }, "Pick a game"),
    h(
      "ul",
      { class: "games" },
      ...GAMES.map(([game, name, line]) =>
        h(
          "li",
          { class: "game" },
          h("h3", {}, name),
          h("p", { id: `game-${game}` }, line),
          h(
            "button",
            {
              type: "button",
              class: "primary",
              "aria-describedby": `game-${game}`,
              "aria-label": `Play now: ${name}`,
              onclick: () => playNow(game),
            },
            "Play now",
          ),
        ),
      ),
    ),
    alert,
    h(
      "p",
      { class: "muted" },
      "New to them? ",
      h("a", { href: "#/practice" }, "Practise against bots"),
      " — a table of your own, with the strong bot's play to compare with yours.",
    ),
  );

  /** @param {string} game */
  async function playNow(game) {
    alert.say("");
    if (!currentAccount()) {
      rememberReturn("#/lobby");
      location.hash = "#/login";
      return;
    }
    try {
      const answer = await request("GET", `/api/tables/play-now?game=${game}`);
      location.hash = answer.seated ? `#/table/${answer.table.id}` : `#/table/${answer.table.id}/join`;
    } catch (error) {
      alert.say(errorText(error));
    }
  }

  return element;
}
