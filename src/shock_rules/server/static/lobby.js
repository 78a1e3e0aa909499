// The lobby: the form of a new table (the game, players, variant or bots' speed, who sits
// where), the list of open tables of `shock-rules serve` (each with its game), and the rules
// link. A table of either game is created at the server (POST /api/tables, "game": "melvin"
// for Melvin Vs. Kronk), or in this page when the in-browser build's host is there
// (window.shockHost).
// @ts-check
/** @typedef {import("../../../../web/types/client").TableRequest} TableRequest */
/** @typedef {import("../../../../web/types/client").OpenTable} OpenTable */
/** @typedef {import("../../../../web/types/client").OpenTablesAnswer} OpenTablesAnswer */

import { createAndSit, remember, tableLink } from "./created.js";
import { $, el } from "./dom.js";
import { onChange, t } from "./i18n.js";
import { client, connect } from "./shell.js";

/** Each game's choices: its numbers of players, the bots a seat may have and a new seat's
 * bot, and whether it has variants (Shock!) or its bots a speed (Melvin Vs. Kronk's reaction
 * bots, by their mean reaction time in seconds: "reaction:0.6"). */
const GAMES = {
  shock: { players: [3, 4, 5], bots: ["random", "heuristic", "mcts"], bot: "heuristic", variants: true, speed: false },
  melvin: { players: [3, 4, 5, 6], bots: ["reaction"], bot: "reaction", variants: false, speed: true },
};

/** Return the game chosen in the form. */
function chosenGame() {
  return $("game").value === "melvin" ? GAMES.melvin : GAMES.shock;
}

/** Offer the chosen game's choices: its numbers of players (the one chosen kept when it
 * fits), its variants or its bots' speed, and its seats. */
function gameChoices() {
  const game = chosenGame();
  const players = $("players");
  const was = players.value;
  players.replaceChildren(...game.players.map((n) => {
    const option = el("option", "", String(n));
    option.value = String(n);
    return option;
  }));
  players.value = game.players.includes(Number(was)) ? was : "4";
  $("variant-choice").hidden = !game.variants;
  $("speed-choice").hidden = !game.speed;
  $("rules-link").href = game === GAMES.melvin ? MELVIN_RULES_URL : RULES_URL;
  seatChoices();
}

// The lobby's words, from i18n.js (read when used, so a language switch shows at once).
const LOBBY_TEXT = {
  get listed() { return t("lobby.listed"); },
  get rules() { return t("lobby.rules"); },
  get openTables() { return t("lobby.openTables"); },
  get openTablesEmpty() { return t("lobby.openTablesEmpty"); },
  get openTablesError() { return t("lobby.openTablesError"); },
  players: (/** @type {number} */ n) => t("lobby.players", { n }),
  round: (/** @type {number} */ r) => t("lobby.round", { round: r }),
  get over() { return t("lobby.over"); },
  persons: (/** @type {number} */ n, /** @type {number} */ here) => t("lobby.persons", { n, here }),
  variant: (/** @type {string} */ name) => t(`variant.${name}`),
  table: (/** @type {string} */ id) => t("lobby.tableId", { table: id }),
  age: (/** @type {number} */ seconds) => (seconds < 60 ? t("lobby.ageNow")
    : seconds < 3600 ? t("lobby.ageMinutes", { n: Math.floor(seconds / 60) })
      : seconds < 86400 ? t("lobby.ageHours", { n: Math.floor(seconds / 3600) })
        : t("lobby.ageDays", { n: Math.floor(seconds / 86400) })),
  botAt: (/** @type {string} */ name, /** @type {string} */ seat) => t("lobby.botAt", { name: botName(name), seat }),
  bots: (/** @type {string[]} */ list) => (list.length ? t("lobby.bots", { list: list.join(", ") }) : t("lobby.noBots")),
  get playing() { return t("lobby.playing"); },
  game: (/** @type {string} */ name) => t(`game.${name}`),
  get watch() { return t("lobby.watch"); },
};
/**
 * Return a bot's name in words: its kind, and a reaction bot's mean reaction time when its
 * name carries one ("reaction:0.3": "reaction, 0.3 s").
 * @param {string} name
 */
