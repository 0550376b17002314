// The table page: #/table/ID (play or watch), #/table/ID/join (the buy-in dialog at once),
// #/table/ID/watch (a spectator, no ticket). Draws each frame's view as it comes (the room's
// state always wins) and the arrangement in progress on top of it.
//
// The page owns the socket and what the room said last (`room`); its pieces draw their parts:
// the seats (./seats.js), your decision in progress (./turn.js), the showdown (./showdown.js),
// your seat's controls (./controls.js), the clocks (./clocks.js), the deal and the showdown's
// flips (./motion.js), an event's corner (./event.js) and a duplicate practice run's panel
// (./duplicate.js).

import { currentAccount, refreshAccount } from "../api.js";
import { TableSocket } from "../socket.js";
import { alertNow, announce, connectionBanner, h } from "../ui.js";
import { startClocks } from "./clocks.js";
import { rememberFocus, restoreFocus, seatControls } from "./controls.js";
import { duplicatePanel } from "./duplicate.js";
import { endedSection } from "./ended.js";
import { eventPanel } from "./event.js";
import { tableMotion } from "./motion.js";
import { position, seatElement } from "./seats.js";
import { setterHelp } from "./setterview.js";
import { handNames, showdownSection, showdownSentence } from "./showdown.js";
import { settingTour } from "./tour.js";
import { yourTurn } from "./turn.js";

/** @typedef {import("../socket.js").Frame} Frame */
/** @typedef {import("./seats.js").Room} Room */

/**
 * @param {HTMLElement} main
 * @param {{table: string, mode?: string}} params
 */
