// The setter as it is drawn on your seat while you decide: the three outlines (and the discard)
// with their places, your cards, the buttons (sort, reset, a natural to declare, surrender, a
// hint, the time bank, play), a hint with its plays, and the message; and the help under the
// table on how to set cards. It draws what it is given: the turn (./turn.js) holds the state and
// does what the buttons ask.

import { cardElement, cardName } from "../cards.js";
import { h } from "../ui.js";
import { button } from "./controls.js";
import { hintBody } from "./hint.js";
import { naturalName } from "./seats.js";
import { ROWS, ROW_NAMES } from "./setter.js";

/** @typedef {import("./setter.js").Arrangement} Arrangement */

/**
 * What a setter shows.
 * @typedef {{arrangement: Arrangement, me: Record<string, any> | null,
 *   settings: Record<string, any> | null, busy: boolean, message: string,
 *   confirming: boolean, foul: string | null, natural: string,
 *   hint: Record<string, any> | null, hints: boolean, timeBank: number | null,
 *   selected: string | null, hinted: Set<string>}} SetterState
 *   `confirming`: a surrender awaits its confirmation; `foul`: Play was pressed on a hand that
 *   fouls, and this says why and what it costs (it awaits confirmation); `natural`: the natural
 *   chosen in the picker; `hints`: a Hint button is offered; `selected`: the card chosen by a
 *   tap; `hinted`: the cards the hint just applied placed
 */
/**
 * What its buttons do.
 * @typedef {{changed: () => void, play: () => void,
 *   decide: (action: Record<string, any>) => void, askHint: () => void,
 *   applyHint: (action: Record<string, any>) => void, askSurrender: () => void,
 *   keepPlaying: () => void, keepSetting: () => void, playFoul: () => void,
 *   chooseNatural: (name: string) => void, useTimeBank: () => void}} SetterActions
 */

/** The help under the table: how to set your cards with a mouse, a finger or the keyboard. */
export function setterHelp() {
  return h(
    "details",
    { class: "help" },
    h("summary", {}, "How to set your cards (mouse, touch, keyboard)"),
    h(
      "ul",
      {},
      h("li", {}, "Click a card: it goes into the outlines, back first, then middle, then front."),
      h("li", {}, "Double-click a card in an outline: it goes back to the end of your cards."),
      h("li", {}, "Drag cards between the outlines, back to your cards, or within your cards."),
      h(
        "li",
        {},
        "Touch: tap a card and it goes into the outlines as a click does; it stays chosen, so a " +
          "tap on another row (or Discard) moves it there. Tap a placed card, then a row or your " +
          "cards, to move it.",
      ),
      h(
        "li",
        {},
        "Keyboard: Tab to a card (the arrow keys move between cards), then F front, M middle, " +
          "B back, S or Backspace back to your cards, D discard. Enter plays once the rows are " +
          "complete.",
      ),
      h(
        "li",
        {},
        "The rows' names and a foul warning show as you move cards. Play on a hand that would " +
          "foul asks once more, saying why and what a foul costs.",
      ),
    ),
  );
}

/**
 * The setter's element (its row names and warnings are written in later, in place).
 * @param {SetterState} state @param {SetterActions} act
 * @returns {HTMLElement}
 */
