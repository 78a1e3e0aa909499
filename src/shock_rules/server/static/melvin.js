// Melvin Vs. Kronk at the table: every seat's discard top (large, turned up with a flip as it
// comes), its piles, Gem cards and penalties in force; the viewer's Gem cards, the big "Turn
// up" and "Slap!" buttons, and in an award window the choice of the Gem card to keep and the
// seat to give the other to; the special cards as buttons when they are legal. Keys: F or
// Enter turns up, Space slaps, 1-9 choose among the other buttons.
// The game module of Melvin Vs. Kronk for the shell (shell.js; GameModule in
// web/types/client.d.ts): its view documents are "game": "melvin" (web/types/melvin.d.ts).
// @ts-check
/** @typedef {import("../../../../web/types/melvin").MelvinViewDocument} MelvinView */
/** @typedef {import("../../../../web/types/melvin").MelvinEvent} MelvinEvent */
/** @typedef {import("../../../../web/types/melvin").MelvinAction} MelvinAction */
/** @typedef {import("../../../../web/types/melvin").GemCard} GemCard */
/** @typedef {import("../../../../web/types/melvin").PenaltyCard} PenaltyCard */
/** @typedef {import("../../../../web/types/client").GameModule} GameModule */
/** @typedef {import("../../../../web/types/client").GameView} GameView */
/** @typedef {import("../../../../web/types/client").GameEvent} GameEvent */
/** @typedef {import("../../../../web/types/client").LogLine} LogLine */
/** @typedef {import("../../../../web/types/client").TableKey} TableKey */

import { $, el } from "./dom.js";
import { addMessages, t } from "./i18n.js";
import { MELVIN_MESSAGES } from "./melvin-words.js";
import { client, names, ready, seatName, send } from "./shell.js";

addMessages(MELVIN_MESSAGES);

const GEM = "\u25c6";

/** What the table remembers between two drawings of it: each seat's top as last drawn (a new
 * one turns up with a flip, once). */
const shown = {
  /** @type {string[]} */
  tops: [],
};

/**
 * Return Melvin's view: the shell hands this module Melvin's documents only.
 * @param {GameView} view
 * @returns {MelvinView}
 */
function melvinView(view) {
  if (!("game" in view) || view.game !== "melvin") throw new TypeError("not a view of Melvin Vs. Kronk");
  return view;
}

/**
 * Return the view's events as Melvin's: the shell keeps one table's events, and this
 * module shows Melvin's tables only.
 * @param {readonly GameEvent[]} events
 * @returns {MelvinEvent[]}
 */
const melvinEvents = (events) => /** @type {MelvinEvent[]} */ ([...events]);

// ---- Cards in words.

/** @param {GemCard} card */
export function gemName(card) {
  return card.startsWith("G") ? t("melvin.gemShort", { n: card.slice(1) }) : t(`special.${card}`);
}

/** @param {readonly GemCard[]} cards */
const gemList = (cards) => cards.map(gemName).join(", ");

/** @param {PenaltyCard} card */
const penaltyName = (card) => t(`penalty.${card}`);

const PENALTIES = new Set(["Mao", "Olho", "Cartas", "Duas"]);

/**
 * Return a card an event names in words: a Penalty card, or a Gem card.
 * @param {GemCard | PenaltyCard} card
 */
function cardName(card) {
  return PENALTIES.has(card) ? penaltyName(/** @type {PenaltyCard} */ (card)) : gemName(/** @type {GemCard} */ (card));
}

/** @param {number} face */
const faceName = (face) => String(face);

/**
 * Return whether two or more tops show the same face (M6), and which faces do.
 * @param {MelvinView} view
 * @returns {Set<number>}
 */
function matchingFaces(view) {
  /** @type {Map<number, number>} */
  const counts = new Map();
  for (const face of view.tops) if (face !== null) counts.set(face, (counts.get(face) || 0) + 1);
  return new Set([...counts].filter(([, n]) => n > 1).map(([face]) => face));
}

/**
 * The viewer's legal actions by kind.
 * @param {MelvinView} view
 * @returns {Map<string, MelvinAction[]>}
 */
