// What a practice hint shows beyond its sentence: at an OFC street, each play the bot weighed
// with its expected points and its chances to foul and to reach fantasyland, and the warning,
// set apart, when the hinted play is a gamble (GET /api/tables/{id}/hint).

import { h } from "../ui.js";

/** @typedef {{front: string, middle: string, back: string, discard: string,
 *   ev: number | null, foul_rate: number, fantasyland_rate: number, deals: number}} HintOption */

/** "12%" for 0.12. @param {number} rate */
export function percent(rate) {
  return `${Math.round(rate * 100)}%`;
}

/** "+1.5", "-0.3", "–" for none. @param {number | null | undefined} ev */
export function points(ev) {
  if (typeof ev !== "number") return "–";
  return `${ev > 0 ? "+" : ""}${ev.toFixed(1)}`;
}

/** "front Qd, back 7c, discard 2s" (empty rows left out), as `thirteen solve ofc` writes it.
 * @param {HintOption} option */
export function playText(option) {
  const parts = /** @type {const} */ (["front", "middle", "back", "discard"])
    .filter((row) => option[row])
    .map((row) => `${row} ${option[row]}`);
  return parts.join(", ") || "nothing";
}

/**
 * The hint's sentence without its gamble warning (shown apart), and the warning.
 * @param {{text?: string, gamble?: string | null}} hint
 * @returns {{sentence: string, gamble: string | null}}
 */
export function splitGamble(hint) {
  const text = hint.text ?? "";
  const gamble = hint.gamble ?? null;
  if (!gamble) return { sentence: text, gamble: null };
  const at = text.lastIndexOf(gamble);
  return { sentence: at > 0 ? text.slice(0, at).trimEnd() : text, gamble };
}

/**
 * The table of plays the bot weighed, the hint's first; null when it weighed none.
 * @param {{options?: HintOption[]}} hint
 * @returns {HTMLElement | null}
 */
export function optionsTable(hint) {
  const options = hint.options ?? [];
  if (!options.length) return null;
  return h(
    "table",
    { class: "hint-options" },
    h("caption", {}, "Plays the bot weighed"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Play"),
        h("th", { scope: "col" }, "Expected points"),
        h("th", { scope: "col" }, "Fouls"),
        h("th", { scope: "col" }, "Fantasyland"),
      ),
    ),
    h(
      "tbody",
      {},
      ...options.map((option, i) =>
        h(
          "tr",
          { class: i === 0 ? "hinted-play" : null },
          h("th", { scope: "row" }, playText(option) + (i === 0 ? " (the hint)" : "")),
          h("td", {}, points(option.ev)),
          h("td", { class: option.foul_rate >= 0.25 ? "risky" : null }, percent(option.foul_rate)),
          h("td", {}, percent(option.fantasyland_rate)),
        ),
      ),
    ),
  );
}

/**
 * The hint's body: its sentence (which names the hinted play's foul and fantasyland chances),
 * the gamble warning apart, and the plays weighed with their chances.
 * @param {Record<string, any>} hint
 * @returns {HTMLElement[]}
 */
export function hintBody(hint) {
  if (hint.thinking) return [h("p", {}, "Hint: thinking…")];
  const { sentence, gamble } = splitGamble(hint);
  const warning = gamble
    ? h("p", { class: "hint-gamble", role: "note", "aria-label": "Gamble" }, gamble)
    : null;
  const table = optionsTable(hint);
  return [h("p", {}, `Hint: ${sentence}`), warning, table].filter(
    /** @returns {el is HTMLElement} @param {HTMLElement | null} el */ (el) => el !== null,
  );
}
