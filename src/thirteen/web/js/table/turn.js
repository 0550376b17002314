// Your turn at the table: the decision in progress. The arrangement follows the room's view (a
// new decision starts afresh, a finished one goes); it is drawn on your seat as the setter
// (./setterview.js), moved by click, tap, keys and drags (./setterinput.js), its rows named as
// they fill (./evaluation.js, computed in the browser on the frame of the move), and played or
// declared over the socket, stamped with the frame it was made on. A hand that would foul asks
// once more before it is played. After Play, focus lands on the next decision's first card. At
// a practice table a hint may be asked for and applied.

import { request } from "../api.js";
import { parseCards } from "../cards.js";
import { announce, errorText } from "../ui.js";
import { rememberFocus, restoreFocus } from "./controls.js";
import { rowEvaluation } from "./evaluation.js";
import { foulCost } from "./rank.js";
import { naturalName } from "./seats.js";
import { Arrangement, ROWS } from "./setter.js";
import { cardMoves } from "./setterinput.js";
import { setterElement } from "./setterview.js";

/** @typedef {import("./seats.js").Room} Room */
/** @typedef {import("../socket.js").TableSocket} TableSocket */

/**
 * The decision in progress: `sync()` after each frame, `element()` the setter to draw on your
 * seat (null when you have nothing to decide), `redraw()` after a change of its own,
 * `waiting()` for the clocks, `evaluateSoon()` (writes the names again), `stop()` when the page
 * goes.
 * @param {{tableId: number, page: HTMLElement, felt: HTMLElement, socket: TableSocket,
 *   room: Room, hints: () => boolean, say: (text: string) => void, draw: () => void}} table
 *   `hints`: whether a Hint button is offered; `draw`: draws the whole table again
 */
