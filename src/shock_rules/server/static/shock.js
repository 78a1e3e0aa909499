// Shock! Knights & Poisons at the table: the board (trump, trick, last trick, chest and its
// odds), the viewer's hand and buttons, the seats, and the keys that play without a mouse.
// The game module of Shock! for the shell (shell.js; GameModule in web/types/client.d.ts):
// its view documents are shock-rules/2's ViewDocument, which has no "game".
// @ts-check
/** @typedef {import("../../../../web/types/protocol").ViewDocument} ViewDocument */
/** @typedef {import("../../../../web/types/protocol").Event} ProtocolEvent */
/** @typedef {import("../../../../web/types/protocol").Card} Card */
/** @typedef {import("../../../../web/types/protocol").Seat} Seat */
/** @typedef {import("../../../../web/types/protocol").CardAction} CardAction */
/** @typedef {import("../../../../web/types/protocol").CardActionKind} CardActionKind */
/** @typedef {import("../../../../web/types/protocol").CardPlayed} CardPlayed */
/** @typedef {import("../../../../web/types/protocol").HiddenCardPlayed} HiddenCardPlayed */
/** @typedef {import("../../../../web/types/protocol").TrickWon} TrickWon */
/** @typedef {import("../../../../web/types/protocol").TrickAbandoned} TrickAbandoned */
/** @typedef {import("../../../../web/types/client").GameModule} GameModule */
/** @typedef {import("../../../../web/types/client").GameView} GameView */
/** @typedef {import("../../../../web/types/client").TableKey} TableKey */

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import {
  GEM, SUIT_SYMBOL, cardElement, cardText, chestElement, chestOdds, gems, logLines,
  poisonName, potionIcon,
} from "./shock-cards.js";
import { canAct, client, render, send, seatName } from "./shell.js";

/** What the table remembers between two drawings of it. */
const mode = {
  /** Whether the hand offers its cards to withdraw with (the W button, or key). */
  withdraw: false,
  /** The trick's cards already drawn (only new ones animate). */
  trickShown: /** @type {Set<string>} */ (new Set()),
  /** The last trick drawn (it animates once, when it is new). */
  lastTrickKey: /** @type {string | null} */ (null),
};

/**
 * Return Shock!'s view: the shell hands this module Shock!'s documents only.
 * @param {GameView} view
 * @returns {ViewDocument}
 */
function shockView(view) {
  if ("game" in view) throw new TypeError(`not a view of Shock!: a view of ${view.game}`);
  return view;
}

/**
 * The final scores (gems in each bag, K: the game's end) and the winners.
 * @param {ViewDocument} view
 * @returns {{ scores: number[], winners: Seat[] }}
 */
function finalScores(view) {
  const events = /** @type {ProtocolEvent[]} */ (client.events);
  const end = [...events].reverse().find((e) => e.event === "GameEnded");
  const scores = end ? end.scores : view.seats.map((s) => s.in_bag);
  const best = Math.max(...scores);
  const winners = end ? end.winners : scores.flatMap((s, i) => (s === best ? [i] : []));
  return { scores, winners };
}

/**
 * @param {ViewDocument} view
 * @returns {string}
 */
function turnHint(view) {
  const kinds = new Set(view.legal_actions.map((a) => a.kind));
  if (mode.withdraw) return t("hint.withdraw");
  if (kinds.has("cover")) return t("hint.cover");
  if (kinds.has("reveal")) return t("hint.reveal");
  if (kinds.has("down")) return t("hint.down");
  return kinds.has("withdraw") ? t("hint.playOrWithdraw") : t("hint.play");
}

