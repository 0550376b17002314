// The lobby's filters (game, free seats, stakes, practice), applied as they change and kept for
// the tab's session (sessionStorage) together with the list's sort; on a phone they fold away,
// their summary saying how many are on.

import { h } from "../ui.js";
import { field } from "./common.js";

/**
 * @typedef {{game: string, free: string, unitMin: string, unitMax: string, kind: string,
 *   sort: string, descending: boolean}} Filters
 */

const FILTERS_KEY = "thirteen.lobby-filters";
const NO_FILTERS = {
  game: "",
  free: "0",
  unitMin: "",
  unitMax: "",
  kind: "",
  sort: "",
  descending: false,
};

/** The filters this tab chose before (none at first). @returns {Filters} */
export function loadFilters() {
  try {
    return { ...NO_FILTERS, ...JSON.parse(sessionStorage.getItem(FILTERS_KEY) || "{}") };
  } catch {
    return { ...NO_FILTERS };
  }
}

/** Keep the filters (and the sort) for the tab's session. @param {Filters} filters */
export function saveFilters(filters) {
  sessionStorage.setItem(FILTERS_KEY, JSON.stringify(filters));
}

/**
 * The filters' form, folded in a box: `element`, and `drawSummary()` to count the filters on.
 * @param {Filters} filters changed in place as the form changes (and kept)
 * @param {() => void} changed draws the list again
 */
export function filterBox(filters, changed) {
  const game = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name: "game" },
      h("option", { value: "" }, "All games"),
      h("option", { value: "chinese" }, "Chinese Poker"),
      h("option", { value: "ofc" }, "Open-Face Chinese"),
    )
  );
  const free = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name: "free" },
      h("option", { value: "0" }, "Any"),
      h("option", { value: "1" }, "At least 1"),
      h("option", { value: "2" }, "At least 2"),
      h("option", { value: "3" }, "At least 3"),
    )
  );
  const unitMin = /** @type {HTMLInputElement} */ (
    h("input", { name: "unit-min", type: "number", min: 1, step: 1, inputmode: "numeric" })
  );
  const unitMax = /** @type {HTMLInputElement} */ (
    h("input", { name: "unit-max", type: "number", min: 1, step: 1, inputmode: "numeric" })
  );
  const kind = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name: "kind" },
      h("option", { value: "" }, "All tables"),
      h("option", { value: "real" }, "Real chips only"),
      h("option", { value: "practice" }, "Practice only"),
    )
  );
  game.value = filters.game;
  free.value = filters.free;
  unitMin.value = filters.unitMin;
  unitMax.value = filters.unitMax;
  kind.value = filters.kind;
  const clear = h(
    "button",
    {
      type: "button",
      onclick: () => {
        game.value = "";
        free.value = "0";
        unitMin.value = "";
        unitMax.value = "";
        kind.value = "";
        readFilters();
      },
    },
    "Clear filters",
  );
  const filterForm = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filter tables" },
    field("Game", game),
    field("Seats free", free),
    h(
      "fieldset",
      { class: "stakes" },
      h("legend", {}, "Stakes (chips per point)"),
      field("From", unitMin),
      field("To", unitMax),
    ),
    field("Kind", kind),
    h("div", { class: "form-field" }, clear),
  );
  filterForm.addEventListener("submit", (e) => e.preventDefault());
  filterForm.addEventListener("input", () => readFilters());
  filterForm.addEventListener("change", () => readFilters());

  function readFilters() {
    filters.game = game.value;
    filters.free = free.value;
    filters.unitMin = unitMin.validity.valid ? unitMin.value : "";
    filters.unitMax = unitMax.validity.valid ? unitMax.value : "";
    filters.kind = kind.value;
    saveFilters(filters);
    changed();
  }

  // on a phone the filters fold away (the summary says how many are on)
  const filterSummary = h("summary", {}, "Filters");
  const element = /** @type {HTMLDetailsElement} */ (
    h("details", { class: "filter-box" }, filterSummary, filterForm)
  );
  element.open = !window.matchMedia("(max-width: 760px)").matches;

  return {
    element,
    drawSummary() {
      const on = [
        filters.game,
        filters.free !== "0",
        filters.unitMin,
        filters.unitMax,
        filters.kind,
      ].filter(Boolean).length;
      filterSummary.textContent = on ? `Filters (${on} on)` : "Filters";
    },
  };
}
