// The shell of the browser client: what a table's page does whatever the game. It keeps the
// client's state (the view on screen, the events seen, the transport to the game's host),
// sends the viewer's actions and receives views, errors and events, and draws the parts of the
// table every game has: the status and turn lines, the connection badge, the error line, the
// log, the game-over panel, the seat's tools and links, the keys' help and the page that says
// a link leads nowhere.
//
// Each game brings a module (shock.js, melvin.js: see GameModule in web/types/client.d.ts)
// that draws its own panels; the shell picks it by the view document's "game" (Shock!'s
// documents have none) among the modules registered with registerGame().
// @ts-check
/** @typedef {import("../../../../web/types/client").GameAction} GameAction */
/** @typedef {import("../../../../web/types/protocol").Seat} Seat */
/** @typedef {import("../../../../web/types/client").GameView} GameView */
/** @typedef {import("../../../../web/types/client").GameEvent} GameEvent */
/** @typedef {import("../../../../web/types/client").GameModule} GameModule */
/** @typedef {import("../../../../web/types/client").ServerMessage} ServerMessage */
/** @typedef {import("../../../../web/types/client").Transport} Transport */
/** @typedef {import("../../../../web/types/client").ClientState} ClientState */
/** @typedef {import("../../../../web/types/client").SeatTokenAnswer} SeatTokenAnswer */

import { createAndSit, lobbyUrl, recalled, tableLink } from "./created.js";
import { $, el } from "./dom.js";
import { language, onChange, t } from "./i18n.js";
import { REPLACED } from "./socket.js";

// ---- The client's state.

/** @type {ClientState} */
export const client = {
  table: null,
  token: null,
  transport: null,      // carries protocol documents to and from the game's host
  view: null,
  events: [],          // every event seen, ordered by step
  eventKeys: new Set(),
  connected: false,
  pending: false,
  lastError: null,
};

// ---- The games this page can show.

/** @type {Map<string, GameModule>} */
const GAMES = new Map();

/**
 * Let the client show tables of `game` (a view document whose "game" is its name).
 * @param {GameModule} game
 */
export function registerGame(game) {
  GAMES.set(game.name, game);
}

/**
 * Return the module that shows `view`: its "game", or Shock! for a document without one.
 * @param {GameView} view
 * @returns {GameModule}
 */
function gameOf(view) {
  const name = "game" in view && typeof view.game === "string" ? view.game : "shock";
  const game = GAMES.get(name);
  // The host plays only games this client knows (both ship together).
  if (!game) throw new Error(`this page cannot show a game of ${name}`);
  return game;
}

// ---- Words every game uses.

/**
 * Return a seat in words: "you" for the viewer's own, "seat 2", "nobody".
 * @param {Seat | null | undefined} seat
 * @returns {string}
 */
export function seatName(seat) {
  if (seat === null || seat === undefined || seat < 0) return t("nobody");
  return client.view && client.view.seat === seat ? t("you") : t("seat", { seat });
}

/** @param {Seat[]} seats */
export function names(seats) {
  return seats.map(seatName).join(t("and"));
}

/**
 * Add the events not seen yet to the log; return whether there were any.
 * @param {GameEvent[] | undefined} events
 * @returns {boolean}
 */
function addEvents(events) {
  let added = false;
  for (const e of events || []) {
    const key = JSON.stringify(e);
    if (client.eventKeys.has(key)) continue;
    client.eventKeys.add(key);
    // Keep the log in step order: a reconnect's missed events may arrive after a later view.
    let i = client.events.length;
    while (i > 0 && (client.events[i - 1].step ?? 0) > (e.step ?? 0)) i--;
    client.events.splice(i, 0, e);
    added = true;
  }
  return added;
}

/**
 * Show the link's state in the header: the words of `key` (i18n.js) in the page's language,
 * again whenever the language changes (the key and the server's reason stay on the node).
 * @param {string} key
 * @param {string} kind
 * @param {string} [reason]
 */
