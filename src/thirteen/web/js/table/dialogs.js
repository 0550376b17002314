// The table's dialogs: one number to choose (a buy-in, a top-up), checked against its range,
// sent by the caller; or a yes/no question (leaving during a hand). The room's refusal is shown
// in the dialog, which stays open.

import { h } from "../ui.js";

/** @typedef {import("../socket.js").Frame} Frame */

/**
 * A small dialog with one number: buy-in or top-up.
 * @param {HTMLElement} container where the dialog lives while open
 * @param {{title: string, text: string, label: string, min: number, max: number,
 *          value: number, submit: string, act: (n: number) => Promise<Frame>}} spec
 */
export function numberDialog(container, spec) {
  const input = /** @type {HTMLInputElement} */ (
    h("input", {
      type: "number",
      name: "amount",
      min: spec.min,
      max: spec.max,
      step: 1,
      value: spec.value,
      required: true,
    })
  );
  const error = h("p", { class: "error", role: "alert" });
  const dialog = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      { class: "table-dialog", "aria-labelledby": "dialog-title" },
      h(
        "form",
        { method: "dialog" },
        h("h2", { id: "dialog-title" }, spec.title),
        h("p", {}, spec.text),
        h("label", {}, spec.label, " ", input),
        error,
        h(
          "div",
          { class: "dialog-buttons" },
          h("button", { type: "submit", class: "primary" }, spec.submit),
          h("button", { type: "button", onclick: () => dialog.close() }, "Cancel"),
        ),
      ),
    )
  );
  dialog.querySelector("form")?.addEventListener("submit", async (event) => {
    event.preventDefault();
    const amount = Number(input.value);
    if (!Number.isInteger(amount) || amount < spec.min || amount > spec.max) {
      error.textContent = `Choose a whole number between ${spec.min} and ${spec.max}.`;
      return;
    }
    error.textContent = "";
    const answer = await spec.act(amount);
    if (answer.type === "error") error.textContent = answer.message;
    else dialog.close();
  });
  dialog.addEventListener("close", () => dialog.remove());
  container.append(dialog);
  dialog.showModal();
  input.focus();
  input.select();
}

/**
 * A dialog that says what an action will do and asks to go ahead (the action's name) or not.
 * @param {HTMLElement} container where the dialog lives while open
 * @param {{title: string, text: string, confirm: string, cancel: string,
 *          act: () => Promise<Frame>}} spec
 */
export function confirmDialog(container, spec) {
  const error = h("p", { class: "error", role: "alert" });
  const go = h("button", { type: "submit", class: "primary" }, spec.confirm);
  const dialog = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      { class: "table-dialog", "aria-labelledby": "dialog-title", "aria-describedby": "dialog-text" },
      h(
        "form",
        { method: "dialog" },
        h("h2", { id: "dialog-title" }, spec.title),
        h("p", { id: "dialog-text" }, spec.text),
        error,
        h(
          "div",
          { class: "dialog-buttons" },
          go,
          h("button", { type: "button", onclick: () => dialog.close() }, spec.cancel),
        ),
      ),
    )
  );
  dialog.querySelector("form")?.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const answer = await spec.act();
    if (answer.type === "error") error.textContent = answer.message;
    else dialog.close();
  });
  dialog.addEventListener("close", () => dialog.remove());
  container.append(dialog);
  dialog.showModal();
  go.focus();
}
