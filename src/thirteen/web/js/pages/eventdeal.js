// One deal of a duplicate team event side by side (#/event/ID/deal/ROUND/GROUP/HAND): the same
// cards at the group's three tables, seat by seat, how each team played them (its rows, its
// points, a foul), with links to the round's previous and next hands.

import { request } from "../api.js";
import { cardElement, parseCards } from "../cards.js";
import { errorText, h } from "../ui.js";
import { formAlert, signed, uid } from "./common.js";

const ROWS = /** @type {const} */ (["front", "middle", "back"]);
const ROW_NAMES = { front: "Front", middle: "Middle", back: "Back" };

/**
 * The side by side page (its cleanup keeps an answer that comes too late from being drawn).
 * @param {HTMLElement} main
 * @param {number} eventId @param {number} round @param {number} group @param {number} hand
 */
export function dealPage(main, eventId, round, group, hand) {
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
