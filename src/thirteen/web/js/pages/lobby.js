// The lobby (#/lobby): every open table, live from /ws/lobby (reconnecting after a loss), with
// filters (game, free seats, stakes, practice) that apply as they change; Join and Watch per
// table; for admins, Create table (a dialog) and Close (with a confirmation). Above, a line on
// each game and "Play now" (./lobbyintro.js); below, the sit & gos (./sitandgo.js), looked at
// again whenever the feed moves.
//
// The page composes its parts: the feed (./lobbyfeed.js), the filters (./lobbyfilters.js), the
// list of tables (./lobbytables.js) and the admin's dialogs (./lobbyadmin.js).

import { currentAccount, onAccount } from "../api.js";
import { announce, h } from "../ui.js";
import { confirmClose, createTableDialog } from "./lobbyadmin.js";
import { LobbyFeed } from "./lobbyfeed.js";
import { filterBox, loadFilters } from "./lobbyfilters.js";
import { lobbyIntro } from "./lobbyintro.js";
import { tablesList } from "./lobbytables.js";
import { sitAndGoSection } from "./sitandgo.js";

/** @typedef {import("./lobbytables.js").LobbyTable} LobbyTable */
/** @typedef {import("./lobbyfilters.js").Filters} Filters */

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
  const filterPanel = filterBox(filters, () => draw());
  const tableList = tablesList(filters, { changed: () => draw(), close: (t) => confirmClose(main, t) });
  const sng = sitAndGoSection();
  main.append(
    h(
      "div",
      { class: "page wide" },
      head,
      lobbyIntro(),
      filterPanel.element,
      tableList.count,
      tableList.list,
      tableList.empty,
      sng.element,
    ),
  );

  function draw() {
    createButton.hidden = currentAccount()?.role !== "admin";
    filterPanel.drawSummary();
    tableList.draw(tables, received);
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

  return () => {
    feed.close();
    sng.close();
    stopListening();
  };
}