/** @param {ViewDocument} view */
function renderBoard(view) {
  const trump = $("trump");
  trump.replaceChildren(view.trump ? cardElement(view.trump, "span", { icons: false }) : el("span", "none", "\u2014"));
  const decks = [
    t("board.deck", { n: view.deck_size }), t("board.discard", { n: view.discard.length }),
    t("board.chestDeck", { n: view.chest_deck.length }), t("board.chestDiscard", { n: view.chest_discard.length }),
    t("board.supply", { n: view.supply }),
  ];
  $("decks").textContent = decks.join(" \u00b7 ");

  const trick = $("trick");
  trick.replaceChildren();
  /** @type {Set<string>} */
  const shown = new Set();
  for (const played of view.trick) {
    const slot = el("div", "played");
    slot.dataset.seat = String(played.seat);
    const key = `${view.round}.${view.trick_number}.${played.seat}`;
    shown.add(key);
    if (!mode.trickShown.has(key)) slot.classList.add("land");
    const card = cardElement(played.card, "span", { icons: false });
    if (!played.face_up) card.classList.add("face-down");
    slot.append(card, el("span", "who", seatName(played.seat)));
    slot.append(el("span", played.gems ? "gems" : "gems none-gems", `${GEM}${played.gems}`));
    trick.append(slot);
  }
  if (view.trick.some((played) => !played.face_up)) trick.append(el("div", "legend", t("legend.down")));
  mode.trickShown = shown;
  renderLastTrick(view);

  const centre = $("chest-centre");
  centre.replaceChildren();
  for (const c of view.chest_centre) centre.append(chestElement(c));
  if (!view.chest_centre.length) centre.append(el("span", "none", t("board.emptyChest")));

  const odds = $("odds");
  const chestTime = view.phase === "chest" || view.phase === "chest_choice";
  const result = chestTime && view.actor !== null ? chestOdds(view, view.actor) : null;
  odds.hidden = !result;
  if (result) {
    odds.dataset.seat = String(result.seat);
    odds.dataset.cards = String(result.cards);
    odds.dataset.poison = result.poison;
    odds.dataset.shock = result.shock;
    odds.dataset.gain = result.gain;
    const sign = result.gainValue >= 0 ? "+" : "";
    odds.replaceChildren(
      el("div", "odds-title", t("odds.title", { who: seatName(result.seat), cards: result.cards })),
      el("span", "odds-poison", `\u2620 ${t("odds.poison", { p: `${result.poisonPercent} (${result.poison})` })}`),
      el("span", result.shock === "0" ? "odds-shock none-shock" : "odds-shock",
        `\u26a1 ${t("odds.shock", { p: `${result.shockPercent} (${result.shock})` })}`),
      el("span", "odds-gain", `${GEM} ${t("odds.gain", { g: `${sign}${result.gainValue.toFixed(2)}` })}`),
    );
  }
}

/** Return the last finished trick of this round from the log: its end event and the cards
 * played in it (others' face-down cards stay hidden), or null.
 * @returns {{ end: TrickWon | TrickAbandoned, cards: (CardPlayed | HiddenCardPlayed)[] } | null}
 */
function lastTrick() {
  const ev = /** @type {ProtocolEvent[]} */ (client.events);
  let end = -1;
  for (let i = ev.length - 1; i >= 0 && end < 0; i--) {
    const kind = ev[i].event;
    if (kind === "TrickWon" || kind === "TrickAbandoned") end = i;
    else if (["CardPlayed", "HiddenCardPlayed", "RoundStarted", "TrumpRevealed"].includes(kind)) return null;
  }
  if (end < 0) return null;
  /** @type {(CardPlayed | HiddenCardPlayed)[]} */
  const cards = [];
  for (let i = end - 1; i >= 0; i--) {
    const kind = ev[i].event;
    // (the casts say what the checks of `kind` just found)
    if (kind === "CardPlayed" || kind === "HiddenCardPlayed") cards.unshift(/** @type {CardPlayed | HiddenCardPlayed} */ (ev[i]));
    else if (["TrickWon", "TrickAbandoned", "RoundStarted", "TrumpRevealed"].includes(kind)) break;
  }
  return { end: /** @type {TrickWon | TrickAbandoned} */ (ev[end]), cards };
}

/** @param {ViewDocument} view */
function renderLastTrick(view) {
  const box = $("last-trick");
  box.replaceChildren();
  const last = view.trick.length ? null : lastTrick();
  box.hidden = !last;
  if (!view.trick.length && !last) $("trick").append(el("span", "none", t("board.noCard")));
  if (!last) return;
  const { end, cards } = last;
  // A trick just won slides towards its winner once; redrawing the same trick does not.
  const key = `${end.step}`;
  const fresh = mode.lastTrickKey !== key;
  mode.lastTrickKey = key;
  box.classList.toggle("won", fresh && end.event === "TrickWon");
  box.append(el("span", "label", end.event === "TrickWon"
    ? t("last.won", { who: seatName(end.seat), card: cardText(end.card), gems: gems(end.gems) })
    : t("last.abandoned")));
  const row = el("div", "cards");
  for (const played of cards) {
    const slot = el("div", "played");
    const card = cardElement(played.event === "CardPlayed" ? played.card : null, "span", { icons: false });
    card.classList.add("small");
    if (played.event === "HiddenCardPlayed" || played.face_up === false) card.classList.add("face-down");
    if (end.event === "TrickWon" && played.seat === end.seat && played.event === "CardPlayed" && played.card === end.card) {
      slot.classList.add("winner");
    }
    slot.append(card, el("span", "who", seatName(played.seat)));
    if (played.gems) slot.append(el("span", "gems", `${GEM}${played.gems}`));
    row.append(slot);
  }
  box.append(row);
  // What the faded, ringed and dashed cards mean, in words.
  const legend = [];
  if (end.event === "TrickWon") legend.push(t("legend.won"));
  if (cards.some((played) => played.event === "HiddenCardPlayed" || played.face_up === false)) legend.push(t("legend.down"));
  if (legend.length) box.append(el("div", "legend", legend.join(" \u00b7 ")));
}