function botName(name) {
  const [kind, seconds] = name.split(":");
  const word = t(`bot.${kind}`);
  return seconds === undefined ? word : t("lobby.botSpeed", { name: word, seconds: Number(seconds) });
}

// The players' page of the documentation named by pyproject.toml ([project.urls]
// Documentation), "How to play" (the numbered rules are for implementers): the one place to
// change if the documentation moves.
const RULES_URL = "https://github.com/shock-rules/shock-rules/blob/main/docs/play.md";
// Melvin Vs. Kronk's players' page, beside it: the link follows the game chosen.
const MELVIN_RULES_URL = "https://github.com/shock-rules/shock-rules/blob/main/docs/melvin/play.md";
// How often the open tables are asked for while the lobby shows: a table's round moves
// slowly, and every open lobby costs the server one request per period.
const OPEN_TABLES_EVERY_MS = 10000;
/** @type {number | null} */
let openTablesTimer = null;

/** Ask for the open tables and show them; again every OPEN_TABLES_EVERY_MS while the lobby
 * shows (a hidden tab skips its turns: nobody reads it). */
async function refreshOpenTables() {
  clearTimeout(openTablesTimer ?? undefined);
  openTablesTimer = null;
  if ($("lobby").hidden || window.shockHost) return;
  if (!document.hidden) {
    const error = $("open-tables-error");
    try {
      const response = await fetch("/api/tables", { headers: { Accept: "application/json" } });
      /** @type {Partial<OpenTablesAnswer> | null} */
      const doc = await response.json();
      if (!response.ok || !doc || !Array.isArray(doc.tables)) {
        throw new Error(`the server answered ${response.status}`);
      }
      showOpenTables(doc.tables);
      error.hidden = true;
    } catch {
      // The last list stays: a server restarting for a moment should not empty it.
      error.textContent = LOBBY_TEXT.openTablesError;
      error.hidden = false;
    }
  }
  if (!$("lobby").hidden && openTablesTimer === null) {
    openTablesTimer = setTimeout(refreshOpenTables, OPEN_TABLES_EVERY_MS);
  }
}

/**
 * Show the list of open tables (as `GET /api/tables` gives them) with a Watch link each: a
 * Shock! table's players, variant and round, a Melvin Vs. Kronk table's name and players
 * (it has neither variant nor rounds).
 * @param {OpenTable[]} tables
 */
function showOpenTables(tables) {
  const list = $("open-tables-list");
  list.replaceChildren();
  for (const open of tables) {
    const table = String(open.table);
    const item = el("li", "open-table");
    item.dataset.table = table;
    // (a server of before games had no "game": its tables are Shock!'s)
    const game = open.game === "melvin" ? "melvin" : "shock";
    item.dataset.game = game;
    const bots = Object.entries(open.bots || {}).map(([seat, name]) => LOBBY_TEXT.botAt(name, seat));
    const state = open.over ? LOBBY_TEXT.over
      : game === "melvin" ? LOBBY_TEXT.playing : LOBBY_TEXT.round(Number(open.round));
    const what = [
      ...(game === "melvin" ? [LOBBY_TEXT.game(game)] : []),
      LOBBY_TEXT.players(open.players),
      ...(game === "melvin" ? [] : [LOBBY_TEXT.variant(String(open.variant))]),
      state, LOBBY_TEXT.persons(open.persons, open.seated), LOBBY_TEXT.bots(bots), LOBBY_TEXT.age(open.age),
    ].join(" \u00b7 ");
    const link = el("a", "watch", LOBBY_TEXT.watch);
    link.href = tableLink(table, null);
    const head = el("strong", "open-table-id", LOBBY_TEXT.table(table));
    item.append(head, el("span", "open-table-what", what), link);
    list.append(item);
  }
  const empty = $("open-tables-empty");
  empty.textContent = LOBBY_TEXT.openTablesEmpty;
  empty.hidden = tables.length > 0;
}

/** Offer, for each seat of the chosen number of players, a person or one of the bots (the
 * choices made so far kept). */
