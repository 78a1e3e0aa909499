// The tables this tab created, and the addresses of tables and of the lobby: the lobby creates
// a table at the server (createAndSit) and remembers its request and its seats' links, for the
// table's panel of links and its "Play again" (shell.js).
// @ts-check
/** @typedef {import("../../../../web/types/client").CreatedTable} CreatedTable */
/** @typedef {import("../../../../web/types/client").TableRequest} TableRequest */
/** @typedef {import("../../../../web/types/client").TablesAnswer} TablesAnswer */

import { t } from "./i18n.js";

const CREATED_KEY = "shock-rules.created.";

/** Return the lobby's address: this server's front page, or the page itself in the
 * in-browser build (which may live in a folder of its site). */
export function lobbyUrl() {
  return window.shockHost ? location.pathname : "/";
}

/**
 * Return the address of `table` at this server: a seat's (its token in the fragment) or, for
 * a null token, a spectator's.
 * @param {string} table
 * @param {string | null} token
 */
export function tableLink(table, token) {
  const query = new URLSearchParams({ table });
  // The token in the fragment: a browser never sends it to a server (nor to a proxy's log).
  const fragment = token ? `#${new URLSearchParams({ token })}` : "";
  return `${location.origin}/?${query}${fragment}`;
}

/**
 * Keep what this tab asked for and got when it created `table` (for this tab only: a seat's
 * token is a secret, and sessionStorage dies with the tab).
 * @param {string} table
 * @param {CreatedTable} created
 */
export function remember(table, created) {
  try {
    sessionStorage.setItem(CREATED_KEY + table, JSON.stringify(created));
  } catch {
    // not kept: the table still opens; its panel of links and "Play again" do not show
  }
}

/**
 * Return what this tab created as `table`, or null.
 * @param {string | null} table
 * @returns {CreatedTable | null}
 */
export function recalled(table) {
  if (!table) return null;
  try {
    const text = sessionStorage.getItem(CREATED_KEY + table);
    /** @type {Partial<CreatedTable> | null} */
    const doc = text ? JSON.parse(text) : null;
    return doc && doc.body && Array.isArray(doc.seats) ? /** @type {CreatedTable} */ (doc) : null;
  } catch {
    return null;
  }
}

/**
 * Create a table at this server and go to its first person's seat (its spectators' page if
 * it has none); this tab keeps the request and the seats' links for the table's panel of
 * links and "Play again". Throw an Error with the server's reason if it refuses.
 * @param {TableRequest} body
 */
export async function createAndSit(body) {
  const response = await fetch("/api/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  /** @type {TablesAnswer} */
  const doc = await response.json().catch(() => ({}));
  if (!response.ok || doc.type === "error" || !doc.table) {
    throw new Error(doc.message || t("lobby.httpError", { status: response.status }));
  }
  remember(doc.table, { body, seats: doc.seats });
  const own = doc.seats.length ? doc.seats[0] : null;
  location.assign(tableLink(doc.table, own ? own.token : null));
}