/** @param {ViewDocument} view */
function renderHand(view) {
  const mine = view.seat !== null;
  /** @type {HTMLElement} */ (document.querySelector(".mine")).hidden = !mine;
  if (!mine) return;
  /** @type {Map<Card, Partial<Record<CardActionKind, CardAction>>>} */
  const byCard = new Map();
  for (const action of view.legal_actions) {
    if (!("card" in action) || !action.card) continue;
    const options = byCard.get(action.card) || {};
    byCard.set(action.card, options);
    options[action.kind] = action;
  }
  const active = canAct(view);
  const canWithdraw = active && view.legal_actions.some((a) => a.kind === "withdraw");
  if (!canWithdraw) mode.withdraw = false;

  const hand = $("hand");
  const focused = document.activeElement && hand.contains(document.activeElement)
    ? /** @type {HTMLElement} */ (document.activeElement).dataset.card : null;
  hand.replaceChildren();
  $("hand-title").textContent = t("hand.title", { n: view.hand.length });
  for (const card of view.hand) {
    const button = /** @type {HTMLButtonElement} */ (cardElement(card, "button"));
    button.type = "button";
    const options = byCard.get(card) || {};
    const action = mode.withdraw ? options.withdraw : options.play || options.down;
    if (active && action) {
      button.classList.add("legal");
      button.dataset.notation = action.notation;
      button.addEventListener("click", () => send(action));
    } else {
      button.disabled = true;
    }
    hand.append(button);
    if (card === focused && !button.disabled) button.focus();
  }
  if (!view.hand.length) hand.append(el("span", "none", t("hand.none")));

  const faceDown = $("face-down");
  faceDown.replaceChildren();
  if (view.own_face_down.length) {
    faceDown.append(el("span", "label", t("hand.faceDown")));
    for (const card of view.own_face_down) faceDown.append(cardElement(card, "span", { icons: false }));
  }

  const actions = $("actions");
  actions.replaceChildren();
  if (canWithdraw) {
    const toggle = el("button", "action mode", mode.withdraw ? t("btn.cancel") : t("btn.withdraw"));
    toggle.type = "button";
    toggle.id = "withdraw-mode";
    toggle.dataset.key = "W";
    toggle.classList.toggle("active", mode.withdraw);
    toggle.addEventListener("click", () => {
      mode.withdraw = !mode.withdraw;
      render();
    });
    actions.append(toggle);
  }
  for (const action of view.legal_actions) {
    if (!["cover", "reveal", "stop"].includes(action.kind) || !active) continue;
    const label = action.kind === "cover" ? t("btn.cover", { card: cardText(action.card) })
      : action.kind === "reveal" ? t("btn.reveal") : t("btn.stop");
    const button = el("button", `action ${action.kind}`, label);
    button.type = "button";
    button.dataset.notation = action.notation;
    button.dataset.key = /** @type {Record<string, string>} */ ({ cover: "C", reveal: "R", stop: "S" })[action.kind];
    button.addEventListener("click", () => send(action));
    actions.append(button);
  }
}