function byKind(view) {
  /** @type {Map<string, MelvinAction[]>} */
  const kinds = new Map();
  for (const action of view.legal_actions) {
    const kind = action.kind ?? "";
    kinds.set(kind, [...(kinds.get(kind) || []), action]);
  }
  return kinds;
}

/**
 * Whether the viewer is asked to act: its turn to turn up, a match to slap, its Gem cards to
 * choose, or a special card it may play in an award window.
 * @param {MelvinView} view
 */
function asked(view) {
  const kinds = byKind(view);
  return kinds.has("flip") || kinds.has("award") || kinds.has("orcolar") || kinds.has("amuleto")
    || kinds.has("oculos") || (kinds.has("slap") && matchingFaces(view).size > 0);
}

// ---- Drawing the table.

/** @param {MelvinView} view */
function render(view) {
  renderSeats(view);
  renderMine(view);
  renderDecks(view);
}

/**
 * Return a Versus card as an element: its face, large (null: an empty pile).
 * @param {number | null} face
 * @returns {HTMLElement}
 */
function versusCard(face) {
  const node = el("span", face === null ? "vcard empty" : "vcard");
  if (face === null) {
    node.textContent = "\u2014";
    node.setAttribute("aria-label", t("melvin.noCard"));
    return node;
  }
  node.dataset.face = String(face);
  node.append(el("span", "face", faceName(face)));
  node.setAttribute("aria-label", t("melvin.versus", { face }));
  return node;
}

/** @param {MelvinView} view */
function renderSeats(view) {
  const box = $("melvin-seats");
  box.replaceChildren();
  const matches = matchingFaces(view);
  view.tops.forEach((face, seat) => {
    const item = el("div", "mseat");
    item.dataset.seat = String(seat);
    if (seat === view.seat) item.classList.add("me");
    if (!view.in_game[seat]) item.classList.add("out");
    if (seat === view.to_move) item.classList.add("to-move");
    const title = el("div", "seat-title");
    title.append(el("strong", "", seat === view.seat ? t("Seat.you", { seat }) : t("Seat", { seat })));
    if (!view.in_game[seat]) title.append(el("span", "badge out", t("melvin.out")));
    else if (seat === view.to_move) title.append(el("span", "badge to-move", t("melvin.toMove")));
    if (seat === view.award_winner) title.append(el("span", "badge winner", t("melvin.slapWinner")));
    item.append(title);

    const card = versusCard(face);
    // A top not drawn before turns up with a flip (the pile grew, or changed face).
    const key = `${face}:${view.discard_sizes[seat]}`;
    if (face !== null && shown.tops[seat] !== undefined && shown.tops[seat] !== key) card.classList.add("turn-up");
    shown.tops[seat] = key;
    if (face !== null && matches.has(face)) card.classList.add("match");
    const piles = el("div", "piles");
    piles.append(card);
    const counts = el("div", "counts");
    const draw = el("span", "draw", t("melvin.draw", { n: view.draw_sizes[seat] }));
    draw.dataset.n = String(view.draw_sizes[seat]);
    counts.append(draw, el("span", "pile", t("melvin.pile", { n: view.discard_sizes[seat] })));
    const gems = el("span", "gem-count", `${GEM} ${t("melvin.gems", { n: view.gem_counts[seat] })}`);
    gems.dataset.n = String(view.gem_counts[seat]);
    counts.append(gems);
    const known = view.gems[seat];
    if (known && seat !== view.seat && known.length) counts.append(el("span", "gem-list", gemList(known)));
    piles.append(counts);
    item.append(piles);

    const penalties = view.penalties[seat];
    if (penalties.length) {
      const row = el("div", "penalties");
      row.append(el("span", "k", t("melvin.penalties")));
      for (const card of penalties) {
        const badge = el("span", "badge penalty", penaltyName(card));
        badge.dataset.penalty = card;
        badge.title = t(`penalty.${card}.what`);
        row.append(badge);
      }
      item.append(row);
    }
    box.append(item);
  });
}

/**
 * Return a button that sends `action` (a key's number shown when it has one).
 * @param {MelvinAction} action
 * @param {string} label
 * @param {string} className
 * @returns {HTMLButtonElement}
 */
function actionButton(action, label, className) {
  const button = el("button", `action ${className}`, label);
  button.type = "button";
  button.dataset.notation = action.notation;
  button.addEventListener("click", () => send(action.notation));
  return button;
}