export function yourTurn(table) {
  const { tableId, page, felt, socket, room, say } = table;
  /** @type {Arrangement | null} */
  let arrangement = null;
  let busy = false;
  /** the decision (arrangement key) whose surrender awaits confirmation */
  let confirming = "";
  /** the decision (arrangement key) whose fouling Play awaits confirmation */
  let confirmingFoul = "";
  /** the natural chosen in the picker (kept across redraws and errors) */
  let natural = "";
  /** a decision was sent: focus the next decision's first card when it comes */
  let focusNext = false;
  /** @type {Record<string, any> | null} */
  let hint = null;
  /** @type {Set<string>} cards placed by the hint just applied */
  let hinted = new Set();
  /** @type {HTMLElement | null} */
  let setterNode = null;
  let setterSignature = "";

  const moves = cardMoves(felt, {
    arrangement: () => arrangement,
    busy: () => busy,
    changed,
    redraw,
    play,
    say,
  });
  const evaluation = rowEvaluation({
    arrangement: () => arrangement,
    node: () => setterNode,
    rules: () => room.settings?.rules,
  });

  /** The arrangement follows the room: a new decision starts afresh, a finished one goes. */
  function sync() {
    const view = room.view;
    const me = view?.hand?.me;
    if (!me || !me.must_act || view?.phase !== "playing") {
      arrangement = null;
      moves.clear();
      busy = false;
      hint = null;
      return;
    }
    const key = `${view?.hand.number}:${view?.hand.street}:${me.mode}:${me.cards}`;
    if (arrangement && arrangement.key === key) return;
    const cards = parseCards(me.cards);
    arrangement = new Arrangement({
      key,
      mode: me.mode,
      cards,
      fixed: {
        front: parseCards(me.front),
        middle: parseCards(me.middle),
        back: parseCards(me.back),
      },
      room: me.room,
      discard: me.mode === "set" ? Math.max(0, cards.length - 13) : me.discard_now,
    });
    moves.clear();
    busy = false;
    hint = null;
    hinted = new Set();
    confirmingFoul = "";
    natural = "";
    room.message = "";
    if (focusNext) {
      focusNext = false;
      focusFirstCard();
    }
    const what =
      me.mode === "set"
        ? cards.length > 13
          ? `set ${cards.length} cards (fantasyland)`
          : "set your hand"
        : me.discard_now
          ? `place ${cards.length - me.discard_now} cards and discard ${me.discard_now}`
          : `place ${cards.length === 1 ? "your card" : `${cards.length} cards`}`;
    const left = me.deadline ? `, ${Math.round(me.deadline - socket.now())} seconds` : "";
    announce(`Your turn: ${what}${left}.`);
  }

  /** The setter, kept as it is across frames that change nothing it shows (a drag or a focus
   * in progress is not disturbed by other players' moves). */
  function currentSetter() {
    const me = room.view?.hand?.me;
    const signature = [
      arrangement?.key,
      busy,
      room.message,
      confirmingFoul,
      me?.can_surrender,
      Math.floor(room.timeBank ?? 0),
      JSON.stringify(me?.naturals ?? []),
    ].join("|");
    if (!setterNode || signature !== setterSignature) {
      setterNode = drawSetter();
      setterSignature = signature;
    }
    return setterNode;
  }

  function drawSetter() {
    const a = /** @type {Arrangement} */ (arrangement);
    const root = setterElement(
      {
        arrangement: a,
        me: room.view?.hand?.me ?? null,
        settings: room.settings,
        busy,
        message: room.message,
        confirming: confirming === a.key,
        foul: confirmingFoul === a.key ? foulQuestion() : null,
        natural,
        hint,
        hints: table.hints(),
        timeBank: room.timeBank,
        selected: moves.selected,
        hinted,
      },
      {
        changed,
        play,
        decide,
        askHint,
        applyHint(action) {
          if (a.apply(action)) {
            markHinted(action);
            changed();
          } else say("The hint no longer fits these cards.");
        },
        askSurrender() {
          confirming = a.key;
          redraw();
          /** @type {HTMLElement | null} */ (
            felt.querySelector('[data-focus="Keep playing"]')
          )?.focus();
        },
        keepPlaying() {
          confirming = "";
          redraw();
        },
        keepSetting() {
          confirmingFoul = "";
          redraw();
          /** @type {HTMLElement | null} */ (felt.querySelector('[data-focus="play"]'))?.focus();
        },
        playFoul() {
          if (arrangement?.complete()) decide(arrangement.action());
        },
        chooseNatural(name) {
          natural = name;
        },
        useTimeBank() {
          socket.act({ type: "time_bank" }, room.view?.state_id);
        },
      },
    );
    evaluation.show(root);
    moves.listen(root);
    return root;
  }

  /** The arrangement changed: draw it now (its names and warnings with it, on this frame). */
  function changed() {
    room.message = "";
    confirmingFoul = "";
    if (hinted.size && arrangement && !arrangement.placed()) hinted = new Set();
    redraw();
  }

  function redraw() {
    const focus = rememberFocus(page);
    const old = felt.querySelector(".setter");
    setterNode = null;
    if (old && arrangement) old.replaceWith(currentSetter());
    else table.draw();
    restoreFocus(page, focus);
  }

  /** Play the arrangement; one that would foul asks first (as a surrender does). */
  function play() {
    if (!arrangement || !arrangement.complete() || busy) return;
    if (evaluation.current()?.foul && confirmingFoul !== arrangement.key) {
      confirmingFoul = arrangement.key;
      redraw();
      /** @type {HTMLElement | null} */ (
        felt.querySelector('[data-focus="Keep setting"]')
      )?.focus();
      return;
    }
    decide(arrangement.action());
  }

  /** What the foul question says: why the hand fouls and what a foul costs at this table. */
  function foulQuestion() {
    const rules = room.settings?.rules ?? {};
    const why = evaluation.current()?.warning ?? "This hand would foul.";
    const theirs = rules.royalty_mode === "off" ? "" : ", plus their royalties";
    const cost = foulCost(rules);
    const unit = Number(room.settings?.unit ?? 1);
    const chips = unit === 1 ? "" : ` (${(cost * unit).toLocaleString("en")} chips)`;
    return (
      `${why} A fouled hand pays each opponent who does not foul ` +
      `${cost} point${cost === 1 ? "" : "s"}${chips}${theirs}.`
    );
  }

  /** The first card of a decision just drawn gets the focus, unless the player is elsewhere
   * (typing in a field, a dialog): after Play, the next decision is where they go next. */
  function focusFirstCard() {
    window.requestAnimationFrame(() => {
      const active = document.activeElement;
      const lost = !active || active === document.body || !active.isConnected;
      if (!lost && !felt.contains(active)) return;
      const first = /** @type {HTMLElement | null} */ (
        felt.querySelector(".setter .hand-set .card[data-movable]") ??
          felt.querySelector(".setter .setter-buttons :is(button, select):not([disabled])")
      );
      first?.focus();
    });
  }

  /** Send a decision, stamped with the frame it was made on. @param {Record<string, any>} action */
  async function decide(action) {
    const view = room.view;
    if (!view || busy) return;
    busy = true;
    confirmingFoul = "";
    const key = arrangement?.key;
    focusNext = true; // the setter goes: the focus goes to the next decision when it comes
    redraw();
    const answer = await socket.act(action, view.state_id);
    if (answer.type === "error") {
      focusNext = false;
      if (arrangement && arrangement.key === key) {
        busy = false;
        say(
          answer.code === "stale"
            ? "The table moved on; check your cards and play again."
            : answer.message,
        );
        redraw();
      } else {
        say(answer.message);
      }
    } else if (action.type === "declare_natural") {
      announce(`Natural declared: ${naturalName(action.natural)}.`);
    }
  }

  async function askHint() {
    const asked = arrangement;
    hint = { thinking: true };
    redraw();
    try {
      const answer = await request("GET", `/api/tables/${tableId}/hint`);
      if (arrangement !== asked) return;
      hint = answer;
      redraw();
      announce(`Hint: ${answer?.text ?? ""}`);
    } catch (error) {
      if (arrangement !== asked) return;
      hint = null;
      redraw();
      say(errorText(error));
    }
  }

  /** The cards a hint moved, marked for a moment (an outline, and a word for screen readers).
   * @param {Record<string, any>} action */
  function markHinted(action) {
    hinted = new Set(ROWS.flatMap((r) => parseCards(action[r])));
  }

  return {
    get arrangement() {
      return arrangement;
    },
    sync,
    /** The setter to draw on your seat, or null when you have nothing to decide. */
    element() {
      return arrangement ? currentSetter() : null;
    },
    redraw,
    /** Your decision while it waits for you (its key and deadline); null once sent. */
    waiting() {
      const me = room.view?.hand?.me;
      return arrangement && me?.must_act && !busy
        ? { key: arrangement.key, deadline: me.deadline ?? null }
        : null;
    },
    evaluateSoon: evaluation.refresh,
    stop() {
      moves.stop();
    },
  };
}
