// The arrangement's row names, foul warning and royalties, computed in the browser (./rank.js)
// under the table's rules on the very frame a card moves, and written into the setter in place.
// Nothing waits on the room: its verdict decides when the hand is played, and
// GET /api/tables/{id}/evaluate stays for other clients.

import { ROWS } from "./setter.js";
import { assess } from "./rank.js";

/** @typedef {import("./setter.js").Arrangement} Arrangement */
/** @typedef {import("./rank.js").Assessment} Assessment */

/**
 * What an arrangement makes under some rules (null when no row holds a card).
 * @param {Arrangement} a @param {Record<string, any> | null | undefined} rules
 * @returns {Assessment | null}
 */
export function evaluateArrangement(a, rules) {
  const rows = {
    front: a.rowCards("front"),
    middle: a.rowCards("middle"),
    back: a.rowCards("back"),
  };
  if (!rules || ROWS.every((r) => !rows[r].length)) return null;
  return assess(rules, rows);
}

/**
 * The evaluation of the decision in progress: `show(root)` on a setter just drawn (and after
 * every move, which draws it), `current()` the assessment of the arrangement as it is now.
 * @param {{arrangement: () => Arrangement | null, node: () => HTMLElement | null,
 *   rules: () => Record<string, any> | null | undefined}} turn
 *   the arrangement in progress, the setter that shows it (if drawn) and the table's rules
 */
export function rowEvaluation(turn) {
  /** The assessment of the arrangement as it is now. */
  function current() {
    const a = turn.arrangement();
    return a ? evaluateArrangement(a, turn.rules()) : null;
  }

  /** Each row's name, the foul warning, the royalties: written in place (no redraw).
   * @param {ParentNode} root */
  function show(root) {
    const evaluation = current();
    for (const el of root.querySelectorAll(".hand-name[data-row]")) {
      const row = /** @type {HTMLElement} */ (el).dataset.row;
      const ev = evaluation?.rows.find((r) => r.row === row);
      el.textContent = ev?.name ? `${ev.name}${ev.royalty ? ` · royalty ${ev.royalty}` : ""}` : "";
    }
    const p = root.querySelector(".evaluation");
    if (!p) return;
    const warning = evaluation?.foul ? `Warning: ${evaluation.warning}` : "";
    const royalties =
      evaluation && !evaluation.foul && evaluation.royalties
        ? `Royalties: ${evaluation.royalties}.`
        : "";
    p.textContent = [warning, royalties].filter(Boolean).join(" ");
    p.classList.toggle("foul", Boolean(evaluation?.foul));
  }

  return {
    show,
    current,
    /** Write the names again on the setter drawn (the rules may just have arrived). */
    refresh() {
      const node = turn.node();
      if (node) show(node);
    },
  };
}
