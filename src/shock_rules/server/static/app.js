// The browser client of `shock-rules serve` (and of the in-browser build of web/): plain modern
// JavaScript in ES modules, no build step, nothing fetched but the host's own API. It shows one
// seat's view document (shock-rules/2) and sends the seat's decisions as {"type": "action",
// "action": <legal action>, "step": N}. Words come from i18n.js (English and Brazilian
// Portuguese).
//
// This module starts the page: the table of the address (?table=ID, a seat's token in the
// fragment), or the lobby. The modules it loads:
//   shell.js     the table's page whatever the game: state, views, actions, log, game over
//   socket.js    the WebSocket transport to `shock-rules serve`
//   lobby.js     the lobby's form and its open tables; created.js, the tables this tab made
//   shock.js     Shock!'s table (shock-cards.js: its cards, words and odds)
//   melvin.js    Melvin Vs. Kronk's table (melvin-words.js: its words)
//   i18n.js      the words; dom.js, the page's elements
// @ts-check

import { chestOdds, describe, fractionText, parseChestCard } from "./shock-cards.js";
import { MELVIN } from "./melvin.js";
import { SHOCK } from "./shock.js";
import { openLobby } from "./lobby.js";
import { client, connect, receive, registerGame, send, startTable } from "./shell.js";
import { socketTransport } from "./socket.js";

registerGame(SHOCK);
registerGame(MELVIN);

function start() {
  const params = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.slice(1));
  const path = /^\/table\/([^/]+)\/?$/.exec(location.pathname);
  client.table = path ? decodeURIComponent(path[1]) : params.get("table");
  const old = params.get("token");
  if (old !== null) {
    // A link of before (?token=): the token moves to the fragment at once, out of the address
    // the browser keeps in its history and sends on (the Referer, a reload).
    params.delete("token");
    if (!fragment.has("token")) fragment.set("token", old);
    const query = params.toString();
    history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}#${fragment}`);
  }
  client.token = fragment.get("token") || null;
  // Another seat's link opened in this page changes only the fragment: no new page is
  // loaded by the browser, so load it (this page's own replaceState fires no hashchange).
  window.addEventListener("hashchange", () => {
    if (new URLSearchParams(location.hash.slice(1)).get("token") !== client.token) location.reload();
  });
  startTable();
  if (client.table) connect(socketTransport(client.table, client.token));
  else openLobby(params);
}

// What the browser tests (and a curious console) reach.
window.shockClient = {
  chestOdds, fractionText, parseChestCard, describe, client, receive, send, connect,
  socketTransport,
};
// (a module runs once the document is parsed)
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
