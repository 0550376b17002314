// "Review my session" (#/reviews): your last N hands (N chosen, 20 at first) reviewed against
// the solvers — POST /api/reviews/session queues the reviews not stored, then the page asks
// GET /api/reviews/session every second while they are computed — with the summary (EV lost a
// hand and its interval, the worst decisions linking to their hand's review, the loss by kind)
// and a chart of the EV lost hand by hand, drawn here as an inline SVG (its numbers in a table
// too).

import { currentAccount, request } from "../api.js";
import { errorText, h } from "../ui.js";
import { cell, checkInputs, field, formAlert, loginPrompt, signed, uid } from "./common.js";
import { count, decisionName, every, points, progressBar, withError } from "./review.js";

/**
 * @typedef {{hand: number, loss: number, loss_se: number, points: number | null}} HandLoss
 * @typedef {{hand: number, index: number, decision: string, street: number | null,
 *   kind: string | null, loss: number, loss_se: number}} Worst
 * @typedef {{hands: number, decisions: number, mistakes: number, points: number, fouls: number,
 *   timeouts: number, loss: number, loss_per_hand: number, loss_per_hand_se: number,
 *   interval: [number, number], kinds: Record<string, {decisions: number, loss: number}>}} Summary
 * @typedef {{hands: number[], reviewed: number[], pending: number[], failed: number[],
 *   summary: Summary, worst: Worst[], series: HandLoss[]}} Session
 */

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, string | number>} attributes
 * @param {...Element} children
 */
function svg(tag, attributes, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** A text of the chart. @param {number} x @param {number} y @param {string} text @param {string} [anchor] */
function label(x, y, text, anchor = "middle") {
  const t = svg("text", { x, y, "text-anchor": anchor, class: "chart-label" });
  t.textContent = text;
  return t;
}

/**
 * The chart: a bar a hand (its EV lost, oldest left), its error as a whisker, the mean loss a
 * hand as a dashed line. Named for screen readers by a summary of what it shows.
 * @param {HandLoss[]} series
 * @param {Summary} summary
 */
export function lossChart(series, summary) {
  const top = Math.max(1, ...series.map((s) => s.loss + s.loss_se));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const y = (/** @type {number} */ v) => PAD.top + plotH * (1 - Math.min(v, top) / top);
  const step = plotW / Math.max(series.length, 1);
  const most = series.reduce((a, s) => (s.loss > a.loss ? s : a), series[0]);
  const name =
    `EV lost hand by hand over ${count(series.length, "reviewed hand")}: ` +
    `${points(summary.loss_per_hand)} points a hand on average, ` +
    `the most ${points(most?.loss ?? 0)} in hand ${most?.hand ?? "–"}.`;
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "aria-label": name,
    class: "loss-chart",
  });
  chart.append(
    svg("line", { x1: PAD.left, y1: y(0), x2: WIDTH - PAD.right, y2: y(0), class: "chart-axis" }),
    svg("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: y(0), class: "chart-axis" }),
    label(PAD.left - 6, y(top) + 4, points(top), "end"),
    label(PAD.left - 6, y(0) + 4, "0", "end"),
    label(PAD.left + plotW / 2, HEIGHT - 6, "hands, oldest first"),
  );
  series.forEach((s, i) => {
    const x = PAD.left + i * step;
    const w = Math.max(step * 0.7, 1);
    chart.append(
      svg("rect", { x: x + (step - w) / 2, y: y(s.loss), width: w, height: y(0) - y(s.loss), class: "chart-bar" }),
    );
    if (s.loss_se > 0) {
      const cx = x + step / 2;
      chart.append(
        svg("line", { x1: cx, y1: y(s.loss + s.loss_se), x2: cx, y2: y(Math.max(0, s.loss - s.loss_se)), class: "chart-error" }),
      );
    }
  });
  const mean = y(summary.loss_per_hand);
  chart.append(
    svg("line", { x1: PAD.left, y1: mean, x2: WIDTH - PAD.right, y2: mean, class: "chart-mean" }),
    label(WIDTH - PAD.right, mean - 4, `mean ${points(summary.loss_per_hand)}`, "end"),
  );
  return chart;
}

/**
 * A table with a caption and column headers.
 * @param {string} caption
 * @param {string[]} columns
 * @param {HTMLElement[]} rows
 */
function table(caption, columns, rows) {
  const id = uid("caption");
  return h(
    "table",
    { class: "data stacked", role: "table", "aria-labelledby": id },
    h("caption", { id }, caption),
    h("thead", { role: "rowgroup" }, h("tr", { role: "row" }, ...columns.map((c) => h("th", { scope: "col", role: "columnheader" }, c)))),
    h("tbody", { role: "rowgroup" }, ...rows),
  );
}