/** @param {MelvinView} view */
function renderMine(view) {
  const mine = view.seat !== null;
  $("melvin-mine").hidden = !mine;
  if (view.seat === null) return;
  // Real time: whatever is legal may be sent at once, asked for or not (a slap with no match
  // is a wrong slap, R8, but a legal one).
  const active = ready();
  const kinds = byKind(view);
  const own = view.gems[view.seat] || [];
  $("melvin-mine-title").textContent = t("melvin.mine", { n: own.length });
  const gems = $("melvin-gems");
  gems.replaceChildren(...own.map((card) => {
    const node = el("span", card.startsWith("G") ? "gcard" : "gcard special", gemName(card));
    node.dataset.gem = card;
    if (!card.startsWith("G")) node.title = t(`special.${card}.what`);
    return node;
  }));
  if (!own.length) gems.append(el("span", "none", t("melvin.noGems")));

  const flip = /** @type {HTMLButtonElement} */ ($("melvin-flip"));
  const flips = kinds.get("flip") || [];
  flip.textContent = t("melvin.flip");
  flip.disabled = !active || !flips.length;
  flip.dataset.notation = flips.length ? flips[0].notation : "";
  const slap = /** @type {HTMLButtonElement} */ ($("melvin-slap"));
  const slaps = kinds.get("slap") || [];
  slap.textContent = t("melvin.slap");
  slap.disabled = !active || !slaps.length;
  slap.dataset.notation = slaps.length ? slaps[0].notation : "";
  slap.classList.toggle("match", matchingFaces(view).size > 0);

  const drawn = $("melvin-drawn");
  drawn.hidden = !view.award_drawn;
  if (view.award_drawn) {
    drawn.replaceChildren(el("span", "k", t("melvin.drawn")), ...view.award_drawn.map((card) => {
      const node = el("span", card.startsWith("G") ? "gcard" : "gcard special", gemName(card));
      node.dataset.gem = card;
      return node;
    }));
  }
  const choices = $("melvin-choices");
  choices.replaceChildren();
  if (!active) return;
  for (const action of view.legal_actions) {
    const label = choiceLabel(view, action);
    if (label) choices.append(actionButton(action, label, action.kind ?? ""));
  }
  // 1-9: the choices in order (the keys' help says so).
  [...choices.querySelectorAll("button")].forEach((button, i) => {
    if (i < 9) button.dataset.key = String(i + 1);
  });
}

/**
 * Return the words of a choice's button (an award, a special card), or "" for the flip and
 * the slap, which have their own buttons.
 * @param {MelvinView} view
 * @param {MelvinAction} action
 * @returns {string}
 */
function choiceLabel(view, action) {
  switch (action.kind) {
    case "award": {
      const keep = /** @type {GemCard} */ (action.keep);
      if (action.give === null || action.give === undefined) return t("melvin.keep", { keep: gemName(keep) });
      const drawn = [...(view.award_drawn || [])];
      drawn.splice(drawn.indexOf(keep), 1);
      const other = drawn.length ? gemName(drawn[0]) : "?";
      return t("melvin.keepGive", { keep: gemName(keep), other, who: seatName(action.give) });
    }
    case "orcolar": return t("melvin.orcolar");
    case "amuleto": return t("melvin.amuleto");
    case "toalha": return t("melvin.toalha", { who: seatName(action.target) });
    case "oculos":
      return t("melvin.oculos", { card: gemName(/** @type {GemCard} */ (action.card)), who: seatName(action.target) });
    default: return "";
  }
}

/** @param {MelvinView} view */
function renderDecks(view) {
  const parts = [t("melvin.gemDeck", { n: view.gem_deck_size }), t("melvin.penaltyDeck", { n: view.penalty_deck_size })];
  if (view.played.length) parts.push(t("melvin.played", { cards: view.played.map((c) => t(`special.${c}`)).join(", ") }));
  $("melvin-decks").textContent = parts.join(" \u00b7 ");
}

// ---- The turn line.

/**
 * @param {MelvinView} view
 * @returns {{ text: string, mine: boolean }}
 */