export function setConnection(key, kind, reason = "") {
  const node = $("connection");
  node.hidden = false;
  node.dataset.state = kind;
  node.dataset.key = key;
  node.dataset.reason = reason;
  node.textContent = t(key, { reason });
}
onChange(() => {
  const node = $("connection");
  // (local.js's badge writes its key there too, before a table starts)
  if (node && !node.hidden && node.dataset.key) {
    node.textContent = t(node.dataset.key, { reason: node.dataset.reason ?? "" });
  }
});

/**
 * Show an error in words; `code` (the protocol's error code) goes to data-code only.
 * @param {string} text
 * @param {string} [code]
 */
export function showError(text, code = "") {
  const node = $("error");
  node.textContent = text;
  node.dataset.code = code;
  node.hidden = !text;
}

// ---- Sending actions.

/**
 * Send the viewer's decision (one of the view's legal actions) with the step it was chosen
 * on; nothing while an action is on its way.
 * @param {GameAction} action
 */
export function send(action) {
  const view = client.view;
  if (!view || client.pending) return;
  if (!client.transport || !client.connected) {
    showError(t("error.offline"));
    return;
  }
  client.pending = true;
  showError("");
  client.transport.send({ type: "action", action, step: view.step });
  render();
}

// ---- Rendering.

/** Whether the page may send an action now: the link is open and no action is on its way. */
export function ready() {
  return client.connected && !client.pending;
}

/**
 * Whether the viewer can act now: the game says so, the link is open, and no action is on
 * its way.
 * @param {GameView} view
 * @returns {boolean}
 */
export function canAct(view) {
  return gameOf(view).yourTurn(view) && ready();
}

/** @type {GameModule | null} */
let shownGame = null;

/** Draw the table for the view on screen (nothing before the first view). */
export function render() {
  const view = client.view;
  if (!view) return;
  const game = gameOf(view);
  if (game !== shownGame) showGame(game);
  const root = $("table");
  root.dataset.game = game.name;
  root.dataset.step = String(view.step);
  root.dataset.phase = view.phase;
  root.dataset.seat = view.seat === null ? "" : String(view.seat);
  root.dataset.yourTurn = String(canAct(view));
  renderStatus(view, game);
  renderGameOver(view, game);
  game.render(view);
  renderLog();
  document.title = (game.yourTurn(view) ? t("title.turn") : "") + t(game.title, { table: client.table });
}

/** Show `game`'s panels (and hide every other game's), its name in the header, and its
 * lines of the keys' help.
 * @param {GameModule} game */
function showGame(game) {
  for (const other of GAMES.values()) $(other.board).hidden = other !== game;
  const heading = /** @type {HTMLElement} */ (document.querySelector(".top h1 a"));
  heading.replaceChildren(`${game.heading[0]} `, el("span", "", game.heading[1]));
  const help = /** @type {HTMLElement} */ ($("keys-help").querySelector("ul"));
  help.replaceChildren(...game.help.map((key) => {
    const item = el("li", "", t(key));
    item.dataset.i18n = key;
    return item;
  }));
  shownGame = game;
}

/**
 * @param {GameView} view
 * @param {GameModule} game
 */
function renderStatus(view, game) {
  const parts = game.status(view);
  parts.push(view.seat === null ? t("status.spectating") : t("status.you", { seat: view.seat }));
  $("status-line").textContent = parts.join(" \u00b7 ");
  const turn = $("turn-line");
  turn.className = "turn";
  if (game.isOver(view)) {
    const { winners } = game.finalScores(view, client.events);
    turn.textContent = t("turn.over", { count: winners.length, names: names(winners) });
    turn.classList.add("over");
  } else if (!client.connected) {
    turn.textContent = t("turn.lost");
    turn.classList.add("lost");
  } else {
    const { text, mine } = game.turn(view);
    turn.textContent = mine && client.pending ? t("turn.sent") : text;
    if (mine) turn.classList.add("mine");
  }
}

