// The arrangement's row names, foul warning and royalties: asked of the room
// (GET /api/tables/ID/evaluate) a quarter second after the cards last moved, and written into
// the setter in place, without redrawing it (a drag or a focus in progress is not disturbed).

import { request } from "../api.js";
import { ROWS } from "./setter.js";

/** @typedef {import("./setter.js").Arrangement} Arrangement */

/**
 * The evaluation of the decision in progress: `schedule()` after a move, `show(root)` on a
 * setter just drawn, `forget()` when a new decision starts, `stop()` when the page goes.
 * @param {number} tableId
 * @param {{arrangement: () => Arrangement | null, node: () => HTMLElement | null}} turn
 *   the arrangement in progress and the setter that shows it (if drawn)
 */
export function rowEvaluation(tableId, turn) {
  /** @type {Record<string, any> | null} */
  let evaluation = null;
  let evaluationKey = "";
  /** @type {number | undefined} */
  let evaluateTimer;

  /** Each row's name, the foul warning, the royalties: written in place (no redraw).
   * @param {ParentNode} root */
  function show(root) {
    for (const el of root.querySelectorAll(".hand-name[data-row]")) {
      const row = /** @type {HTMLElement} */ (el).dataset.row;
      const ev = evaluation?.rows?.find((/** @type {any} */ r) => r.row === row);
      el.textContent = ev?.name ? `${ev.name}${ev.royalty ? ` · royalty ${ev.royalty}` : ""}` : "";
    }
    const p = root.querySelector(".evaluation");
    if (!p) return;
    const warning = evaluation?.foul
      ? `Warning: ${evaluation.warning || "this hand would foul."}`
      : evaluation?.warning || "";
    const royalties =
      evaluation && !evaluation.foul && evaluation.royalties
        ? `Royalties: ${evaluation.royalties}.`
        : "";
    p.textContent = [warning, royalties].filter(Boolean).join(" ");
    p.classList.toggle("foul", Boolean(evaluation?.foul));
  }

  function schedule() {
    window.clearTimeout(evaluateTimer);
    evaluateTimer = window.setTimeout(evaluate, 250);
  }

  async function evaluate() {
    const a = turn.arrangement();
    if (!a) return;
    const rows = Object.fromEntries(ROWS.map((r) => [r, a.rowCards(r).join(" ")]));
    const key = `${a.key}|${rows.front}|${rows.middle}|${rows.back}`;
    if (key === evaluationKey) return;
    if (!navigator.onLine) return; // asked again when back online
    evaluationKey = key;
    if (!rows.front && !rows.middle && !rows.back) {
      evaluation = null;
      const node = turn.node();
      if (node) show(node);
      return;
    }
    try {
      const query = new URLSearchParams(rows).toString();
      const answer = await request("GET", `/api/tables/${tableId}/evaluate?${query}`);
      if (evaluationKey !== key || turn.arrangement() !== a) return;
      evaluation = answer;
      const node = turn.node();
      if (node) show(node);
    } catch {
      // the names are a help, never a condition for playing
    }
  }

  return {
    show,
    schedule,
    forget() {
      evaluation = null;
      evaluationKey = "";
    },
    stop() {
      window.clearTimeout(evaluateTimer);
    },
  };
}
