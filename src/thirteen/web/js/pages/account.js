// The account (#/account): the wallet's balance and ledger, the recent hands (replay, review,
// downloads) and changing the password. The wallet is asked again whenever the room's balance
// moves (the header learns of it: a table closing, a payout), so it is never stale.

import { currentAccount, loadAccount, noteBalance, onAccount, request } from "../api.js";
import { announce, errorText, h } from "../ui.js";
import { cell, chips, field, formAlert, loginPrompt, signed, timeElement, uid } from "./common.js";
import { markInvalid, passwordProblem, PASSWORD_HINT } from "./login.js";

/**
 * @typedef {{id: number, at: number, amount: number, reason: string, memo: string}} LedgerLine
 * @typedef {{id: number, table: string, preset: string, number: number, seat: number,
 *   result: number | null, status: string, started_at: number, finished_at: number | null}} HandLine
 */

const REASONS = {
  grant: "Grant",
  "buy-in": "Buy-in",
  "cash-out": "Cash-out",
  "top-up": "Top-up",
};

/** "Buy-in" for "buy-in"; unknown reasons as the room writes them. @param {string} reason */
export function reasonText(reason) {
  const known = /** @type {Record<string, string>} */ (REASONS)[reason];
  return known ?? reason.charAt(0).toUpperCase() + reason.slice(1).replace(/[-_]/g, " ");
}

/**
 * An amount with its sign, coloured (and worded for screen readers: "plus 10" is read from the
 * sign itself).
 * @param {number | null} n
 */
export function amountElement(n) {
  if (n === null) return h("span", { class: "muted" }, "–");
  return h("span", { class: n > 0 ? "amount amount-in" : n < 0 ? "amount amount-out" : "amount" }, signed(n));
}

/**
 * A table with a caption and column headers.
 * @param {string} caption
 * @param {string[]} columns
 * @param {HTMLElement[]} rows
 */
function dataTable(caption, columns, rows) {
  const captionId = uid("caption");
  return h(
    "table",
    { class: "data stacked", role: "table", "aria-labelledby": captionId },
    h("caption", { id: captionId }, caption),
    h(
      "thead",
      { role: "rowgroup" },
      h("tr", { role: "row" }, ...columns.map((c) => h("th", { scope: "col", role: "columnheader" }, c))),
    ),
    h("tbody", { role: "rowgroup" }, ...rows),
  );
}


/** The JSON and text downloads of a hand. @param {number} id */
export function downloadLinks(id) {
  return [
    h(
      "a",
      {
        href: `/api/hands/${id}?format=json`,
        download: `thirteen-hand-${id}.json`,
        "aria-label": `Download hand ${id} as JSON`,
      },
      "JSON",
    ),
    h(
      "a",
      {
        href: `/api/hands/${id}?format=text`,
        download: `thirteen-hand-${id}.txt`,
        "aria-label": `Download hand ${id} as text`,
      },
      "Text",
    ),
  ];
}

/**
 * @param {HTMLElement} main
 */
export async function render(main) {
  document.title = "Account · Thirteen";
  const page = h("div", { class: "page" });
  main.append(page);
  const account = currentAccount();
  if (!account) {
    page.append(h("h1", {}, "Account"), loginPrompt("to see your wallet and your hands"));
    return;
  }
  page.append(
    h(
      "div",
      { class: "page-head" },
      h("h1", {}, "Account"),
      h("p", { class: "muted" }, `${account.name}${account.role === "admin" ? " · administrator" : ""}`),
    ),
  );
  const balance = h("p", { class: "balance" }, "Loading…");
  /** @type {number | null} the balance the ledger shows */
  let shown = null;
  const wallet = h(
    "section",
    { "aria-labelledby": "wallet-heading" },
    h("h2", { id: "wallet-heading" }, "Wallet"),
    balance,
  );
  const hands = h(
    "section",
    { "aria-labelledby": "hands-heading" },
    h("h2", { id: "hands-heading" }, "Recent hands"),
    h(
      "p",
      {},
      h("a", { href: "#/reviews" }, "Review my session"),
      ": your last hands, each decision against the solvers.",
    ),
  );
  page.append(wallet, hands, passwordSection());

  const ledgerShown = pagedList(wallet, {
    first: 100,
    step: 100,
    what: "transfers",
    async fetch(limit) {
      /** @type {{balance: number, transfers: LedgerLine[]}} */
      const w = await request("GET", `/api/wallet?limit=${limit}`);
      shown = w.balance;
      noteBalance(w.balance);
      balance.replaceChildren("Balance: ", h("strong", {}, `${chips(w.balance)} chips`));
      return w.transfers;
    },
    draw: (transfers) =>
      transfers.length
        ? dataTable(
            "Ledger: every transfer in and out of the wallet, newest first",
            ["Time", "Reason", "Memo", "Amount"],
            transfers.map((t) =>
              h(
                "tr",
                { role: "row" },
                cell("Time", timeElement(t.at)),
                cell("Reason", reasonText(t.reason)),
                cell("Memo", t.memo || "–"),
                cell("Amount", amountElement(t.amount)),
              ),
            ),
          )
        : h("p", {}, "No transfers yet."),
    failed: (error) => balance.replaceChildren(h("span", { class: "error" }, errorText(error))),
  });
  const handsShown = pagedList(hands, {
    first: 50,
    step: 50,
    what: "hands",
    fetch: (limit) => request("GET", `/api/hands?limit=${limit}`),
    draw: (/** @type {HandLine[]} */ lines) => {
      if (!lines.length) {
        return h("p", {}, "No hands yet. ", h("a", { href: "#/lobby" }, "Find a table"), ".");
      }
      const settled = lines.filter((l) => l.status === "settled" && l.result !== null);
      const net = settled.reduce((sum, l) => sum + (l.result ?? 0), 0);
      return h(
        "div",
        {},
        h(
          "p",
          { class: "net" },
          `Net over the ${settled.length} finished ${settled.length === 1 ? "hand" : "hands"} shown: `,
          amountElement(net),
          " chips",
        ),
        dataTable(
          "Your hands, newest first",
          ["Hand", "Table", "Game", "Date", "Result", "History"],
          lines.map((line) =>
            h(
              "tr",
              { role: "row" },
              cell("Hand", `#${line.id}`, h("small", { class: "muted block" }, `hand ${line.number} at the table`)),
              cell("Table", line.table),
              cell("Game", line.preset),
              cell("Date", timeElement(line.finished_at ?? line.started_at)),
              cell("Result", line.status === "settled" ? amountElement(line.result) : "In play"),
              cell(
                "History",
                line.status === "settled"
                  ? h(
                      "div",
                      { class: "row-actions" },
                      h("a", { href: `#/hand/${line.id}`, "aria-label": `Replay hand ${line.id}` }, "Replay"),
                      h("a", { href: `#/review/${line.id}`, "aria-label": `Review hand ${line.id}` }, "Review"),
                      ...downloadLinks(line.id),
                    )
                  : h("span", { class: "muted" }, "After the hand"),
              ),
            ),
          ),
        ),
      );
    },
  });
  const [reloadLedger, reloadHands] = await Promise.all([ledgerShown, handsShown]);
  return onAccount((now) => {
    if (now && shown !== null && now.balance !== shown) {
      shown = now.balance;
      reloadLedger();
      reloadHands();
    }
  });
}