/** At the game's end: the standings, best first, each score labelled, ties sharing a place,
 * and "Play again" and "Back to the lobby".
 * @param {GameView} view
 * @param {GameModule} game */
function renderGameOver(view, game) {
  const box = $("game-over");
  box.hidden = !game.isOver(view);
  if (box.hidden) return;
  const { scores, winners } = game.finalScores(view, client.events);
  $("game-over-title").textContent = winners.length === 1 && winners[0] === view.seat ? t("over.youWon")
    : t("over.title", { count: winners.length, names: names(winners) });
  // Best first: the seats that could win before the others (out of the game), then by score.
  const order = scores.map((score, seat) => ({ seat, score, rank: game.contends(view, seat) ? 0 : 1 }))
    .sort((a, b) => a.rank - b.rank || b.score - a.score || a.seat - b.seat);
  const body = $("standings-body");
  body.replaceChildren();
  order.forEach(({ seat, score, rank }) => {
    const row = el("tr", winners.includes(seat) ? "winner" : "");
    row.dataset.seat = String(seat);
    if (seat === view.seat) row.classList.add("me");
    const place = 1 + order.filter((o) => o.rank < rank || (o.rank === rank && o.score > score)).length;
    const name = el("td", "name", seat === view.seat ? t("Seat.you", { seat }) : t("Seat", { seat }));
    if (winners.includes(seat)) name.append(" ", el("span", "badge winner", t("over.winner")));
    const note = game.standingNote(view, seat);
    if (note) name.append(" ", el("span", "badge note", note));
    row.append(el("td", "place", t("over.place", { n: place })), name,
      el("td", "score", game.scoreText(score)));
    body.append(row);
  });
  $("standings-place").textContent = t("over.placeHead");
  $("standings-player").textContent = t("over.playerHead");
  $("standings-score").textContent = t(game.scoreHead);
  $("again").textContent = t("over.again");
  const back = $("to-lobby");
  back.textContent = t("lobby.back");
  back.href = lobbyUrl();
}

let loggedCount = 0;
/** @type {string | null} */
let loggedLang = null;

/** Write the log: the game's lines for every event seen (the last 200), the new ones marked. */
function renderLog() {
  const log = $("log");
  if (!client.view || (loggedCount === client.events.length && loggedLang === language())) return;
  const lines = gameOf(client.view).logLines(client.events);
  const before = log.childElementCount;
  log.replaceChildren();
  // Oldest first, as a trick is played (the newest at the bottom, scrolled into sight
  // unless the reader scrolled up to read something older).
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  const shown = lines.slice(-200);
  const fresh = loggedLang === language() ? Math.max(0, lines.length - before) : 0;
  shown.forEach((line, i) => {
    const item = el("li", `event ev-${line.event}`, line.text);
    item.dataset.step = String(line.step ?? "");
    if (loggedCount && i >= shown.length - fresh) item.classList.add("fresh");
    log.append(item);
  });
  if (atEnd || !loggedCount) log.scrollTop = log.scrollHeight;
  loggedCount = client.events.length;
  loggedLang = language();
}

// ---- Keys: the help (?) and Escape here, the rest is the game's.

