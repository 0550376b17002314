// The lobby's live feed (/ws/lobby): every open table in a `lobby` frame on connecting and on
// every change; after a loss it reconnects, backing off, and at once when the browser is back
// online.

import { socketUrl } from "../api.js";

/** @typedef {import("./lobbytables.js").LobbyTable} LobbyTable */

/** The lobby socket: a `lobby` frame on connecting and on every change; reconnects. */
export class LobbyFeed {
  /**
   * @param {(tables: LobbyTable[]) => void} onTables
   * @param {(state: "connecting" | "live" | "reconnecting") => void} onState
   */
  constructor(onTables, onState) {
    this.onTables = onTables;
    this.onState = onState;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    /** @type {number | undefined} */
    this.timer = undefined;
    this.online = () => this.retryNow();
    window.addEventListener("online", this.online);
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const ws = new WebSocket(socketUrl("/ws/lobby"));
    this.ws = ws;
    ws.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (frame.type === "lobby") {
        this.attempt = 0;
        this.onState("live");
        this.onTables(frame.tables);
      }
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws || this.stopped) return;
      this.ws = null;
      this.onState("reconnecting");
      this.attempt += 1;
      const delay = Math.min(10_000, 250 * 2 ** Math.min(this.attempt, 6)) * (0.5 + Math.random());
      this.timer = window.setTimeout(() => this.connect(), delay);
    });
  }

  retryNow() {
    if (this.stopped || this.ws) return;
    window.clearTimeout(this.timer);
    this.connect();
  }

  close() {
    this.stopped = true;
    window.clearTimeout(this.timer);
    window.removeEventListener("online", this.online);
    this.ws?.close(1000);
    this.ws = null;
  }
}