/** The summary, the worst decisions, the loss by kind, the chart and its table. @param {Session} s */
function sessionElement(s) {
  const m = s.summary;
  if (!m.hands) return h("p", {}, "No hand of these is reviewed yet.");
  const [low, high] = m.interval;
  const worst = s.worst.map((w) =>
    h(
      "li",
      {},
      h("a", { href: `#/review/${w.hand}` }, `Hand #${w.hand}, ${decisionName(/** @type {any} */ (w))}`),
      `: ${withError(w.loss, w.loss_se)} points${w.kind ? ` (${w.kind})` : ""}`,
    ),
  );
  const kinds = Object.entries(m.kinds).map(([kind, k]) =>
    h("tr", { role: "row" }, cell("Kind", kind), cell("Decisions", String(k.decisions)), cell("Points lost", points(k.loss))),
  );
  return h(
    "div",
    { class: "review-session" },
    h(
      "dl",
      { class: "review-figures" },
      h("dt", {}, "Hands reviewed"),
      h("dd", {}, String(m.hands)),
      h("dt", {}, "EV lost a hand"),
      h("dd", {}, `${points(m.loss_per_hand)} points (95 % interval ${points(low)} to ${points(high)})`),
      h("dt", {}, "Decisions"),
      h("dd", {}, `${m.decisions}, ${m.mistakes} of them lost points`),
      h("dt", {}, "Points won"),
      h("dd", {}, `${signed(m.points)} (${m.fouls} ${m.fouls === 1 ? "hand" : "hands"} fouled)`),
    ),
    h("h2", {}, "EV lost over the session"),
    lossChart(s.series, m),
    table(
      "EV lost by hand, oldest first",
      ["Hand", "EV lost", "Result"],
      s.series.map((p) =>
        h(
          "tr",
          { role: "row" },
          cell("Hand", h("a", { href: `#/review/${p.hand}` }, `#${p.hand}`)),
          cell("EV lost", withError(p.loss, p.loss_se)),
          cell("Result", p.points === null ? "–" : count(p.points, "point", signed)),
        ),
      ),
    ),
    h("h2", {}, "Worst decisions"),
    worst.length ? h("ol", { class: "review-worst" }, ...worst) : h("p", {}, "No decision lost points."),
    h("h2", {}, "Loss by kind of mistake"),
    kinds.length ? table("Points lost by kind of mistake", ["Kind", "Decisions", "Points lost"], kinds) : h("p", {}, "None."),
  );
}

/**
 * @param {HTMLElement} main
 */
export async function render(main) {
  document.title = "Review my session · Thirteen";
  const page = h("div", { class: "page replay" }, h("h1", {}, "Review my session"));
  main.append(page);
  if (!currentAccount()) {
    page.append(loginPrompt("to review your hands"));
    return;
  }
  const count = /** @type {HTMLInputElement} */ (
    h("input", { type: "number", min: 1, max: 100, step: 1, value: 20, required: true, name: "hands" })
  );
  const alert = formAlert();
  const go = h("button", { type: "submit", class: "primary" }, "Review my session");
  const form = h(
    "form",
    { class: "review-form", novalidate: true },
    field("Hands", count, "Your last hands to review, 1 to 100."),
    go,
    alert,
  );
  const progress = progressBar("Session review progress");
  const body = h("div", {});
  page.append(
    h("p", {}, "Your last hands, each decision against the solvers: how many points each gave up, the worst, and by kind."),
    form,
    body,
  );
  /** @type {(() => void) | null} */
  let stop = null;
  /** @param {Session} s @param {boolean} asked */
  const shown = (s, asked) => {
    const waiting = asked ? s.pending.length : 0;
    if (waiting) {
      const done = s.reviewed.length + s.failed.length;
      progress.show(done, s.hands.length, `Reviewed ${done} of ${s.hands.length} hands…`);
      if (!progress.box.isConnected) page.insertBefore(progress.box, body);
    } else progress.box.remove();
    body.replaceChildren(sessionElement(s));
    if (!asked && s.pending.length) {
      body.prepend(h("p", { class: "muted" }, `${s.pending.length} of your last ${s.hands.length} hands are not reviewed yet.`));
    }
    return !waiting;
  };
  const watch = (/** @type {number} */ n, /** @type {boolean} */ asked) => {
    stop?.();
    stop = every(async () => shown(await request("GET", `/api/reviews/session?hands=${n}`), asked));
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!checkInputs(form, [count], alert)) return;
    const n = Number(count.value);
    go.setAttribute("disabled", "");
    try {
      alert.say("");
      shown(await request("POST", "/api/reviews/session", { hands: n }), true);
      watch(n, true);
    } catch (error) {
      alert.say(errorText(error));
    } finally {
      go.removeAttribute("disabled");
    }
  });
  try {
    shown(await request("GET", "/api/reviews/session?hands=20"), false);
  } catch (error) {
    body.replaceChildren(h("p", { class: "error", role: "alert" }, errorText(error)));
  }
  return () => stop?.();
}