function turn(view) {
  const kinds = byKind(view);
  if (view.seat !== null && !view.in_game[view.seat]) return { text: t("melvin.turn.out"), mine: false };
  if (kinds.has("award")) return { text: t("melvin.turn.award"), mine: true };
  if (view.award_winner !== null) {
    const special = kinds.has("orcolar") || kinds.has("amuleto");
    return {
      text: t("melvin.turn.choosing", { who: seatName(view.award_taker ?? view.award_winner) })
        + (special ? ` \u2014 ${t("melvin.turn.special")}` : ""),
      mine: special,
    };
  }
  if (kinds.has("slap") && matchingFaces(view).size > 0) return { text: t("melvin.turn.match"), mine: true };
  if (kinds.has("flip")) return { text: t("melvin.turn.flip"), mine: true };
  if (view.to_move !== null) return { text: t("melvin.turn.waiting", { who: seatName(view.to_move) }), mine: false };
  return { text: t("melvin.turn.none"), mine: false };
}

// ---- The log.

/**
 * Return an event in words.
 * @param {MelvinEvent} e
 * @returns {string}
 */
export function describe(e) {
  switch (e.event) {
    case "DealerChosen":
      return t("mev.dealt", {
        who: seatName(e.dealer), first: seatName((e.dealer + 1) % e.cards.length),
        cards: e.cards.map((n, seat) => t("mev.dealtSeat", { who: seatName(seat), n })).join(", "),
      });
    case "CardTurnedUp":
      return t(e.turn ? "mev.turnedUp" : "mev.turnedUpAgain", { who: seatName(e.seat), face: faceName(e.face) });
    case "MatchSlapped": return t("mev.slapped", { who: seatName(e.seat), maker: seatName(e.maker) });
    case "WrongSlap": return t("mev.wrongSlap", { who: seatName(e.seat) });
    case "PenaltyTaken":
      return t("mev.penalty", { who: seatName(e.seat), card: cardName(e.card), what: t(`penalty.${e.card}.what`) });
    case "GemsSeen": return t("mev.seen", { who: seatName(e.seat), cards: e.cards.map(cardName).join(", ") });
    case "HiddenGemsSeen": return t("mev.seenHidden", { who: seatName(e.seat), n: e.count });
    case "GemKept": return t("mev.kept", { who: seatName(e.seat), card: cardName(e.card) });
    case "HiddenGemKept": return t("mev.keptHidden", { who: seatName(e.seat) });
    case "GemGiven":
      return t("mev.given", { who: seatName(e.seat), card: cardName(e.card), receiver: seatName(e.receiver) });
    case "HiddenGemGiven": return t("mev.givenHidden", { who: seatName(e.seat), receiver: seatName(e.receiver) });
    case "PilesCollected": return t("mev.collected", { who: seatName(e.seat), n: e.cards });
    case "PenaltiesReturned": return t("mev.penaltiesEnd", { cards: e.cards.map(cardName).join(", ") });
    case "Eliminated": return t("mev.eliminated", { who: seatName(e.seat) });
    case "CardMoved":
      return t("mev.moved", { source: seatName(e.source), receiver: seatName(e.receiver), face: faceName(e.face) });
    case "HiddenCardMoved": return t("mev.movedHidden", { source: seatName(e.source), receiver: seatName(e.receiver) });
    case "ToalhaPlayed": return t("mev.toalha", { who: seatName(e.seat), target: seatName(e.target) });
    case "OrcolarPlayed": return t("mev.orcolar", { who: seatName(e.seat) });
    case "AmuletoPlayed": return t("mev.amuleto", { who: seatName(e.seat), maker: seatName(e.maker) });
    case "CardReturned": return t("mev.returned", { who: seatName(e.seat), face: faceName(e.face) });
    case "OculosPlayed": return t("mev.oculos", { who: seatName(e.seat), target: seatName(e.target) });
    case "GemTaken":
      return t("mev.taken", { who: seatName(e.seat), card: cardName(e.card), target: seatName(e.target) });
    case "HiddenGemTaken": return t("mev.takenHidden", { who: seatName(e.seat), target: seatName(e.target) });
    case "GameEnded":
      return t("mev.ended", {
        reason: t(`reason.${e.reason}`), count: e.winners.length, names: names(e.winners),
        scores: e.scores.map((n, seat) => `${seatName(seat)} ${n}`).join(", "),
      });
    // An event this client does not know (a newer protocol's): the types say there is none.
    default: return /** @type {MelvinEvent} */ (e).event;
  }
}