/** @param {KeyboardEvent} event */
function onKey(event) {
  if ($("table").hidden || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = /** @type {HTMLElement | null} */ (event.target);
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if (event.key === "?") {
    $("keys-help").hidden = !$("keys-help").hidden;
    event.preventDefault();
    return;
  }
  if (event.key === "Escape") $("keys-help").hidden = true;
  if (client.view) gameOf(client.view).keydown(event);
}

document.addEventListener("keydown", onKey);
// A new language redraws everything the client wrote.
onChange(() => render());

// ---- Following a table.

/**
 * Show the table and follow it through `transport`.
 * @param {Transport} transport
 */
export function connect(transport) {
  client.transport = transport;
  $("table").hidden = false;
  showLinks();
  transport.start({
    document: receive,
    status(kind, detail) {
      client.connected = kind === "open";
      if (kind !== "open") client.pending = false;
      if (kind === "connecting") setConnection("connection.connecting", "connecting");
      else if (kind === "open") setConnection("connection.open", "open");
      else if (kind === "refused") {
        setConnection("connection.refused", "closed");
        showGone(detail === REPLACED ? "replaced" : kind);
      } else if (kind === "missing") {
        setConnection("connection.missing", "closed");
        showGone(kind);
      } else {
        setConnection(detail ? "connection.tooMany" : "connection.closed", "closed", detail);
        render();
      }
    },
  });
}

/**
 * Take a message of the game's host: a view frame (drawn), a seat frame, an events document
 * (logged) or an error document (shown).
 * @param {ServerMessage} doc
 */
export function receive(doc) {
  if (!doc || typeof doc !== "object") return;
  if (doc.type === "view" && "view" in doc && doc.view) {
    const view = doc.view;
    const stepChanged = !client.view || client.view.step !== view.step;
    client.view = view;
    addEvents(view.events);
    // The frame's events: everything since the previous frame (on connecting: since `since`).
    if (Array.isArray(doc.events)) addEvents(doc.events);
    client.pending = false;
    if (stepChanged) client.lastError = null;
    if (stepChanged) showError("");
    render();
  } else if (doc.type === "seat") {
    holders = doc.connections;
    seatWords();
  } else if (doc.type === "events") {
    addEvents(doc.events);
    renderLog();
  } else if (doc.type === "error") {
    client.pending = false;
    client.lastError = doc;
    showError(client.view ? gameOf(client.view).errorText(doc) : doc.message || doc.code, doc.code);
    render();
  }
}

// ---- A seat's link: how many connections hold the seat, and replacing its link.

// How many connections hold this page's seat (the server's latest seat frame).
let holders = 0;

/** Show the seat's tools (a seat's page of this server only) and the notice that the seat is
 * open elsewhere too. */
function seatWords() {
  $("seat-tools").hidden = !client.token || !!window.shockHost || holders < 1;
  const notice = $("elsewhere");
  notice.hidden = holders < 2;
  notice.textContent = t("seat.elsewhere", { n: holders });
  $("replace-link").textContent = t("seat.replace");
}
onChange(() => seatWords());

/** Ask the server for a new link of this page's seat: the old one stops working (its other
 * connections are closed), and this page's address becomes the new link. */
async function replaceLink() {
  const transport = client.transport;
  const token = client.token;
  const seat = client.view ? client.view.seat : null;
  if (!transport || !token || !client.table || seat === null) return;
  const button = $("replace-link");
  const said = $("replaced");
  button.disabled = true;
  if (transport.hold) transport.hold();
  let next = token;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(client.table)}/seats/${seat}/token`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      cache: "no-store",
    });
    /** @type {Partial<SeatTokenAnswer> & { message?: string }} */
    const doc = await response.json().catch(() => ({}));
    if (!response.ok || typeof doc.token !== "string") {
      throw new Error(doc.message || t("lobby.httpError", { status: response.status }));
    }
    next = doc.token;
    client.token = next;
    history.replaceState(null, "", `${location.pathname}${location.search}#token=${encodeURIComponent(next)}`);
    said.textContent = t("seat.replaced");
  } catch (exc) {
    said.textContent = t("seat.replaceError", { reason: /** @type {Error} */ (exc).message });
  } finally {
    said.hidden = false;
    button.disabled = false;
    if (transport.retoken) transport.retoken(next);
  }
}

/** Show, instead of the board, that the link leads nowhere: `kind` is the transport's
 * "missing" (no such table) or "refused" (a token that is none of its seats'), or
 * "replaced" (refused: someone holding the seat replaced its link).
 * @param {"missing" | "refused" | "replaced"} kind
 */
