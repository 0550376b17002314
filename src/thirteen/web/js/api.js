// The room over HTTP: JSON in and out, the session cookie, the CSRF token, errors as sentences.

/**
 * @typedef {{name: string, role: string, csrf_token: string, balance: number}} Account
 */

/** A refusal from the room: `code` for programs, `message` for people. */
export class RoomError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** @type {Account | null} */
let account = null;
/** @type {Set<(account: Account | null) => void>} */
const listeners = new Set();

/** The account logged in (as of the last answer that said), or null. */
export function currentAccount() {
  return account;
}

/** @param {(account: Account | null) => void} listener */
export function onAccount(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** @param {Account | null} next */
function setAccount(next) {
  account = next;
  for (const listener of listeners) listener(account);
}

/**
 * How many times this tab has logged in, signed up, logged out or found its session gone. An
 * answer about the account asked before the latest of those is stale: a wallet asked for just
 * before a log out, answered just after it, must not log the tab back in.
 */
let sessions = 0;

/** @param {Account | null} next */
function changeSession(next) {
  sessions += 1;
  setAccount(next);
}

/**
 * Ask the room. State-changing requests carry the CSRF token; errors become {@link RoomError}.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function request(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET" && account) headers["x-csrf-token"] = account.csrf_token;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new RoomError(0, "offline", "The room cannot be reached. Check your connection.");
  }
  if (response.ok && method !== "GET" && account && !OWN_ACCOUNT.test(path)) {
    // a change that may have moved chips (a registration, an entry, a run, a transfer): the
    // wallet on screen is asked again, so it is never left stale
    refreshAccount();
  }
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") ?? "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const error = data && typeof data === "object" && data.error;
    // the session is gone (not a wrong password given while logged in)
    if (response.status === 401 && account && error && error.code === "not_logged_in") {
      changeSession(null);
    }
    throw new RoomError(
      response.status,
      error ? error.code : "http_error",
      error ? error.message : `The room answered ${response.status}.`,
    );
  }
  return data;
}

/** Requests that answer with the account themselves (or move no chips). */
const OWN_ACCOUNT = /^\/api\/(session|accounts|tickets)(\?|$)/;

/** @type {Promise<Account | null> | null} */
let refreshing = null;
let refreshAgain = false;

/**
 * Ask the room for the account again (its wallet balance): calls at the same time share one
 * request, and a call while one is under way asks once more after it (the chips may have moved
 * after the room answered). Never throws: a room away keeps the last account known.
 * @returns {Promise<Account | null>}
 */
export function refreshAccount() {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = loadAccount()
    .catch(() => account)
    .finally(() => {
      refreshing = null;
      if (refreshAgain) {
        refreshAgain = false;
        refreshAccount();
      }
    });
  return refreshing;
}

/** The account of this browser's session, or null (asks the room). */
export async function loadAccount() {
  const asked = sessions;
  const answer = await request("GET", "/api/session");
  if (asked === sessions) setAccount(answer.account);
  return account;
}

/** @param {string} name @param {string} password */
export async function signUp(name, password) {
  changeSession(await request("POST", "/api/accounts", { name, password }));
  return account;
}

/** @param {string} name @param {string} password */
export async function logIn(name, password) {
  changeSession(await request("POST", "/api/session", { name, password }));
  return account;
}

export async function logOut() {
  try {
    await request("DELETE", "/api/session");
  } finally {
    changeSession(null);
  }
}

/** @param {number} balance */
export function noteBalance(balance) {
  if (account && account.balance !== balance) setAccount({ ...account, balance });
}

/** A one-time socket login (null when not logged in). */
export async function ticket() {
  if (!account) return null;
  const answer = await request("POST", "/api/tickets");
  return /** @type {string} */ (answer.ticket);
}

/** ws:// or wss:// for a path of this room. @param {string} path */
export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}