const MOST = 500;

/**
 * A list the room gives newest first, `first` at a time, with "Show more" while there is more.
 * @template T
 * @param {HTMLElement} section
 * @param {{first: number, step: number, what: string, fetch: (limit: number) => Promise<T[]>,
 *   draw: (items: T[]) => Node, failed?: (error: unknown) => void}} how
 */
async function pagedList(section, how) {
  const holder = h("div", { class: "scroll", tabindex: -1 });
  const more = h("button", { type: "button", class: "show-more", hidden: true }, `Show more ${how.what}`);
  const error = h("p", { class: "error", role: "alert" });
  section.append(holder, more, error);
  let limit = how.first;
  async function load() {
    more.setAttribute("disabled", "");
    try {
      const items = await how.fetch(limit);
      error.textContent = "";
      holder.replaceChildren(how.draw(items));
      more.hidden = items.length < limit || limit >= MOST;
      return items.length;
    } catch (e) {
      error.textContent = errorText(e);
      how.failed?.(e);
      return 0;
    } finally {
      more.removeAttribute("disabled");
    }
  }
  more.addEventListener("click", async () => {
    limit = Math.min(MOST, limit + how.step);
    const n = await load();
    announce(`Showing ${n} ${how.what}.`);
    if (more.hidden) holder.focus(); // the button went away: keep the focus near
  });
  await load();
  return load;
}

/** Change the password: the current one, the new one twice. */
function passwordSection() {
  /** @param {string} name @param {string} autocomplete */
  const secret = (name, autocomplete) =>
    /** @type {HTMLInputElement} */ (
      h("input", { name, type: "password", autocomplete, required: true, maxlength: 128 })
    );
  const old = secret("current-password", "current-password");
  const fresh = secret("new-password", "new-password");
  const repeat = secret("repeat-password", "new-password");
  const alert = formAlert();
  const done = h("p", { role: "status", class: "ok" });
  const submit = h("button", { type: "submit", class: "primary" }, "Change password");
  const form = h(
    "form",
    { class: "form-stack narrow", "aria-labelledby": "password-heading", novalidate: true },
    // for password managers: whose password this is
    h("input", {
      type: "text",
      name: "username",
      autocomplete: "username",
      value: currentAccount()?.name ?? "",
      hidden: true,
      "aria-hidden": "true",
      tabindex: -1,
    }),
    field("Current password", old),
    field("New password", fresh, PASSWORD_HINT),
    field("Repeat new password", repeat),
    alert,
    done,
    h("div", { class: "form-actions" }, submit),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    done.textContent = "";
    let problem = "";
    /** @type {HTMLInputElement | null} */
    let culprit = null;
    if (!old.value) [problem, culprit] = ["Enter your current password.", old];
    else if ((problem = passwordProblem(fresh.value, "The new password"))) culprit = fresh;
    else if (fresh.value !== repeat.value) [problem, culprit] = ["The two new passwords differ.", repeat];
    for (const input of [old, fresh, repeat]) markInvalid(input, input === culprit);
    if (problem) {
      alert.say(problem);
      culprit?.focus();
      return;
    }
    alert.say("");
    submit.setAttribute("disabled", "");
    try {
      await request("POST", "/api/password", { old_password: old.value, new_password: fresh.value });
      form.reset();
      done.textContent = "Password changed. Your other sessions were logged out.";
      announce("Password changed.");
    } catch (error) {
      alert.say(errorText(error));
      if (/** @type {any} */ (error).code === "bad_login") {
        // api.js forgets the account on any 401; this one only means the password was wrong
        await loadAccount().catch(() => null);
        markInvalid(old, true);
        old.focus();
      }
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  return h(
    "section",
    { "aria-labelledby": "password-heading" },
    h("h2", { id: "password-heading" }, "Change password"),
    form,
  );
}