export function setterElement(state, act) {
  const { arrangement: a, me, settings, busy } = state;
  /**
   * A setter's button: disabled while a decision is on its way.
   * @param {string} label @param {() => void} onclick
   * @param {Record<string, any>} [extra]
   */
  const setterButton = (label, onclick, extra = {}) =>
    button(label, onclick, { disabled: busy, ...extra });
  /** @param {string} card @param {boolean} locked */
  const setterCard = (card, locked) => cardButton(card, locked, state);
  const rows = ROWS.map((row) => {
    const slots = a.rows[row].map((slot, i) =>
      h(
        "span",
        { class: `slot${slot.locked ? " locked" : ""}`, "data-slot": i },
        slot.card ? setterCard(slot.card, slot.locked) : null,
      ),
    );
    return h(
      "div",
      {
        class: `outline outline-${row}`,
        role: "region",
        "aria-label": ROW_NAMES[row],
        "data-zone": row,
      },
      h(
        "div",
        { class: "outline-head" },
        h("span", { class: "row-label", "aria-hidden": "true" }, ROW_NAMES[row]),
        h("span", { class: "hand-name", "data-row": row }),
        h(
          "button",
          {
            type: "button",
            class: "small-button",
            "data-focus": `reset-${row}`,
            disabled: busy || a.newCards(row).length === 0,
            onclick: () => {
              a.reset(row);
              act.changed();
            },
          },
          "Reset",
        ),
      ),
      h("div", { class: "slots" }, ...slots),
    );
  });
  let discard = null;
  if (a.discard.length) {
    discard = h(
      "div",
      {
        class: "outline outline-discard",
        role: "region",
        "aria-label": "Discard",
        "data-zone": "discard",
      },
      h(
        "div",
        { class: "outline-head" },
        h("span", { class: "row-label", "aria-hidden": "true" }, "Discard"),
        h(
          "span",
          { class: "hand-name" },
          a.mode === "set"
            ? "left over cards are discarded, face down"
            : "face down, seen by no one else",
        ),
      ),
      h(
        "div",
        { class: "slots" },
        ...a.discard.map((slot, i) =>
          h(
            "span",
            { class: "slot", "data-slot": i },
            slot.card ? setterCard(slot.card, false) : null,
          ),
        ),
      ),
    );
  }
  const set = h(
    "div",
    { class: "hand-set", role: "region", "aria-label": "Your cards", "data-zone": "set" },
    ...a.set.map((c) => setterCard(c, false)),
    a.set.length === 0 ? h("span", { class: "muted" }, "All cards placed.") : null,
  );
  const buttons = [];
  buttons.push(
    setterButton("Sort by suit", () => {
      a.sort("suit");
      act.changed();
    }),
    setterButton("Sort by rank", () => {
      a.sort("rank");
      act.changed();
    }),
    setterButton(
      a.mode === "street" && a.cards.length === 1 ? "Reset the card" : "Reset all",
      () => {
        a.resetAll();
        act.changed();
      },
      { disabled: busy || a.placed() === 0 },
    ),
  );
  const naturals = Object.keys(settings?.rules?.natural_payouts ?? {});
  if (a.mode === "set" && settings?.game === "chinese" && naturals.length && a.placed() === 0) {
    const held = new Set(me?.naturals ?? []);
    const choice = /** @type {HTMLSelectElement} */ (
      h(
        "select",
        {
          "aria-label": "Natural",
          "data-focus": "natural-choice",
          disabled: busy,
          onchange: () => act.chooseNatural(choice.value),
        },
        ...[...naturals]
          .sort((x, y) => Number(held.has(y)) - Number(held.has(x)))
          .map((n) =>
            h(
              "option",
              { value: n, selected: n === state.natural ? true : null },
              held.has(n) ? `${naturalName(n)} (you hold it)` : naturalName(n),
            ),
          ),
      )
    );
    buttons.push(
      h(
        "span",
        { class: "natural" },
        h("span", { "aria-hidden": "true" }, "Natural:"),
        choice,
        setterButton("Declare natural", () => {
          act.chooseNatural(choice.value);
          act.decide({ type: "declare_natural", natural: choice.value });
        }),
      ),
    );
  }
  if (me?.can_surrender) {
    if (state.confirming) {
      // a surrender cannot be taken back: it asks once more
      buttons.push(
        setterButton("Confirm surrender", () => act.decide({ type: "surrender" }), {
          class: "danger",
        }),
        setterButton("Keep playing", act.keepPlaying),
      );
    } else {
      buttons.push(setterButton("Surrender", act.askSurrender, { class: "danger" }));
    }
  }
  if (state.hints) buttons.push(setterButton("Hint", act.askHint));
  const timeBank = state.timeBank;
  if (timeBank && timeBank >= 1 && me?.deadline) {
    buttons.push(setterButton(`Time bank (${Math.floor(timeBank)} s)`, act.useTimeBank));
  }
  if (state.foul) {
    // a fouled hand cannot be taken back: it asks once more, in place of Play
    buttons.push(
      setterButton("Play the fouled hand", act.playFoul, { class: "danger" }),
      setterButton("Keep setting", act.keepSetting),
    );
  } else {
    buttons.push(
      setterButton("Play", act.play, {
        class: "primary",
        disabled: busy || !a.complete(),
        "data-focus": "play",
      }),
    );
  }
  const hint = state.hint;
  const hintAction = hint?.action;
  const hintBox = hint
    ? h(
        "div",
        { class: hint.gamble ? "hint gamble" : "hint", role: "note", "aria-label": "Hint" },
        ...hintBody(hint),
        hintAction && ["set_hand", "place"].includes(hintAction.type)
          ? setterButton("Apply hint", () => act.applyHint(hintAction))
          : hintAction
            ? setterButton(
                hintAction.type === "surrender"
                  ? "Surrender as hinted"
                  : `Declare ${naturalName(hintAction.natural)} as hinted`,
                () => act.decide(hintAction),
              )
            : null,
      )
    : null;
  return h(
    "div",
    { class: "setter", "data-key": a.key },
    h("div", { class: "outlines" }, ...rows, discard),
    h("p", { class: "evaluation", "aria-live": "polite" }),
    set,
    h("p", { class: "select-tip", "aria-live": "polite" }),
    h("div", { class: "setter-buttons" }, ...buttons),
    state.foul ? h("p", { class: "foul-question", role: "alert" }, state.foul) : null,
    hintBox,
    h("p", { class: "setter-message", role: "alert" }, state.message),
  );
}

/**
 * A card of the setter: a locked one (placed on an earlier street) as it is, a movable one as a
 * button, marked when the hint placed it or a tap chose it.
 * @param {string} card @param {boolean} locked @param {SetterState} state
 */
function cardButton(card, locked, state) {
  if (locked) {
    const el = cardElement(card);
    el.classList.add("locked");
    el.title = `${cardName(card)} (placed on an earlier street)`;
    return el;
  }
  const el = cardElement(card, { interactive: true });
  el.setAttribute("data-movable", "");
  if (state.hinted.has(card)) {
    el.classList.add("hinted");
    el.setAttribute("aria-description", "placed by the hint");
  }
  if (state.selected === card) {
    el.classList.add("selected");
    el.setAttribute("aria-pressed", "true");
  }
  return el;
}
