// The lobby (placeholder until the full lobby lands): the open tables.

import { request } from "../api.js";
import { h } from "../ui.js";

/** @param {HTMLElement} main */
export async function render(main) {
  main.append(h("h1", {}, "Lobby"));
  const { tables } = await request("GET", "/api/tables");
  const list = h("ul", {});
  for (const table of tables) {
    list.append(h("li", {}, h("a", { href: `#/table/${table.id}` }, table.name)));
  }
  main.append(list);
}