/**
 * The final scores (the gems each seat keeps, M15) and the winners.
 * @param {MelvinView} view
 * @param {MelvinEvent[]} events
 * @returns {{ scores: number[], winners: number[] }}
 */
function finalScores(view, events) {
  const end = [...events].reverse().find((e) => e.event === "GameEnded");
  if (end && end.event === "GameEnded") return { scores: end.scores, winners: end.winners };
  // Before the end event arrives: each seat's known cards (all of them at the end, M30).
  const scores = view.gems.map((cards) => (cards || []).reduce((sum, c) => sum + (c.startsWith("G") ? Number(c.slice(1)) : 1), 0));
  const best = Math.max(...scores.filter((_, seat) => view.in_game[seat]));
  return { scores, winners: scores.flatMap((s, seat) => (view.in_game[seat] && s === best ? [seat] : [])) };
}

// The big buttons: each sends the viewer's legal action of its kind.
for (const [id, kind] of [["melvin-flip", "flip"], ["melvin-slap", "slap"]]) {
  $(id).addEventListener("click", () => {
    const view = client.view ? melvinView(client.view) : null;
    const action = view && view.legal_actions.find((a) => a.kind === kind);
    if (action) send(action.notation);
  });
}

// ---- Keys: F or Enter turns up, Space slaps, 1-9 choose.

/** @param {TableKey} event */
function keydown(event) {
  const key = event.key;
  /** @type {HTMLButtonElement | null} */
  let button = null;
  if (key === "f" || key === "F" || key === "Enter") button = /** @type {HTMLButtonElement} */ ($("melvin-flip"));
  else if (key === " " || key === "Spacebar") button = /** @type {HTMLButtonElement} */ ($("melvin-slap"));
  else if (/^[1-9]$/.test(key)) button = document.querySelector(`#melvin-choices button[data-key="${key}"]`);
  if (!button) return;
  // Always taken (a focused button's own Space or Enter would act a second time, and Space
  // would scroll the page); a disabled button does nothing.
  event.preventDefault();
  if (!button.disabled) button.click();
}

/** Melvin Vs. Kronk, for the shell.
 * @type {GameModule} */
export const MELVIN = {
  name: "melvin",
  board: "melvin-board",
  title: "melvin.title",
  heading: ["Melvin", "Vs. Kronk"],
  help: ["melvin.help.flip", "melvin.help.slap", "melvin.help.choose", "help.toggle"],
  scoreHead: "melvin.scoreHead",
  yourTurn: (view) => asked(melvinView(view)),
  isOver: (view) => melvinView(view).phase === "over",
  status: () => [t("melvin.name")],
  turn: (view) => turn(melvinView(view)),
  render: (view) => render(melvinView(view)),
  finalScores: (view, events) => finalScores(melvinView(view), melvinEvents(events)),
  scoreText: (score) => t("over.gems", { n: score }),
  standingNote: (view, seat) => (melvinView(view).in_game[seat] ? "" : t("melvin.out")),
  // M15, M25: an eliminated player keeps its Gem cards but cannot win.
  contends: (view, seat) => melvinView(view).in_game[seat],
  logLines: (events) => melvinEvents(events).map((e) => ({ event: e.event, step: e.step, text: describe(e) })),
  keydown,
  reset() {
    shown.tops = [];
  },
  errorText(error) {
    // A race lost (too_late, with the seat that came first), or an action decided on a view
    // the table has left since: said in words, with no penalty.
    // (too_late: the code of a protocol that judges real-time races, newer than some hosts)
    const code = /** @type {string} */ (error.code);
    if (code === "too_late") {
      const winner = "winner" in error && typeof error.winner === "number" ? error.winner : null;
      return t("melvin.tooLate", { who: seatName(winner) });
    }
    if (code === "stale_step") return t("melvin.stale");
    // `shock-rules serve` locks a seat that slaps too often out of slapping for a moment.
    if (code === "too_fast") return t("melvin.tooFast");
    return error.message || error.code;
  },
  lobbyChoices(view) {
    return { game: "melvin", players: String(melvinView(view).config.players) };
  },
};
