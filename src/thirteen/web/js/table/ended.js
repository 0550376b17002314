// A table that has closed (a duplicate practice run played out, a sit & go over, a table the
// room closed): it says so and offers the way on — the run's results and a new run at a practice
// table, the lobby everywhere — instead of seats with "Sit here" that lead nowhere.

import { h } from "../ui.js";

/**
 * The section, hidden until `show()`.
 * @param {number} tableId
 */
export function endedSection(tableId) {
  const heading = h("h2", { id: "table-ended" }, "This table has closed");
  const text = h("p");
  const links = h("ul", { class: "way-on" });
  const element = h(
    "section",
    { class: "table-ended", "aria-labelledby": "table-ended", hidden: true },
    heading,
    text,
    links,
  );

  /**
   * Show it (again): `run` when the table was your duplicate practice run, `settings` as the
   * room last described the table (null when it never did).
   * @param {Record<string, any> | null} settings @param {boolean} run
   */
  function show(settings, run) {
    /** @type {[string, string][]} */
    const ways = [];
    if (run || settings?.practice) {
      heading.textContent = "This practice run is over";
      text.textContent =
        "The table has closed and what was left of your buy-in is back in your wallet.";
      if (run) ways.push([`#/practice/${tableId}`, "See the run's results"]);
      ways.push(["#/practice", "Start a new run"]);
    } else if (settings?.tournament) {
      heading.textContent = "This sit & go is over";
      text.textContent =
        "The table has closed and the prizes are in the winners' wallets; the lobby lists the standings.";
    } else {
      heading.textContent = "This table has closed";
      text.textContent = "Every seat's chips went back to its wallet.";
    }
    ways.push(["#/lobby", "Back to the lobby"]);
    links.replaceChildren(...ways.map(([href, label]) => h("li", {}, h("a", { href }, label))));
    element.hidden = false;
  }

  return { element, show };
}
