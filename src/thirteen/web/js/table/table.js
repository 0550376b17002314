// The table page: #/table/ID (play or watch), #/table/ID/join (the buy-in dialog at once),
// #/table/ID/watch (a spectator, no ticket). Draws each frame's view as it comes (the room's
// state always wins) and the arrangement in progress on top of it.

import { currentAccount, loadAccount, request } from "../api.js";
import { cardElement, cardName, parseCards } from "../cards.js";
import { TableSocket } from "../socket.js";
import { alertNow, announce, connectionBanner, errorText, h } from "../ui.js";
import { numberDialog } from "./dialogs.js";
import { duplicatePanel } from "./duplicate.js";
import { enableDrag } from "./drag.js";
import { eventPanel } from "./event.js";
import { hintBody } from "./hint.js";
import {
  boardElement,
  clock,
  naturalName,
  position,
  resultElement,
  resultsTable,
  seatState,
  signed,
} from "./seats.js";
import { Arrangement, ROWS, ROW_NAMES } from "./setter.js";

/** @typedef {import("../socket.js").Frame} Frame */
/** @typedef {import("./setter.js").Zone} Zone */

/** @param {number} n */
const chips = (n) => n.toLocaleString("en");

const KEYS = { f: "front", m: "middle", b: "back", s: "set", backspace: "set", d: "discard" };
const LOW_TIME = 10;

/**
 * @param {HTMLElement} main
 * @param {{table: string, mode?: string}} params
 */
