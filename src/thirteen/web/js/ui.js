// Small pieces every page uses: elements, the live regions, error messages.

/**
 * Make an element: h("button", {type: "button", class: "x"}, "Label").
 * Attributes starting with "on" are listeners; `hidden`/`disabled` booleans.
 * @param {string} tag
 * @param {Record<string, any>} [attributes]
 * @param {...(Node | string | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attributes = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "class") {
      el.className = String(value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/** Say something politely to screen readers. @param {string} text */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region) return;
  region.textContent = "";
  // a new text node each time, so the same sentence twice is read twice
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}

/** Say something at once (errors, time running low). @param {string} text */
export function alertNow(text) {
  const region = document.getElementById("alert");
  if (region) region.textContent = text;
}

/**
 * The sentence of an error (a RoomError's message, or a generic one).
 * @param {unknown} error
 */
export function errorText(error) {
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong; please try again.";
}

/** Show or hide the connection banner. @param {string | null} text */
export function connectionBanner(text) {
  const banner = document.getElementById("connection");
  if (!banner) return;
  banner.hidden = !text;
  banner.textContent = text ?? "";
}
