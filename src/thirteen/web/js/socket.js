// A table's WebSocket: connects with a fresh ticket, reconnects with `since` after a loss
// (backing off), resends actions that were never answered (same id: the room answers a repeated
// id without acting twice), and keeps the offset between this clock and the room's.

import { socketUrl, ticket } from "./api.js";

/**
 * @typedef {{type: string, [key: string]: any}} Frame
 * @typedef {"connecting" | "open" | "reconnecting" | "closed"} SocketState
 */

let counter = 0;

/** A new action id, unique in this page (and across reloads, by the time prefix). */
export function newId(prefix = "a") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

export class TableSocket {
  /**
   * @param {number} tableId
   * @param {{watch?: boolean, onFrame: (frame: Frame) => void,
   *          onState?: (state: SocketState, detail?: string) => void}} options
   */
  constructor(tableId, options) {
    this.tableId = tableId;
    this.watch = Boolean(options.watch);
    this.onFrame = options.onFrame;
    this.onState = options.onState ?? (() => {});
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {SocketState} */
    this.state = "connecting";
    this.stateId = -1;
    /** Seconds to add to this clock to read the room's. */
    this.offset = 0;
    /** @type {Map<string, {message: object, resolve: (f: Frame) => void}>} */
    this.pending = new Map();
    this.attempt = 0;
    this.stopped = false;
    /** @type {number | undefined} */
    this.retryTimer = undefined;
    this.onlineListener = () => this.retryNow();
    window.addEventListener("online", this.onlineListener);
    this.connect();
  }

  /** The room's clock now, in seconds since the epoch. */
  now() {
    return Date.now() / 1000 + this.offset;
  }

  async connect() {
    if (this.stopped) return;
    let url = socketUrl(`/ws/tables/${this.tableId}`);
    const query = [];
    try {
      if (!this.watch) {
        const t = await ticket();
        if (t) query.push(`ticket=${encodeURIComponent(t)}`);
      }
    } catch (error) {
      this.scheduleRetry(String(/** @type {Error} */ (error).message));
      return;
    }
    if (this.stopped) return;
    if (this.stateId >= 0) query.push(`since=${this.stateId}`);
    if (query.length) url += `?${query.join("&")}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("message", (event) => this.receive(event));
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      // 1008: refused; 4001: the session ended (logged out elsewhere, a new password): a new
      // ticket would not be given, so say why instead of trying again
      if (event.code === 1008 || event.code === 4000 || event.code === 4001) {
        this.setState("closed", event.reason || "The room refused this connection.");
        return;
      }
      this.scheduleRetry(event.reason);
    });
  }

  /** @param {MessageEvent} event */
  receive(event) {
    /** @type {Frame} */
    let frame;
    try {
      frame = JSON.parse(String(event.data));
    } catch {
      return;
    }
    if (typeof frame.server_time === "number") {
      this.offset = frame.server_time - Date.now() / 1000;
    }
    if (frame.type === "snapshot") {
      this.attempt = 0;
      this.setState("open");
      // anything sent before the loss and never answered goes again, with the same id
      for (const { message } of this.pending.values()) this.ws?.send(JSON.stringify(message));
    }
    if (typeof frame.state_id === "number" && frame.type !== "ack") {
      this.stateId = Math.max(this.stateId, frame.state_id);
    }
    if ((frame.type === "ack" || frame.type === "error") && frame.id) {
      const waiting = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      waiting?.resolve(frame);
    }
    if (frame.type === "closing") this.stopped = true;
    this.onFrame(frame);
  }

  /**
   * Send an action; resolves with its `ack` or `error` frame (resent after a reconnection).
   * @param {object} action
   * @param {number | null} [stateId]
   * @returns {Promise<Frame>}
   */
  act(action, stateId = this.stateId) {
    const id = newId(/** @type {{type: string}} */ (action).type.replace(/_/g, "-"));
    const message = { type: "action", id, state_id: stateId, action };
    return new Promise((resolve) => {
      this.pending.set(id, { message, resolve });
      if (this.ws && this.ws.readyState === WebSocket.OPEN && this.state === "open") {
        this.ws.send(JSON.stringify(message));
      }
    });
  }

  /** Ask for a fresh snapshot (with what was missed since the last state id). */
  resync() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: "resync", since: this.stateId }));
    }
  }

  /** @param {string} [reason] */
  scheduleRetry(reason) {
    if (this.stopped) return;
    this.setState("reconnecting", reason);
    this.attempt += 1;
    const delay = Math.min(10_000, 250 * 2 ** Math.min(this.attempt, 6)) * (0.5 + Math.random());
    this.retryTimer = window.setTimeout(() => this.connect(), delay);
  }

  retryNow() {
    if (this.state !== "reconnecting" || this.stopped) return;
    window.clearTimeout(this.retryTimer);
    this.connect();
  }

  /** @param {SocketState} state @param {string} [detail] */
  setState(state, detail) {
    this.state = state;
    this.onState(state, detail);
  }

  close() {
    this.stopped = true;
    window.clearTimeout(this.retryTimer);
    window.removeEventListener("online", this.onlineListener);
    this.ws?.close(1000);
    this.ws = null;
  }
}