export function render(main, params) {
  const tableId = Number(params.table);
  const watching = params.mode === "watch";
  /** @type {Record<string, any> | null} */
  let settings = null;
  /** @type {Record<string, any> | null} */
  let view = null;
  /** @type {number | null} */
  let mySeat = null;
  /** @type {number | null} */
  let timeBank = null;
  /** @type {Arrangement | null} */
  let arrangement = null;
  /** @type {string | null} the card chosen to move (tap, then tap a row) */
  let selected = null;
  let busy = false;
  let message = "";
  let wantJoin = params.mode === "join";
  let lowAlerted = "";
  let announcedHand = "";
  let lastActing = "";
  /** the decision (arrangement key) whose surrender awaits confirmation */
  let confirming = "";
  /** @type {Set<number> | null} seats without an open socket (when the room says) */
  let away = null;
  /** @type {Record<string, any> | null} */
  let evaluation = null;
  let evaluationKey = "";
  /** @type {number | undefined} */
  let evaluateTimer;
  /** @type {Record<string, any> | null} */
  let hint = null;
  let lastPointer = "mouse";
  /** @type {Set<string>} cards placed by the hint just applied */
  let hinted = new Set();
  const baseTitle = `Table ${tableId} · Thirteen`;
  document.title = baseTitle;

  const heading = h("h1", {}, `Table ${tableId}`);
  const meta = h("p", { class: "table-meta" });
  const status = h("p", { class: "table-status", role: "status" });
  const eventBox = eventPanel(tableId); // a duplicate event's table: standings, confirmations
  const felt = h("div", { class: "felt" });
  const results = h("section", { class: "showdown", "aria-label": "Showdown", hidden: true });
  const controls = h("div", { class: "seat-controls" });
  // a duplicate practice run's hands, for its player (no Hint button there: redraw)
  const duplicate = duplicatePanel(tableId, () => redraw());
  const help = h(
    "details",
    { class: "help" },
    h("summary", {}, "How to set your cards (mouse, touch, keyboard)"),
    h(
      "ul",
      {},
      h("li", {}, "Click a card: it goes into the outlines, back first, then middle, then front."),
      h("li", {}, "Double-click a card in an outline: it goes back to the end of your cards."),
      h("li", {}, "Drag cards between the outlines, back to your cards, or within your cards."),
      h("li", {}, "Touch: tap a card to choose it, then tap a row (or your cards, or Discard)."),
      h(
        "li",
        {},
        "Keyboard: Tab to a card, then F front, M middle, B back, S or Backspace back to your " +
          "cards, D discard. Enter plays once the rows are complete.",
      ),
    ),
  );
  const page = h(
    "section",
    { class: "table-page", "aria-labelledby": "table-title" },
    h("header", { class: "table-head" }, heading, meta, eventBox.element, status),
    felt,
    results,
    controls,
    duplicate.element,
    help,
  );
  heading.id = "table-title";
  main.replaceChildren(page);

  const socket = new TableSocket(tableId, {
    watch: watching,
    onFrame,
    onState(state, detail) {
      if (state === "reconnecting") connectionBanner("Reconnecting…");
      else if (state === "closed") connectionBanner(detail ?? "This table is closed.");
      else connectionBanner(null);
    },
  });

  const stopDrag = enableDrag(felt, {
    card(el) {
      const card = /** @type {HTMLElement} */ (el).dataset.card;
      return card && el.hasAttribute("data-movable") && arrangement && !busy ? card : null;
    },
    onDrop(card, target, x) {
      if (!arrangement || !target) return;
      const zoneEl = /** @type {HTMLElement | null} */ (target.closest("[data-zone]"));
      if (!zoneEl) return;
      const zone = /** @type {Zone} */ (zoneEl.dataset.zone);
      let index;
      if (zone === "set") index = setIndexAt(zoneEl, x, card);
      else {
        const slot = /** @type {HTMLElement | null} */ (target.closest("[data-slot]"));
        index = slot ? Number(slot.dataset.slot) : undefined;
      }
      if (arrangement.move(card, zone, index)) changed();
    },
  });

  /**
   * Where in the set (without the card dragged) a card dropped at x goes.
   * @param {HTMLElement} zoneEl @param {number} x @param {string} card
   */
  function setIndexAt(zoneEl, x, card) {
    const cards = [...zoneEl.querySelectorAll(".card[data-card]")].filter(
      (el) => /** @type {HTMLElement} */ (el).dataset.card !== card,
    );
    let index = cards.length;
    for (let i = 0; i < cards.length; i++) {
      const box = cards[i].getBoundingClientRect();
      if (x <= box.left + box.width / 2) {
        index = i;
        break;
      }
    }
    return index;
  }

  const ticker = window.setInterval(tick, 250);
  const onVisible = () => tick();
  document.addEventListener("visibilitychange", onVisible);
  // a browser that knows it went offline: drop the socket now (it reconnects with `since` and
  // resends what was not answered) rather than wait for the room's pings to give up on it
  const onOffline = () => {
    if (socket.state === "open") socket.ws?.close(1000);
  };
  const onOnline = () => scheduleEvaluate();
  window.addEventListener("offline", onOffline);
  window.addEventListener("online", onOnline);

  /** @param {Frame} frame */
  function onFrame(frame) {
    if (frame.type === "snapshot") {
      settings = frame.settings;
      if (settings?.practice && !watching && currentAccount()) duplicate.start();
      drawMeta();
    }
    if (frame.type === "snapshot" || frame.type === "update") {
      if (frame.type === "update" && view && frame.state_id <= view.state_id) return;
      if (frame.type === "update" && view && frame.state_id > view.state_id + 1) socket.resync();
      view = frame.view;
      mySeat = frame.seat;
      timeBank = frame.time_bank ?? null;
      notePresence(frame);
      sync();
      noteEvents(frame.events ?? []);
      drawMeta();
      draw();
      if (wantJoin && settings) {
        wantJoin = false;
        if (mySeat === null) {
          const free = (view?.seats ?? []).findIndex((/** @type {any} */ s) => s === null);
          if (free >= 0) buyIn(free);
          else say("Every seat is taken; you are watching.");
        }
      }
    } else if (frame.type === "presence") {
      notePresence(frame);
      draw();
    } else if (frame.type === "error" && !frame.id) {
      say(frame.message);
    } else if (frame.type === "closing") {
      say(frame.message);
      connectionBanner(frame.message);
    }
  }

  /** @param {Frame} frame */
  function notePresence(frame) {
    const connected = frame.connected ?? frame.seats_connected;
    if (Array.isArray(connected) && view) {
      const on = new Set(connected);
      away = new Set(
        (view.seats ?? [])
          .filter((/** @type {any} */ s) => s && !s.player.startsWith("bot-") && !on.has(s.seat))
          .map((/** @type {any} */ s) => s.seat),
      );
    }
  }

  /** The arrangement follows the room: a new decision starts afresh, a finished one goes. */
  function sync() {
    const me = view?.hand?.me;
    if (!me || !me.must_act || view?.phase !== "playing") {
      arrangement = null;
      selected = null;
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
    selected = null;
    busy = false;
    hint = null;
    hinted = new Set();
    evaluation = null;
    evaluationKey = "";
    message = "";
    scheduleEvaluate();
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

  /** @param {Record<string, any>[]} events */
  function noteEvents(events) {
    for (const event of events) {
      if (event.event === "HandSettled") duplicate.refresh();
      if (event.event === "PlayerLeft" && event.seat === mySeat) loadAccount().catch(() => {});
      if (event.event === "PlayerSat" && event.player === currentAccount()?.name) {
        loadAccount().catch(() => {});
      }
    }
    const hand = view?.hand;
    // whose turn it is (your own turn is announced with what to do, in sync())
    const acting = (hand?.to_act ?? [])
      .map((/** @type {any} */ t) => t[0])
      .filter((/** @type {number} */ s) => s !== mySeat);
    const actingKey = `${hand?.number}:${hand?.street}:${acting.join(",")}`;
    if (view?.phase === "playing" && acting.length && actingKey !== lastActing) {
      if (!hand?.me?.must_act) {
        announce(`${acting.map(nameOf).join(" and ")} to act.`);
      }
    }
    lastActing = actingKey;
    if (view?.phase === "showdown" && hand?.results) {
      const key = `${hand.number}`;
      if (announcedHand !== key) {
        announcedHand = key;
        const parts = hand.results.map(
          (/** @type {any} */ r) => `${nameOf(r.seat)} ${signed(r.total)}`,
        );
        const mine = hand.results.find((/** @type {any} */ r) => r.seat === mySeat);
        const lead = mine
          ? mine.total > 0
            ? `You won ${mine.total} (${signed(mine.money)} chips). `
            : mine.total < 0
              ? `You lost ${-mine.total} (${signed(mine.money)} chips). `
              : "You broke even. "
          : "";
        announce(`Showdown. ${lead}${parts.join(", ")}.`);
      }
    }
  }

  /** @param {number} seat */
  function nameOf(seat) {
    const s = view?.seats?.[seat];
    return s ? s.player : `Seat ${seat + 1}`;
  }

  /** @param {string} text */
  function say(text) {
    message = text;
    const el = page.querySelector(".setter-message");
    if (el) el.textContent = text;
    else status.textContent = text;
    alertNow(text);
  }

  function drawMeta() {
    if (!settings) return;
    heading.textContent = settings.name || `Table ${tableId}`;
    document.title = `${settings.name || `Table ${tableId}`} · Thirteen`;
    // at a sit & go the unit rises between hands (the view's point_value) and the chips are
    // tournament chips, bought with the registration, not at the table
    const unit = view?.point_value ?? settings.unit;
    const bits = [
      settings.preset,
      `${settings.seats} seats`,
      `1 point = ${unit} chip${unit === 1 ? "" : "s"}`,
      settings.tournament
        ? `sit & go #${settings.tournament}, ${settings.min_buy_in} tournament chips each`
        : `buy-in ${settings.min_buy_in}–${settings.max_buy_in}`,
    ];
    if (settings.event) bits.splice(2, 2, `team event #${settings.event}, scored in points`);
    if (settings.practice) bits.push("practice table");
    if (watching) bits.push("watching");
    const text = bits.join(" · ");
    if (meta.textContent !== text) meta.textContent = text;
  }

  function draw() {
    if (!view) return;
    const focus = rememberFocus();
    page.dataset.stateId = String(view.state_id);
    const count = view.seats.length;
    const mine = mySeat ?? 0;
    felt.className = `felt seats-${count}`;
    felt.replaceChildren(
      ...view.seats.map((/** @type {any} */ seat, /** @type {number} */ i) =>
        seatElement(seat, i, position(i, mine, count)),
      ),
    );
    const hand = view.hand;
    const phase =
      view.phase === "waiting"
        ? "Waiting for players"
        : view.phase === "showdown"
          ? `Hand ${hand.number}: showdown`
          : `Hand ${hand.number}${hand.street ? `, street ${hand.street + 1}` : ""}`;
    status.textContent = message && !arrangement ? `${phase}. ${message}` : phase;
    if (view.phase === "showdown" && hand?.results) {
      results.hidden = false;
      results.replaceChildren(
        /** @type {HTMLElement} */ (resultsTable(view, nameOf)),
        h("p", { class: "next-deal" }, h("span", { "data-until": view.next_deal_at }, "")),
      );
    } else {
      results.hidden = true;
      results.replaceChildren();
    }
    drawControls();
    eventBox.update(settings, view, mySeat);
    restoreFocus(focus);
    tick();
  }

  /**
   * @param {Record<string, any> | null} seat @param {number} index @param {string} where
   */
  function seatElement(seat, index, where) {
    if (!seat) {
      const account = currentAccount();
      return h(
        "section",
        { class: `seat empty pos-${where}`, "aria-label": `Seat ${index + 1}: free` },
        h("p", { class: "seat-name" }, `Seat ${index + 1}`),
        mySeat === null && !watching && account
          ? h("button", { type: "button", onclick: () => buyIn(index) }, "Sit here")
          : mySeat === null && !account
            ? h("a", { href: "#/login" }, "Log in to sit")
            : h("p", { class: "muted" }, "Free"),
      );
    }
    const hand = view?.hand;
    const board = hand?.boards?.find((/** @type {any} */ b) => b.seat === index) ?? null;
    const acting = hand?.to_act?.find((/** @type {any} */ t) => t[0] === index);
    const isMe = index === mySeat;
    const classes = ["seat", `pos-${where}`];
    if (isMe) classes.push("me");
    if (acting) classes.push("acting");
    if (seat.sitting_out) classes.push("out");
    if (away?.has(index)) classes.push("away");
    const head = h(
      "div",
      { class: "seat-head" },
      h("span", { class: "seat-name" }, seat.player, isMe ? " (you)" : ""),
      h("span", { class: "stack" }, `${seat.stack.toLocaleString("en")} chips`),
      view?.button === index
        ? h("span", { class: "dealer", role: "img", "aria-label": "Dealer button" }, "D")
        : null,
      acting
        ? h("span", {
            class: "timer",
            role: "timer",
            "aria-label": `Time left for ${seat.player}`,
            "data-deadline": acting[1],
          })
        : null,
    );
    const state = h("p", { class: "seat-state" }, seatState(seat, view ?? {}, away));
    let body = null;
    if (isMe && arrangement) body = currentSetter();
    else if (board) {
      body = boardElement(board, isMe ? hand.me : null, showdownNames(board));
    }
    const result = hand?.results?.find((/** @type {any} */ r) => r.seat === index);
    // your own discards (pineapple, fantasyland): yours to see, sent to no one else
    const discards = isMe ? parseCards(hand?.me?.discards) : [];
    const discarded = discards.length
      ? h(
          "div",
          { class: "my-discards", role: "group", "aria-label": "Your discards" },
          h("span", {}, "Your discards (no one else sees them):"),
          ...discards.map((c) => cardElement(c, { small: true })),
        )
      : null;
    return h(
      "section",
      {
        class: classes.join(" "),
        "aria-label": `Seat ${index + 1}: ${seat.player}${isMe ? " (you)" : ""}`,
        "data-seat": index,
        "data-position": board ? board.position : null,
      },
      head,
      state,
      body,
      discarded,
      result && view?.phase === "showdown"
        ? resultElement(result, nameOf, settings?.unit ?? 1)
        : null,
    );
  }

  // ---- the showdown's hand names ----

  /** @type {Map<string, Record<string, string | null> | "asking">} */
  const named = new Map();

  /** Each row's name of a board on show (asked once per hand and board; drawn when known).
   * @param {Record<string, any>} board */
  function showdownNames(board) {
    if (view?.phase !== "showdown" || board.face_down || board.outcome === "surrendered") {
      return null;
    }
    const rows = { front: board.front, middle: board.middle, back: board.back };
    if (!rows.front || !rows.middle || !rows.back) return null;
    const key = `${view.hand.number}:${board.seat}:${rows.front}|${rows.middle}|${rows.back}`;
    const known = named.get(key);
    if (known === "asking") return null;
    if (known) return known;
    named.set(key, "asking");
    if (named.size > 64) named.delete(named.keys().next().value ?? "");
    request("GET", `/api/tables/${tableId}/evaluate?${new URLSearchParams(rows)}`)
      .then((answer) => {
        named.set(
          key,
          Object.fromEntries(answer.rows.map((/** @type {any} */ r) => [r.row, r.name])),
        );
        if (view?.phase === "showdown") draw();
      })
      .catch(() => named.delete(key));
    return null;
  }

  // ---- the setter ----

  /** @type {HTMLElement | null} */
  let setterNode = null;
  let setterSignature = "";

  /** The setter, kept as it is across frames that change nothing it shows (a drag or a focus
   * in progress is not disturbed by other players' moves). */
  function currentSetter() {
    const me = view?.hand?.me;
    const signature = [
      arrangement?.key,
      busy,
      message,
      me?.can_surrender,
      Math.floor(timeBank ?? 0),
      JSON.stringify(me?.naturals ?? []),
    ].join("|");
    if (!setterNode || signature !== setterSignature) {
      setterNode = setterElement();
      setterSignature = signature;
    }
    return setterNode;
  }

  function setterElement() {
    const a = /** @type {Arrangement} */ (arrangement);
    const me = view?.hand?.me;
    const rows = ROWS.map((row) => {
      const slots = a.rows[row].map((slot, i) =>
        h(
          "span",
          { class: `slot${slot.locked ? " locked" : ""}`, "data-slot": i },
          slot.card ? cardButton(slot.card, slot.locked) : null,
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
                changed();
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
              slot.card ? cardButton(slot.card, false) : null,
            ),
          ),
        ),
      );
    }
    const set = h(
      "div",
      { class: "hand-set", role: "region", "aria-label": "Your cards", "data-zone": "set" },
      ...a.set.map((card) => cardButton(card, false)),
      a.set.length === 0 ? h("span", { class: "muted" }, "All cards placed.") : null,
    );
    const buttons = [];
    buttons.push(
      button("Sort by suit", () => {
        a.sort("suit");
        changed();
      }),
      button("Sort by rank", () => {
        a.sort("rank");
        changed();
      }),
      button(a.mode === "street" && a.cards.length === 1 ? "Reset the card" : "Reset all", () => {
        a.resetAll();
        changed();
      }, { disabled: busy || a.placed() === 0 }),
    );
    const naturals = Object.keys(settings?.rules?.natural_payouts ?? {});
    if (a.mode === "set" && settings?.game === "chinese" && naturals.length && a.placed() === 0) {
      const held = new Set(me?.naturals ?? []);
      const choice = h(
        "select",
        { "aria-label": "Natural", "data-focus": "natural-choice", disabled: busy },
        ...[...naturals]
          .sort((x, y) => Number(held.has(y)) - Number(held.has(x)))
          .map((n) =>
            h(
              "option",
              { value: n },
              held.has(n) ? `${naturalName(n)} (you hold it)` : naturalName(n),
            ),
          ),
      );
      buttons.push(
        h(
          "span",
          { class: "natural" },
          h("span", { "aria-hidden": "true" }, "Natural:"),
          choice,
          button("Declare natural", () =>
            decide({
              type: "declare_natural",
              natural: /** @type {HTMLSelectElement} */ (choice).value,
            }),
          ),
        ),
      );
    }
    if (me?.can_surrender) {
      if (confirming === a.key) {
        // a surrender cannot be taken back: it asks once more
        buttons.push(
          button("Confirm surrender", () => decide({ type: "surrender" }), { class: "danger" }),
          button("Keep playing", () => {
            confirming = "";
            redraw();
          }),
        );
      } else {
        buttons.push(
          button(
            "Surrender",
            () => {
              confirming = a.key;
              redraw();
              /** @type {HTMLElement | null} */ (
                felt.querySelector('[data-focus="Keep playing"]')
              )?.focus();
            },
            { class: "danger" },
          ),
        );
      }
    }
    // no hints in a duplicate practice run: it measures your own play against the bot's
    if (settings?.practice && !duplicate.active) buttons.push(button("Hint", askHint));
    if (timeBank && timeBank >= 1 && me?.deadline) {
      buttons.push(
        button(`Time bank (${Math.floor(timeBank)} s)`, () =>
          socket.act({ type: "time_bank" }, view?.state_id),
        ),
      );
    }
    buttons.push(
      button("Play", play, {
        class: "primary",
        disabled: busy || !a.complete(),
        "data-focus": "play",
      }),
    );
    const hintAction = hint?.action;
    const hintBox = hint
      ? h(
          "div",
          { class: hint.gamble ? "hint gamble" : "hint", role: "note", "aria-label": "Hint" },
          ...hintBody(hint),
          hintAction && ["set_hand", "place"].includes(hintAction.type)
            ? button("Apply hint", () => {
                if (a.apply(hintAction)) {
                  markHinted(hintAction);
                  changed();
                } else say("The hint no longer fits these cards.");
              })
            : hintAction
              ? button(
                  hintAction.type === "surrender"
                    ? "Surrender as hinted"
                    : `Declare ${naturalName(hintAction.natural)} as hinted`,
                  () => decide(hintAction),
                )
              : null,
        )
      : null;
    const root = h(
      "div",
      { class: "setter", "data-key": a.key },
      h("div", { class: "outlines" }, ...rows, discard),
      h("p", { class: "evaluation", "aria-live": "polite" }),
      set,
      h("div", { class: "setter-buttons" }, ...buttons),
      hintBox,
      h("p", { class: "setter-message", role: "alert" }, message),
    );
    showEvaluation(root);
    root.addEventListener("pointerdown", (event) => {
      lastPointer = event.pointerType || "mouse";
    });
    root.addEventListener("click", onSetterClick);
    root.addEventListener("dblclick", onSetterDoubleClick);
    root.addEventListener("keydown", onSetterKey);
    return root;
  }

  /**
   * @param {string} label @param {() => void} onclick
   * @param {Record<string, any>} [extra]
   */
  function button(label, onclick, extra = {}) {
    return h(
      "button",
      { type: "button", "data-focus": label, disabled: busy, ...extra, onclick },
      label,
    );
  }

  /** @param {string} card @param {boolean} locked */
  function cardButton(card, locked) {
    if (locked) {
      const el = cardElement(card);
      el.classList.add("locked");
      el.title = `${cardName(card)} (placed on an earlier street)`;
      return el;
    }
    const el = cardElement(card, { interactive: true });
    el.setAttribute("data-movable", "");
    if (hinted.has(card)) {
      el.classList.add("hinted");
      el.setAttribute("aria-description", "placed by the hint");
    }
    if (selected === card) {
      el.classList.add("selected");
      el.setAttribute("aria-pressed", "true");
    }
    return el;
  }

  /** @param {MouseEvent} event */
  function onSetterClick(event) {
    const a = arrangement;
    if (!a || busy || !(event.target instanceof Element)) return;
    const cardEl = /** @type {HTMLElement | null} */ (event.target.closest(".card[data-movable]"));
    const zoneEl = /** @type {HTMLElement | null} */ (event.target.closest("[data-zone]"));
    if (event.target.closest("button:not(.card), select")) return;
    const card = cardEl?.dataset.card ?? null;
    if (selected && card !== selected && zoneEl) {
      const zone = /** @type {Zone} */ (zoneEl.dataset.zone);
      let index;
      if (zone === "set") {
        const without = a.set.filter((c) => c !== selected);
        index = card ? without.indexOf(card) : undefined;
        if (index !== undefined && index < 0) index = undefined;
      } else {
        const slot = /** @type {HTMLElement | null} */ (event.target.closest("[data-slot]"));
        index = slot ? Number(slot.dataset.slot) : undefined;
        // a tap on a full place of a row with room left: take a free place, do not swap
        const slots = a.slots(zone);
        if (index !== undefined && slots?.[index]?.card && a.room(zone) > 0) index = undefined;
      }
      const moved = a.move(selected, zone, index);
      selected = null;
      if (moved) changed();
      else redraw();
      return;
    }
    if (!card) return;
    const at = a.find(card);
    if (at?.zone === "set" && lastPointer !== "touch") {
      selected = null;
      if (a.placeAuto(card) || (a.room("discard") > 0 && a.move(card, "discard"))) changed();
      return;
    }
    // a tap (or a click on a placed card) chooses the card; the next tap says where it goes
    selected = selected === card ? null : card;
    markSelection();
  }

  /** @param {MouseEvent} event */
  function onSetterDoubleClick(event) {
    const a = arrangement;
    if (!a || busy || !(event.target instanceof Element)) return;
    const cardEl = /** @type {HTMLElement | null} */ (event.target.closest(".card[data-movable]"));
    const card = cardEl?.dataset.card;
    if (!card || a.find(card)?.zone === "set") return;
    selected = null;
    if (a.move(card, "set")) changed();
  }

  /** @param {KeyboardEvent} event */
  function onSetterKey(event) {
    const a = arrangement;
    if (!a || event.ctrlKey || event.metaKey || event.altKey) return;
    lastPointer = "keyboard";
    const key = event.key.toLowerCase();
    const control = /** @type {HTMLElement} */ (event.target);
    if (key === "enter") {
      // Enter on a card plays; on another button or the natural's list it does that instead
      if (control.closest?.("button:not(.card), select")) return;
      if (a.complete() && !busy) {
        event.preventDefault();
        play();
      }
      return;
    }
    const target = /** @type {HTMLElement} */ (event.target);
    const card = target.matches?.(".card[data-movable]") ? target.dataset.card : null;
    const keys = /** @type {Record<string, Zone>} */ (KEYS);
    const zone = keys[key];
    if (!card || !zone || busy) return;
    if (zone === "discard" && !a.discard.length) return;
    event.preventDefault();
    const from = a.find(card);
    if (!a.move(card, zone)) {
      const where = zone === "discard" ? "the discard" : ROW_NAMES[zone].toLowerCase();
      say(zone === "set" ? "That card is already in your cards." : `No room in ${where}.`);
      return;
    }
    selected = null;
    changed();
    // keep working through the set: focus the card that took this one's place
    let next = card;
    if (from?.zone === "set" && a.set.length) next = a.set[Math.min(from.index, a.set.length - 1)];
    const focus = felt.querySelector(`.setter .card[data-card="${next}"]`);
    /** @type {HTMLElement | null} */ (focus)?.focus();
  }

  function markSelection() {
    for (const el of felt.querySelectorAll(".setter .card[data-movable]")) {
      const on = /** @type {HTMLElement} */ (el).dataset.card === selected;
      el.classList.toggle("selected", on);
      if (on) el.setAttribute("aria-pressed", "true");
      else el.removeAttribute("aria-pressed");
    }
  }

  /** The arrangement changed: draw it now, evaluate it a little later. */
  function changed() {
    message = "";
    if (hinted.size && arrangement && !arrangement.placed()) hinted = new Set();
    redraw();
    scheduleEvaluate();
  }

  function redraw() {
    const focus = rememberFocus();
    const old = felt.querySelector(".setter");
    setterNode = null;
    if (old && arrangement) old.replaceWith(currentSetter());
    else draw();
    restoreFocus(focus);
  }

  /** @returns {{card?: string, key?: string} | null} */
  function rememberFocus() {
    const el = /** @type {HTMLElement | null} */ (document.activeElement);
    if (!el || !page.contains(el)) return null;
    if (el.dataset.card) return { card: el.dataset.card };
    if (el.dataset.focus) return { key: el.dataset.focus };
    return null;
  }

  /** @param {{card?: string, key?: string} | null} focus */
  function restoreFocus(focus) {
    if (!focus) return;
    const active = document.activeElement;
    if (active && active !== document.body && page.contains(active)) return;
    const sel = focus.card
      ? `.card[data-card="${focus.card}"]`
      : `[data-focus="${CSS.escape(focus.key ?? "")}"]`;
    /** @type {HTMLElement | null} */ (page.querySelector(sel))?.focus();
  }

  function play() {
    if (!arrangement || !arrangement.complete()) return;
    decide(arrangement.action());
  }

  /** Send a decision, stamped with the frame it was made on. @param {Record<string, any>} action */
  async function decide(action) {
    if (!view || busy) return;
    busy = true;
    const key = arrangement?.key;
    redraw();
    const answer = await socket.act(action, view.state_id);
    if (answer.type === "error") {
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

  /** Each row's name, the foul warning, the royalties: written in place (no redraw).
   * @param {ParentNode} root */
  function showEvaluation(root) {
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

  function scheduleEvaluate() {
    window.clearTimeout(evaluateTimer);
    evaluateTimer = window.setTimeout(evaluate, 250);
  }

  async function evaluate() {
    const a = arrangement;
    if (!a) return;
    const rows = Object.fromEntries(ROWS.map((r) => [r, a.rowCards(r).join(" ")]));
    const key = `${a.key}|${rows.front}|${rows.middle}|${rows.back}`;
    if (key === evaluationKey) return;
    if (!navigator.onLine) return; // asked again when back online
    evaluationKey = key;
    if (!rows.front && !rows.middle && !rows.back) {
      evaluation = null;
      if (setterNode) showEvaluation(setterNode);
      return;
    }
    try {
      const query = new URLSearchParams(rows).toString();
      const answer = await request("GET", `/api/tables/${tableId}/evaluate?${query}`);
      if (evaluationKey !== key || arrangement !== a) return;
      evaluation = answer;
      if (setterNode) showEvaluation(setterNode);
    } catch {
      // the names are a help, never a condition for playing
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

  // ---- seat controls and dialogs ----

  function drawControls() {
    const seat = mySeat !== null ? view?.seats?.[mySeat] : null;
    if (!seat) {
      controls.replaceChildren(
        watching
          ? h("a", { href: `#/table/${tableId}` }, "Stop watching and take a seat")
          : h("p", { class: "muted" }, mySeat === null ? "You are watching this table." : ""),
      );
      return;
    }
    const items = [];
    // at a sit & go's or an event's table the room seats the players: nobody sits out, tops up
    // or leaves (the room refuses it), though an absent player may sit in again
    const seatedByRoom = Boolean(settings?.tournament || settings?.event);
    if (seat.sitting_out) items.push(button("Sit in", () => seatAction({ type: "sit_in" })));
    else if (!seatedByRoom) items.push(button("Sit out", () => seatAction({ type: "sit_out" })));
    if (!seatedByRoom) items.push(button("Top up", topUp));
    if (!seat.leaving && !seatedByRoom) items.push(button("Leave", () => seatAction({ type: "leave" })));
    for (const el of items) /** @type {HTMLButtonElement} */ (el).disabled = false;
    controls.replaceChildren(
      h("div", { class: "seat-buttons", role: "group", "aria-label": "Your seat" }, ...items),
    );
  }

  /** @param {Record<string, any>} action */
  async function seatAction(action) {
    const answer = await socket.act(action, view?.state_id ?? null);
    if (answer.type === "error") say(answer.message);
    else if (action.type === "leave") {
      announce("You will leave the table after this hand, or now if no hand is on.");
    }
  }

  /** @param {number} seat */
  async function buyIn(seat) {
    if (!settings) return;
    if (!currentAccount()) {
      say("Log in to sit at this table.");
      return;
    }
    let balance = currentAccount()?.balance ?? 0;
    try {
      balance = (await loadAccount())?.balance ?? balance;
    } catch {
      // the last balance known will do
    }
    const min = settings.min_buy_in;
    const max = Math.min(settings.max_buy_in, Math.max(min, balance));
    numberDialog(page, {
      title: `Sit at seat ${seat + 1}`,
      text:
        `Buy-in between ${chips(min)} and ${chips(settings.max_buy_in)} chips. ` +
        `Your wallet holds ${chips(balance)} chips.`,
      label: "Buy-in",
      min,
      max,
      value: max,
      submit: "Sit",
      act: async (n) => {
        const answer = await socket.act({ type: "sit", seat, buy_in: n }, view?.state_id ?? null);
        if (answer.type === "ack") {
          announce(`You sat at seat ${seat + 1} with ${n} chips.`);
          loadAccount().catch(() => {});
        }
        return answer;
      },
    });
  }

  async function topUp() {
    const seat = mySeat !== null ? view?.seats?.[mySeat] : null;
    if (!seat || !settings) return;
    let balance = currentAccount()?.balance ?? 0;
    try {
      balance = (await loadAccount())?.balance ?? balance;
    } catch {
      // the last balance known will do
    }
    const room = settings.max_buy_in - seat.stack;
    if (room < 1) {
      say("Your stack is already at the table's maximum.");
      return;
    }
    numberDialog(page, {
      title: "Top up",
      text:
        `Add up to ${chips(room)} chips (between hands). ` +
        `Your wallet holds ${chips(balance)} chips.`,
      label: "Amount",
      min: 1,
      max: room,
      value: Math.min(room, balance),
      submit: "Top up",
      act: async (n) => {
        const answer = await socket.act({ type: "top_up", amount: n }, view?.state_id ?? null);
        if (answer.type === "ack") loadAccount().catch(() => {});
        return answer;
      },
    });
  }

  // ---- clocks ----

  function tick() {
    const now = socket.now();
    for (const el of page.querySelectorAll("[data-deadline]")) {
      const left = Number(/** @type {HTMLElement} */ (el).dataset.deadline) - now;
      el.textContent = `${clock(left)} left`;
      el.classList.toggle("low", left <= LOW_TIME);
    }
    for (const el of page.querySelectorAll("[data-until]")) {
      const at = Number(/** @type {HTMLElement} */ (el).dataset.until);
      el.textContent = at ? `Next deal in ${clock(at - now)}` : "";
    }
    const me = view?.hand?.me;
    const myTurn = Boolean(arrangement && me?.must_act && !busy);
    if (myTurn && me?.deadline) {
      const left = me.deadline - now;
      if (left <= LOW_TIME && left > 0 && lowAlerted !== arrangement?.key) {
        lowAlerted = arrangement?.key ?? "";
        alertNow(`Time is running low: ${Math.ceil(left)} seconds left.`);
      }
    }
    const base = settings ? `${settings.name || `Table ${tableId}`} · Thirteen` : baseTitle;
    document.title = myTurn && document.hidden ? `(Your turn) ${base}` : base;
  }

  return () => {
    eventBox.close();
    socket.close();
    duplicate.stop();
    stopDrag();
    window.clearInterval(ticker);
    window.clearTimeout(evaluateTimer);
    document.removeEventListener("visibilitychange", onVisible);
    window.removeEventListener("offline", onOffline);
    window.removeEventListener("online", onOnline);
    connectionBanner(null);
    document.title = "Thirteen";
  };
}