function seatChoices() {
  const players = Number($("players").value);
  const box = $("seat-choices");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let seat = 0; seat < players; seat++) {
    const label = el("label", "seat-choice", `${t("Seat", { seat })} `);
    const select = el("select");
    select.name = `seat-${seat}`;
    select.dataset.seat = String(seat);
    const { bots, bot } = chosenGame();
    for (const kind of ["person", ...bots]) {
      const option = el("option", "", kind === "person" ? t("lobby.person") : t("lobby.bot", { name: t(`bot.${kind}`) }));
      option.value = kind;
      select.append(option);
    }
    const kept = old[seat] && (old[seat] === "person" || bots.includes(old[seat]));
    select.value = kept ? old[seat] : seat === 0 ? "person" : bot;
    label.append(select);
    box.append(label);
  }
}

/** @param {SubmitEvent} event */
async function createTable(event) {
  event.preventDefault();
  const melvin = chosenGame() === GAMES.melvin;
  /** @type {Record<string, string>} */
  const bots = {};
  for (const select of $("seat-choices").querySelectorAll("select")) {
    if (select.value === "person") continue;
    // A reaction bot's name carries its speed ("reaction:0.6").
    bots[/** @type {string} */ (select.dataset.seat)] = melvin ? `${select.value}:${$("speed").value}` : select.value;
  }
  /** @type {TableRequest} */
  const body = melvin ? { game: "melvin", players: Number($("players").value), bots }
    : { players: Number($("players").value), variant: $("variant").value, bots };
  // The in-page host has no lobby to list a table in (nor the field).
  if (!window.shockHost) body.listed = $("listed").checked;
  const error = $("create-error");
  error.hidden = true;
  $("create").disabled = true;
  try {
    if (window.shockHost) {
      // The in-browser build: the game runs in this page, the person seat is this page's.
      const game = await window.shockHost.create(body);
      $("lobby").hidden = true;
      client.table = game.table;
      remember(game.table, { body, seats: [] });
      connect(game.transport);
      $("keys-button").hidden = false;
      return;
    }
    await createAndSit(body);
  } catch (exc) {
    error.textContent = t("lobby.createError", { reason: /** @type {Error} */ (exc).message });
    error.hidden = false;
  } finally {
    $("create").disabled = false;
  }
}

/** Fill in the lobby's rules link, its listed box and its open tables (none of them for the
 * in-page host, which has no list of tables). */
function showLobbyExtras() {
  lobbyWords();
  const hosted = !!window.shockHost;
  $("listed-choice").hidden = hosted;
  $("open-tables").hidden = hosted;
  if (hosted) return;
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && !$("lobby").hidden) refreshOpenTables();
  });
  refreshOpenTables();
}

/** Write the lobby's words that come from this file (the rest are data-i18n). */
function lobbyWords() {
  $("rules-link").textContent = LOBBY_TEXT.rules;
  $("listed-label").textContent = LOBBY_TEXT.listed;
  $("open-tables-title").textContent = LOBBY_TEXT.openTables;
}

// A new language redraws the lobby too, when it shows.
onChange(() => {
  if ($("lobby").hidden) return;
  seatChoices();
  lobbyWords();
  if (!window.shockHost) refreshOpenTables();
});

/**
 * Show the lobby, its choices filled in from the address's query (the "Play again" of a table
 * this tab did not create; ?game=melvin).
 * @param {URLSearchParams} params
 */
export function openLobby(params) {
  $("lobby").hidden = false;
  // The keys play a table; the lobby has nothing for them to do.
  $("keys-button").hidden = true;
  $("players").addEventListener("change", seatChoices);
  $("game").addEventListener("change", gameChoices);
  $("create-form").addEventListener("submit", createTable);
  // Both games, at a server as in the page; ?game=melvin opens the lobby on Melvin Vs. Kronk.
  $("game-choice").hidden = false;
  if (params.get("game") === "melvin") $("game").value = "melvin";
  gameChoices();
  const players = params.get("players");
  const variant = params.get("variant");
  if (players && [...$("players").options].some((o) => o.value === players)) $("players").value = players;
  if (variant && [...$("variant").options].some((o) => o.value === variant)) $("variant").value = variant;
  seatChoices();
  showLobbyExtras();
}
