// What the pages share: labelled fields, numbers and times as people read them, the presets and
// the bots' levels a form offers, and where to go back to after logging in.

import { h } from "../ui.js";

/** The presets the room knows (thirteen.engine.rules.PRESETS). */
export const PRESETS = [
  "chinese-1-6",
  "chinese-2-4",
  "chinese-1-4",
  "chinese-1-3",
  "ofc",
  "ofc-pineapple",
  "ofc-pineapple-progressive",
  "open-face-cards",
];
/** The bots' levels, as the room names them (a form offers them in this order). */
export const BOT_LEVELS = ["random", "heuristic", "strong"];

let counter = 0;

/** A new element id, unique in this page. @param {string} prefix */
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

/**
 * A labelled input (or select) with an optional hint tied to it by aria-describedby.
 * @param {string} label
 * @param {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} control
 * @param {string} [hint]
 * @returns {HTMLElement} the field's wrapper
 */
export function field(label, control, hint) {
  if (!control.id) control.id = uid("field");
  const parts = [h("label", { for: control.id }, label), control];
  if (hint) {
    const hintId = uid("hint");
    const described = control.getAttribute("aria-describedby");
    control.setAttribute("aria-describedby", described ? `${described} ${hintId}` : hintId);
    parts.push(h("small", { id: hintId, class: "field-hint" }, hint));
  }
  return h("div", { class: "form-field" }, ...parts);
}

/** A checkbox with its label after it. @param {string} label @param {HTMLInputElement} box */
export function checkbox(label, box) {
  if (!box.id) box.id = uid("check");
  return h("div", { class: "form-field form-check" }, box, h("label", { for: box.id }, label));
}

/**
 * An alert region for a form's refusals (empty until something goes wrong).
 * @returns {HTMLElement & {say: (text: string) => void}}
 */
export function formAlert() {
  const el = /** @type {HTMLElement & {say: (text: string) => void}} */ (
    h("p", { class: "form-alert error", role: "alert" })
  );
  el.say = (text) => {
    el.textContent = text;
  };
  return el;
}

/**
 * The first of `inputs` the browser finds invalid, marked (aria-invalid), said in `alert` with
 * its label and focused; `true` when every one is valid. Marks from a try before are cleared.
 * @param {ParentNode} scope where the inputs' labels are
 * @param {HTMLInputElement[]} inputs
 * @param {{say: (text: string) => void}} alert
 */
export function checkInputs(scope, inputs, alert) {
  for (const input of inputs) input.removeAttribute("aria-invalid");
  const bad = inputs.find((input) => !input.validity.valid);
  if (!bad) return true;
  bad.setAttribute("aria-invalid", "true");
  const label = scope.querySelector(`label[for="${bad.id}"]`)?.textContent ?? "A field";
  alert.say(`${label}: ${bad.validationMessage}`);
  bad.focus();
  return false;
}

/**
 * A cell of a data table, with its column's name for the stacked (phone) layout.
 * @param {string} label
 * @param {...(Node | string | null | false)} content
 */
export function cell(label, ...content) {
  return h("td", { role: "cell", "data-label": label }, h("span", { class: "cell-value" }, ...content));
}

/** 12,345 @param {number} n */
export function chips(n) {
  return n.toLocaleString("en");
}

/** +12 / −3 / 0 (a real minus sign). @param {number} n */
export function signed(n) {
  if (n > 0) return `+${chips(n)}`;
  if (n < 0) return `−${chips(-n)}`;
  return "0";
}

/** A date and time as this browser writes it, from seconds since the epoch. @param {number} t */
export function when(t) {
  return new Date(t * 1000).toLocaleString(undefined, {
    dateStyle: "medium",
    timeStyle: "short",
  });
}

/** A <time> element for seconds since the epoch. @param {number} t */
export function timeElement(t) {
  return h("time", { datetime: new Date(t * 1000).toISOString() }, when(t));
}

/** "Chinese Poker" / "Open-Face Chinese" @param {string} game */
export function gameName(game) {
  if (game === "chinese") return "Chinese Poker";
  if (game === "ofc") return "Open-Face Chinese";
  return game;
}

/** "90 s", "1.5 s", "2 min" @param {number} seconds */
export function duration(seconds) {
  if (seconds >= 120 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

const RETURN_KEY = "thirteen.return-to";

/** Where to come back to after logging in (a hash such as "#/account"). @param {string} hash */
export function rememberReturn(hash) {
  sessionStorage.setItem(RETURN_KEY, hash);
}

/** The page to go to after logging in (and forget it): "#/lobby" when none was remembered. */
export function takeReturn() {
  const hash = sessionStorage.getItem(RETURN_KEY) ?? previousPage();
  sessionStorage.removeItem(RETURN_KEY);
  if (!hash || !hash.startsWith("#/") || /^#\/(login|signup)\b/.test(hash)) return "#/lobby";
  return hash;
}

/**
 * The room's page this tab showed before this one (a "Log in" link followed from a table, say),
 * where the browser says (the Navigation API); null otherwise.
 * @returns {string | null}
 */
function previousPage() {
  const nav = /** @type {any} */ (window).navigation;
  if (!nav?.currentEntry || typeof nav.entries !== "function") return null;
  const before = nav.entries()[nav.currentEntry.index - 1];
  if (!before?.url) return null;
  const url = new URL(before.url);
  if (url.origin !== location.origin || url.pathname !== location.pathname) return null;
  return url.hash || null;
}

/**
 * "Log in to …": a paragraph with links to log in and sign up that come back here afterwards.
 * @param {string} text what logging in is for ("to see your account")
 */
export function loginPrompt(text) {
  const back = () => rememberReturn(location.hash || "#/lobby");
  return h(
    "p",
    { class: "login-prompt" },
    h("a", { href: "#/login", onclick: back }, "Log in"),
    " or ",
    h("a", { href: "#/signup", onclick: back }, "sign up"),
    ` ${text}.`,
  );
}