export function render(main, params) {
  const tableId = Number(params.table);
  const watching = params.mode === "watch";
  /** @type {Room} */
  const room = { settings: null, view: null, seat: null, timeBank: null, message: "" };
  let wantJoin = params.mode === "join";
  let closed = false; // the table has closed: no seat to take, the way on instead
  /** @type {Map<number, string>} who sat at each seat last */
  const lastPlayers = new Map();
  let announcedHand = "";
  let lastActing = "";
  /** @type {Set<number> | null} seats without an open socket (when the room says) */
  let away = null;
  const motion = tableMotion();
  document.title = `Table ${tableId} · Thirteen`;

  const heading = h("h1", {}, `Table ${tableId}`);
  const meta = h("p", { class: "table-meta" });
  const status = h("p", { class: "table-status", role: "status" });
  const eventBox = eventPanel(tableId); // a duplicate event's table: standings, confirmations
  const felt = h("div", { class: "felt" });
  const showdown = showdownSection();
  // a duplicate practice run's hands, for its player (no Hint button there: redraw)
  const duplicate = duplicatePanel(tableId, () => turn.redraw());
  const ended = endedSection(tableId);
  const page = h("section", { class: "table-page", "aria-labelledby": "table-title" });
  const tour = settingTour(page); // the first time this browser sets cards
  const socket = new TableSocket(tableId, {
    watch: watching,
    onFrame,
    onState(state, detail) {
      if (state === "reconnecting") connectionBanner("Reconnecting…");
      else if (state === "closed") connectionBanner(detail ?? "This table is closed.");
      else connectionBanner(null);
    },
  });
  const controls = seatControls({ tableId, watching, room, socket, page, say });
  page.append(
    h("header", { class: "table-head" }, heading, meta, eventBox.element, status),
    ended.element,
    felt,
    tour.element,
    showdown.element,
    controls.element,
    duplicate.element,
    setterHelp(),
  );
  heading.id = "table-title";
  main.replaceChildren(page);

  const turn = yourTurn({
    tableId,
    page,
    felt,
    socket,
    room,
    // no hints in a duplicate practice run: it measures your own play against the bot's
    hints: () => Boolean(room.settings?.practice && !duplicate.active),
    say,
    draw,
  });
  const showdownNames = handNames(tableId, room, draw);
  const clocks = startClocks(page, {
    now: () => socket.now(),
    title: () => `${room.settings?.name || `Table ${tableId}`} · Thirteen`,
    waiting: () => turn.waiting(),
  });
  // a browser that knows it went offline: drop the socket now (it reconnects with `since` and
  // resends what was not answered) rather than wait for the room's pings to give up on it
  const onOffline = () => {
    if (socket.state === "open") socket.ws?.close(1000);
  };
  const onOnline = () => turn.evaluateSoon();
  window.addEventListener("offline", onOffline);
  window.addEventListener("online", onOnline);

  /** @param {Frame} frame */
  function onFrame(frame) {
    if (frame.type === "snapshot") {
      room.settings = frame.settings;
      if (room.settings?.practice && !watching && currentAccount()) duplicate.start();
      drawMeta();
    }
    if (frame.type === "snapshot" || frame.type === "update") {
      const view = room.view;
      if (frame.type === "update" && view && frame.state_id <= view.state_id) return;
      if (frame.type === "update" && view && frame.state_id > view.state_id + 1) socket.resync();
      room.view = frame.view;
      room.seat = frame.seat;
      for (const [i, s] of (frame.view?.seats ?? []).entries()) if (s) lastPlayers.set(i, s.player);
      room.timeBank = frame.time_bank ?? null;
      notePresence(frame);
      turn.sync();
      noteEvents(frame.events ?? []);
      drawMeta();
      draw();
      if (wantJoin && room.settings) {
        wantJoin = false;
        if (room.seat === null) {
          const free = (room.view?.seats ?? []).findIndex((/** @type {any} */ s) => s === null);
          if (free >= 0) controls.buyIn(free);
          else say("Every seat is taken; you are watching.");
        }
      }
    } else if (frame.type === "presence") {
      notePresence(frame);
      draw();
    } else if (frame.type === "error" && !frame.id) {
      say(frame.message);
    } else if (frame.type === "unseated") {
      controls.noteUnseated(frame);
    } else if (frame.type === "closing") {
      say(frame.message);
      connectionBanner(frame.message);
      // the table closed: every seat's chips went back to its wallet
      if (currentAccount()) refreshAccount();
      closed = true;
      draw();
    }
  }

  /** @param {Frame} frame */
  function notePresence(frame) {
    const connected = frame.connected ?? frame.seats_connected;
    const view = room.view;
    if (Array.isArray(connected) && view) {
      const on = new Set(connected);
      away = new Set(
        (view.seats ?? [])
          .filter((/** @type {any} */ s) => s && !s.player.startsWith("bot-") && !on.has(s.seat))
          .map((/** @type {any} */ s) => s.seat),
      );
    }
  }

  /** @param {Record<string, any>[]} events */
  function noteEvents(events) {
    const { view, seat: mySeat } = room;
    const me = currentAccount()?.name;
    for (const event of events) {
      if (event.event === "HandSettled") duplicate.refresh();
      // your chips moved between the table and your wallet (a sit, a top-up, a leave, being
      // unseated — by name: once you have left, the frame no longer gives you a seat)
      if (
        (event.event === "PlayerSat" || event.event === "PlayerLeft") && event.player === me ||
        event.event === "PlayerToppedUp" && event.seat === mySeat
      ) {
        refreshAccount();
      }
    }
    const hand = view?.hand;
    // whose turn it is (your own turn is announced with what to do, in turn.sync())
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
        announce(showdownSentence(hand.results, mySeat, nameOf));
      }
    }
  }

  /** @param {number} seat */
  function nameOf(seat) {
    const s = room.view?.seats?.[seat];
    // a seat left since (a closed table's last results): who sat there last
    return s ? s.player : (lastPlayers.get(seat) ?? `Seat ${seat + 1}`);
  }

  /** @param {string} text */
  function say(text) {
    room.message = text;
    const el = page.querySelector(".setter-message");
    if (el) el.textContent = text;
    else status.textContent = text;
    alertNow(text);
  }

  function drawMeta() {
    const settings = room.settings;
    if (!settings) return;
    heading.textContent = settings.name || `Table ${tableId}`;
    document.title = `${settings.name || `Table ${tableId}`} · Thirteen`;
    // at a sit & go the unit rises between hands (the view's point_value) and the chips are
    // tournament chips, bought with the registration, not at the table
    const unit = room.view?.point_value ?? settings.unit;
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
    if (closed) ended.show(room.settings, duplicate.active);
    const view = room.view;
    if (!view) return;
    const focus = rememberFocus(page);
    page.dataset.stateId = String(view.state_id);
    const count = view.seats.length;
    const mine = room.seat ?? 0;
    const seats = {
      room,
      watching: watching || closed,
      away,
      setter: () => turn.element(),
      names: showdownNames,
      nameOf,
      buyIn: controls.buyIn,
      flip: motion.flip,
    };
    motion.note(view, room.seat);
    felt.className = `felt seats-${count} phase-${view.phase}`;
    felt.replaceChildren(
      ...view.seats.map((/** @type {any} */ seat, /** @type {number} */ i) =>
        seatElement(seat, i, position(i, mine, count), seats),
      ),
    );
    motion.deal(felt.querySelector(".setter"));
    const hand = view.hand;
    const phase =
      view.phase === "waiting"
        ? "Waiting for players"
        : view.phase === "showdown"
          ? `Hand ${hand.number}: showdown`
          : `Hand ${hand.number}${hand.street ? `, street ${hand.street + 1}` : ""}`;
    status.textContent =
      room.message && !turn.arrangement ? `${phase}. ${room.message}` : phase;
    showdown.draw(view, nameOf);
    controls.draw();
    if (closed) {
      // no next deal, no seats to take, no seat controls at a closed table: its last results
      for (const el of page.querySelectorAll(".next-deal")) el.remove();
      controls.element.hidden = true;
      felt.hidden = true;
    }
    eventBox.update(room.settings, view, room.seat);
    tour.update();
    restoreFocus(page, focus);
    clocks.tick();
  }

  return () => {
    motion.stop();
    eventBox.close();
    socket.close();
    duplicate.stop();
    turn.stop();
    clocks.stop();
    window.removeEventListener("offline", onOffline);
    window.removeEventListener("online", onOnline);
    connectionBanner(null);
    document.title = "Thirteen";
  };
}
