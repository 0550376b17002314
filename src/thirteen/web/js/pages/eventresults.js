// An event's results as it plays: the standings, and each round's hands by group with the
// confirmations of their results (seed 004 §III.2: the players approve each hand's result and
// the round's team totals).

import { confirmedHere } from "../table/event.js";
import { h } from "../ui.js";
import { cell, timeElement, uid } from "./common.js";
import { count, dataTable, isAdmin, numCell, points, rowHeader, rulingKind } from "./eventcommon.js";

/** @typedef {import("./eventcommon.js").EventDetail} EventDetail */
/** @typedef {import("./eventcommon.js").Round} Round */
/** @typedef {import("./eventcommon.js").Team} Team */

/**
 * The standings: the note of the rulings that changed them after the finish (which, by whom,
 * when, why), the teams ranked (with each round's points, the rulings' and the total), then the
 * disqualified ones apart.
 * @param {EventDetail} d
 */
export function standingsTables(d) {
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
  if (d.changed_after_finish.length) tables.unshift(changedAfterFinish(d));
  if (out.length) {
    tables.push(
      h("h3", {}, "Disqualified"),
      dataTable("Disqualified teams (not ranked)", columns, out.map(row), "event-standings", [...roundCols, "Rulings", "Total"]),
    );
  }
  return tables;
}

/**
 * The standings' note when the director ruled after the finish: each such ruling, who, when, why.
 * @param {EventDetail} d
 */
function changedAfterFinish(d) {
  return h(
    "div",
    { class: "event-changed", role: "note", "aria-label": "Changed after the finish" },
    h("p", {}, h("strong", {}, "Changed after the finish."), " These standings are not those the event finished with:"),
    h(
      "ul",
      {},
      ...d.changed_after_finish.map((c) =>
        h("li", {}, `${rulingKind(c.kind)} (${c.player}), ruled by ${c.by} on `, timeElement(c.at), `: ${c.reason}`),
      ),
    ),
  );
}

/**
 * A round's hands, group by group: each team's points once the group's three tables played a
 * hand, the confirmations (yours to give while it runs), links to each deal side by side once
 * the round is over (at once for the director), the seating (with Watch for the director).
 * @param {EventDetail} d @param {Round} r @param {number} eventId
 * @param {(round: number, hand: number) => void} confirm confirms a hand (0: the team totals)
 */
export function roundSection(d, r, eventId, confirm) {
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