/** @param {ViewDocument} view */
function renderSeats(view) {
  const seats = $("seats");
  seats.replaceChildren();
  for (const s of view.seats) {
    const box = el("div", `seat status-${s.status}`);
    box.dataset.seat = String(s.seat);
    box.dataset.status = s.status;
    if (s.seat === view.seat) box.classList.add("me");
    if (s.seat === view.to_act) box.classList.add("to-act");
    const title = el("div", "seat-title");
    title.append(el("strong", "", s.seat === view.seat ? t("Seat.you", { seat: s.seat }) : t("Seat", { seat: s.seat })),
      el("span", `badge ${s.status}`, t(`status.${s.status}`)));
    if (s.seat === view.leader) title.append(el("span", "badge leader", t("leads")));
    box.append(title);
    const facts = el("div", "facts");
    /**
     * @param {string} name
     * @param {string | number} value
     * @param {string} cls
     */
    const fact = (name, value, cls) => {
      const f = el("span", `fact ${cls}`);
      f.append(el("span", "k", name), el("span", "v", String(value)));
      facts.append(f);
    };
    fact(t("fact.inBag"), s.in_bag, "in-bag");
    fact(t("fact.onBag"), `${GEM}${s.on_bag}`, "on-bag");
    fact(t("fact.hand"), s.hand_size, "hand-size");
    if (s.face_down_count) fact(t("fact.faceDown"), s.face_down_count, "face-down-count");
    box.append(facts);
    if (s.poisons.length) {
      const row = el("div", "poisons");
      row.append(el("span", "k", `\u2620 ${t("seat.poisons")}`));
      for (const p of s.poisons) {
        const c = cardElement(p.card, "span", { icons: false });
        c.classList.add("small", p.covered ? "covered" : "uncovered");
        // POTION-6: a covered poison names the potion laid on it, which stays there.
        const by = p.covered_by;
        if (by) c.dataset.coveredBy = by;
        const item = el("span", `poison ${p.covered ? "covered" : "uncovered"}`);
        const label = by ? t("seat.coveredBy", { card: cardText(by) }) : t("seat.uncovered");
        item.append(c, el("span", "ptype", `${poisonName(p.poison)} \u00b7 ${label}`));
        row.append(item);
      }
      box.append(row);
    }
    if (s.potions.length) {
      // A potion that covered a poison stays in front of its seat; the others are stored.
      const stored = s.potions.length - s.poisons.filter((p) => p.covered).length;
      const row = el("div", "potions");
      row.dataset.stored = String(stored);
      const head = el("span", "k", ` ${t("seat.potions", { stored })}`);
      head.prepend(potionIcon());
      row.append(head);
      for (const card of s.potions) {
        const c = cardElement(card, "span", { icons: false });
        c.classList.add("small");
        row.append(c);
      }
      box.append(row);
    }
    if (s.void_suits.length) {
      box.append(el("div", "voids", t("seat.voids", { suits: s.void_suits.map((x) => SUIT_SYMBOL[x]).join(" ") })));
    }
    seats.append(box);
  }
}

// ---- Keys: play without a mouse. Cards and buttons are real buttons (Tab, Enter and Space
// work already); these add arrows between the playable cards, digits and letters.

/** @returns {HTMLButtonElement[]} */
function playable() {
  return [.../** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#hand button.card.legal"))];
}

/** @param {TableKey} event */
function keydown(event) {
  const key = event.key;
  if (key === "Escape") {
    if (mode.withdraw) {
      mode.withdraw = false;
      render();
    }
    return;
  }
  const cards = playable();
  if (key === "ArrowLeft" || key === "ArrowRight") {
    if (!cards.length) return;
    // (indexOf only compares: any focused element, or none, is -1 unless it is one of them)
    const at = cards.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    const step = key === "ArrowRight" ? 1 : -1;
    const next = at < 0 ? (step > 0 ? 0 : cards.length - 1) : (at + step + cards.length) % cards.length;
    cards[next].focus();
    event.preventDefault();
    return;
  }
  if (/^[1-9]$/.test(key)) {
    const card = cards[Number(key) - 1];
    if (card) {
      card.click();
      event.preventDefault();
    }
    return;
  }
  const button = /** @type {HTMLButtonElement | null} */ (document.querySelector(`#actions button[data-key="${key.toUpperCase()}"]`));
  if (button && /^[a-z]$/i.test(key)) {
    button.click();
    event.preventDefault();
    if (button.id === "withdraw-mode") {
      const first = playable()[0];
      if (first) first.focus();
    }
  }
}


/** Shock!, for the shell.
 * @type {GameModule} */
export const SHOCK = {
  name: "shock",
  board: "shock-board",
  title: "title.table",
  heading: ["Shock!", "Knights & Poisons"],
  help: ["help.cards", "help.digits", "help.withdraw", "help.chest", "help.cover", "help.toggle"],
  scoreHead: "over.scoreHead",
  yourTurn: (view) => shockView(view).your_turn,
  isOver: (view) => view.phase === "over",
  status(view) {
    const shock = shockView(view);
    return [t("status.round", { round: shock.round }), t("status.trick", { trick: shock.trick_number })];
  },
  turn(view) {
    const shock = shockView(view);
    if (shock.your_turn) return { text: turnHint(shock), mine: true };
    if (shock.to_act !== null) return { text: t("turn.waiting", { who: seatName(shock.to_act) }), mine: false };
    return { text: t("turn.dealing"), mine: false };
  },
  render(view) {
    const shock = shockView(view);
    renderBoard(shock);
    renderHand(shock);
    renderSeats(shock);
  },
  finalScores: (view) => finalScores(shockView(view)),
  scoreText: (score) => t("over.gems", { n: score }),
  standingNote: () => "",
  contends: () => true,
  logLines: (events) => logLines(/** @type {ProtocolEvent[]} */ (events)),
  keydown,
  reset() {
    mode.withdraw = false;
    mode.trickShown = new Set();
    mode.lastTrickKey = null;
  },
  errorText: (error) => error.message || error.code,
  lobbyChoices(view) {
    const shock = shockView(view);
    return { players: String(shock.config.players), variant: String(shock.config.variant) };
  },
};
