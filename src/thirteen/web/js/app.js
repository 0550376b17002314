// The page: a hash router (#/lobby, #/leaderboards[/GAME/PERIOD], #/login, #/signup, #/account,
// #/hand/ID, #/review/ID (a hand's review), #/reviews (review my session), #/practice[/ID],
// #/events, #/event/ID[/deal/ROUND/GROUP/HAND], #/table/ID, and
// #/table/ID/join — open the buy-in dialog at once — or #/table/ID/watch — a spectator), the
// navigation bar, the live regions. Each page is a module with
// `render(main, params) -> (cleanup function | void)`, loaded when first shown.

import { currentAccount, loadAccount, logOut, onAccount, refreshAccount } from "./api.js";
import { announce } from "./ui.js";

/** @typedef {(main: HTMLElement, params: Record<string, string>) =>
 *   (void | (() => void) | Promise<void | (() => void)>)} Render */

/** @type {[RegExp, string, string[]][]} pattern, module, parameter names */
const ROUTES = [
  [/^\/login$/, "./pages/login.js", []],
  [/^\/signup$/, "./pages/login.js", []],
  [/^\/account$/, "./pages/account.js", []],
  [/^\/hand\/(\d+)$/, "./pages/replay.js", ["hand"]],
  [/^\/review\/(\d+)$/, "./pages/review.js", ["hand"]],
  [/^\/reviews$/, "./pages/reviewsession.js", []],
  [/^\/table\/(\d+)(?:\/(join|watch))?$/, "./table/table.js", ["table", "mode"]],
  [/^\/lobby$/, "./pages/lobby.js", []],
  [/^\/practice(?:\/(\d+))?$/, "./pages/practice.js", ["run"]],
  [/^\/events$/, "./pages/events.js", []],
  [/^\/event\/(\d+)(?:\/deal\/(\d+)\/(\d+)\/(\d+))?$/, "./pages/events.js", ["event", "round", "group", "hand"]],
  [/^\/leaderboards(?:\/([a-z0-9-]+)\/(day|week|all))?$/, "./pages/leaderboards.js", ["game", "period"]],
];

/** @type {(() => void) | null} */
let cleanup = null;
let generation = 0;

async function route() {
  const path = location.hash.replace(/^#/, "") || "/lobby";
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  const match = ROUTES.map(([pattern, module, names]) => {
    const found = pattern.exec(path);
    return found && { module, params: Object.fromEntries(names.map((n, i) => [n, found[i + 1]])) };
  }).find(Boolean);
  if (!match) {
    location.replace("#/lobby");
    return;
  }
  const mine = ++generation;
  // every page shows the wallet as it is now (leaving a page may have moved chips: a table, a
  // run); the first page has just asked
  if (mine > 1 && currentAccount()) refreshAccount();
  if (cleanup) cleanup();
  cleanup = null;
  main.replaceChildren();
  document.title = "Thirteen";
  const params = { ...match.params, path };
  const page = await import(match.module);
  if (mine !== generation) return;
  const done = await /** @type {Render} */ (page.render)(main, params);
  if (mine !== generation) {
    if (typeof done === "function") done();
    return;
  }
  cleanup = typeof done === "function" ? done : null;
}

function drawNav() {
  const nav = /** @type {HTMLElement} */ (document.getElementById("nav"));
  const account = currentAccount();
  const links = [["#/lobby", "Lobby"], ["#/leaderboards", "Leaderboards"], ["#/events", "Events"]];
  if (account) links.push(["#/practice", "Practice"], ["#/account", "Account"]);
  else links.push(["#/login", "Log in"], ["#/signup", "Sign up"]);
  const items = links.map(([href, label]) => {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = label;
    return a;
  });
  if (account) {
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = `${account.name} · ${account.balance.toLocaleString("en")} chips`;
    const out = document.createElement("button");
    out.type = "button";
    out.textContent = "Log out";
    out.addEventListener("click", async () => {
      await logOut();
      announce("Logged out.");
      location.hash = "#/lobby";
    });
    items.push(who, out);
  }
  const colours = document.createElement("button");
  colours.type = "button";
  colours.setAttribute("aria-pressed", String(document.body.classList.contains("four-colour")));
  colours.textContent = "Four-colour deck";
  colours.addEventListener("click", () => {
    const on = document.body.classList.toggle("four-colour");
    localStorage.setItem("thirteen.four-colour", on ? "1" : "");
    colours.setAttribute("aria-pressed", String(on));
  });
  items.push(colours);
  nav.replaceChildren(...items);
}

async function start() {
  if (localStorage.getItem("thirteen.four-colour")) document.body.classList.add("four-colour");
  onAccount(drawNav);
  drawNav();
  try {
    await loadAccount();
  } catch {
    // the room is away: pages say so when they ask
  }
  window.addEventListener("hashchange", route);
  // back to a tab left open: chips may have moved meanwhile (a payout, a table closing)
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && currentAccount()) refreshAccount();
  });
  await route();
}

start();
