// Log in (#/login) and sign up (#/signup): the same form, the room's own sentence when it refuses
// (wrong password, name taken, too many attempts), then back to where the player was going.

import { currentAccount, logIn, signUp } from "../api.js";
import { announce, errorText, h } from "../ui.js";
import { field, formAlert, takeReturn } from "./common.js";

export const NAME_PATTERN = "[A-Za-z0-9][A-Za-z0-9_.\\-]{2,19}";
export const NAME_HINT = "3 to 20 letters, digits, _ . or -, starting with a letter or digit.";
export const PASSWORD_HINT = "8 to 128 characters; not a common password, and not your name.";

/**
 * Why a name cannot be one, or "".
 * @param {string} name
 */
export function nameProblem(name) {
  if (!name) return "Enter your name.";
  if (!new RegExp(`^${NAME_PATTERN}$`).test(name)) return `A name has ${NAME_HINT}`;
  return "";
}

/**
 * Why a password cannot be one, or "".
 * @param {string} password
 * @param {string} what "The password"
 */
export function passwordProblem(password, what = "The password") {
  if (password.length < 8) return `${what} needs at least 8 characters.`;
  if (password.length > 128) return `${what} may have at most 128 characters.`;
  return "";
}

/**
 * Mark a control invalid (or not) for assistive technology.
 * @param {HTMLInputElement} input
 * @param {boolean} bad
 */
export function markInvalid(input, bad) {
  if (bad) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

/**
 * @param {HTMLElement} main
 * @param {Record<string, string>} params
 */
export function render(main, params) {
  const signingUp = params.path === "/signup";
  const title = signingUp ? "Sign up" : "Log in";
  document.title = `${title} · Thirteen`;
  const heading = h("h1", { id: "login-heading" }, title);
  const box = h("div", { class: "page narrow" }, heading);
  main.append(box);

  const account = currentAccount();
  if (account) {
    box.append(
      h("p", {}, `You are logged in as ${account.name}. `, h("a", { href: "#/lobby" }, "Go to the lobby"), "."),
    );
  }

  const name = /** @type {HTMLInputElement} */ (
    h("input", {
      name: "name",
      autocomplete: "username",
      autocapitalize: "none",
      spellcheck: "false",
      required: true,
      minlength: 3,
      maxlength: 20,
    })
  );
  const password = /** @type {HTMLInputElement} */ (
    h("input", {
      name: "password",
      type: "password",
      autocomplete: signingUp ? "new-password" : "current-password",
      required: true,
      minlength: signingUp ? 8 : undefined,
      maxlength: 128,
    })
  );
  const repeat = /** @type {HTMLInputElement} */ (
    h("input", {
      name: "repeat",
      type: "password",
      autocomplete: "new-password",
      required: true,
      maxlength: 128,
    })
  );
  const show = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: "show-password" }));
  show.addEventListener("change", () => {
    for (const input of [password, repeat]) input.type = show.checked ? "text" : "password";
  });
  const alert = formAlert();
  const submit = h("button", { type: "submit", class: "primary" }, title);
  const form = h(
    "form",
    { class: "form-stack", "aria-labelledby": "login-heading", novalidate: true },
    field("Name", name, signingUp ? NAME_HINT : undefined),
    field("Password", password, signingUp ? PASSWORD_HINT : undefined),
    signingUp ? field("Repeat password", repeat) : null,
    h("div", { class: "form-field form-check" }, show, h("label", { for: "show-password" }, "Show password")),
    alert,
    h("div", { class: "form-actions" }, submit),
  );
  box.append(
    form,
    signingUp
      ? h("p", {}, "Already have an account? ", h("a", { href: "#/login" }, "Log in"), ".")
      : h("p", {}, "New here? ", h("a", { href: "#/signup" }, "Sign up"), " and get welcome chips."),
  );

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const who = name.value.trim();
    let problem = "";
    /** @type {HTMLInputElement | null} */
    let culprit = null;
    if (signingUp) {
      problem = nameProblem(who);
      culprit = problem ? name : null;
      if (!problem) {
        problem = passwordProblem(password.value);
        culprit = problem ? password : null;
      }
      if (!problem && password.value !== repeat.value) {
        problem = "The two passwords differ.";
        culprit = repeat;
      }
    } else if (!who || !password.value) {
      problem = "Enter your name and password.";
      culprit = who ? password : name;
    }
    for (const input of [name, password, repeat]) markInvalid(input, input === culprit);
    if (problem) {
      alert.say(problem);
      culprit?.focus();
      return;
    }
    alert.say("");
    submit.setAttribute("disabled", "");
    try {
      const done = signingUp ? await signUp(who, password.value) : await logIn(who, password.value);
      announce(signingUp ? `Welcome, ${done?.name}.` : `Logged in as ${done?.name}.`);
      location.hash = takeReturn();
    } catch (error) {
      alert.say(errorText(error));
      password.value = "";
      repeat.value = "";
      password.focus();
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  name.focus();
}