function showGone(kind) {
  const missing = kind === "missing";
  $("table").hidden = true;
  $("lobby").hidden = true;
  const gone = $("gone");
  gone.hidden = false;
  gone.dataset.kind = kind;
  const table = client.table;
  $("gone-title").textContent = missing ? t("lobby.missingTitle", { table })
    : kind === "replaced" ? t("lobby.replacedTitle") : t("lobby.refusedTitle");
  $("gone-detail").textContent = missing ? t("lobby.missingDetail")
    : kind === "replaced" ? t("lobby.replacedDetail", { table }) : t("lobby.refusedDetail", { table });
  const watch = $("gone-watch");
  // A spectator's link of a table that exists still works: offer it for a refused token.
  watch.hidden = missing || !!window.shockHost;
  watch.textContent = t("lobby.watchInstead");
  watch.href = tableLink(/** @type {string} */ (table), null);
  const back = $("gone-back");
  back.textContent = t("lobby.back");
  back.href = lobbyUrl();
}

// ---- A table this tab created: the other seats' links, and "Play again".

/** At a table this tab created with more than one person's seat: the links to send, one per
 * person's seat (this page's own marked), and the spectators' link. */
function showLinks() {
  const created = recalled(client.table);
  const box = $("links");
  box.hidden = !created || created.seats.length < 2 || !!window.shockHost;
  if (!created || box.hidden) return;
  $("links-table").textContent = String(client.table);
  const list = $("seat-links");
  list.replaceChildren();
  for (const { seat, token } of created.seats) {
    const item = el("li", "seat-link");
    item.dataset.seat = String(seat);
    const mine = token === client.token;
    const link = el("a", "", mine ? t("lobby.yourSeat", { seat }) : t("lobby.playSeat", { seat }));
    link.href = tableLink(/** @type {string} */ (client.table), token);
    item.append(link);
    if (!mine) {
      const copy = el("input", "copy");
      copy.readOnly = true;
      copy.value = link.href;
      copy.setAttribute("aria-label", t("lobby.playSeat", { seat }));
      copy.addEventListener("focus", () => copy.select());
      item.append(copy);
    }
    list.append(item);
  }
  $("spectate-link").href = tableLink(/** @type {string} */ (client.table), null);
}
onChange(() => { if (!$("table").hidden) showLinks(); });

/** "Play again": a new table like this one. The tab that created it asks for the same table
 * again and goes to its seat; anyone else goes to the lobby with its choices filled in. */
async function playAgain() {
  const view = client.view;
  if (!view) return;
  const created = recalled(client.table);
  if (window.shockHost && created) {
    const game = await window.shockHost.create(created.body);
    client.table = game.table;
    restart();
    connect(game.transport);
    return;
  }
  if (created) {
    const button = $("again");
    button.disabled = true;
    try {
      await createAndSit(created.body);
    } catch (exc) {
      showError(t("lobby.createError", { reason: /** @type {Error} */ (exc).message }));
      button.disabled = false;
    }
    return;
  }
  const query = new URLSearchParams(gameOf(view).lobbyChoices(view));
  location.assign(`${lobbyUrl()}?${query}`);
}

/** Forget the finished game's page state before a new game shows in this page. */
function restart() {
  if (client.view) gameOf(client.view).reset();
  client.view = null;
  client.events = [];
  client.eventKeys = new Set();
  client.pending = false;
  loggedCount = 0;
  loggedLang = null;
  $("log").replaceChildren();
  $("game-over").hidden = true;
}

/** Wire the table's own buttons (once, as the page starts). */
export function startTable() {
  $("keys-button").addEventListener("click", () => { $("keys-help").hidden = !$("keys-help").hidden; });
  $("replace-link").addEventListener("click", () => { replaceLink(); });
  $("again").addEventListener("click", () => { playAgain(); });
}
