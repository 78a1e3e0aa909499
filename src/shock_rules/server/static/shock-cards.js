// Shock!'s cards, in pictures and in words: number cards and chest cards as elements, events
// as sentences for the log, and the exact odds of the next chest card (as
// shock_rules.chest_odds). Used by shock.js, Shock!'s table.
// @ts-check
/** @typedef {import("../../../../web/types/protocol").ViewDocument} ViewDocument */
/** @typedef {import("../../../../web/types/protocol").Event} ProtocolEvent */
/** @typedef {import("../../../../web/types/protocol").Card} Card */
/** @typedef {import("../../../../web/types/protocol").ChestCard} ChestCard */
/** @typedef {import("../../../../web/types/protocol").Seat} Seat */
/** @typedef {import("../../../../web/types/protocol").GemIconsByCard} GemIconsByCard */
/** @typedef {import("../../../../web/types/protocol").PoisonsByCard} PoisonsByCard */
/** @typedef {import("../../../../web/types/client").ChestCardParts} ChestCardParts */
/** @typedef {import("../../../../web/types/client").ChestOdds} ChestOdds */
/** @typedef {import("../../../../web/types/client").LogLine} LogLine */

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { client, names, seatName } from "./shell.js";

/** @type {Record<string, string>} */
export const SUIT_SYMBOL = { H: "\u2665", S: "\u2660", D: "\u2666", C: "\u2663" };
const POISON_CARDS = new Set(["7H", "7S", "7D"]);
const POTION_CARDS = new Set(["5C", "7C"]);
export const GEM = "\u25c6";
// The default edition's gem icons (K33, provisional): one on every 1, 2, 3 and 4. A view
// whose config embeds an edition brings its own (config.edition.number_cards.gem_icons).
const DEFAULT_ICON_RANKS = new Set(["1", "2", "3", "4"]);
/** @type {Record<string, string>} */
const DEFAULT_POISONS = { "7H": "bee", "7S": "jellyfish", "7D": "spider" };

// ---- Exact fractions, written like Python's fractions.Fraction ("0", "3", "-5/22").

/**
 * @param {number} a
 * @param {number} b
 */
function gcd(a, b) {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * Return the fraction num/den in lowest terms as text, the way Python's str(Fraction) does.
 * @param {number} num
 * @param {number} den
 * @returns {string}
 */
export function fractionText(num, den) {
  if (den === 0 || num === 0) return "0";
  const g = gcd(num, den);
  const n = num / g;
  const d = den / g;
  return d === 1 ? String(n) : `${n}/${d}`;
}

/**
 * @param {number} num
 * @param {number} den
 */
function percent(num, den) {
  return den ? `${((100 * num) / den).toFixed(1)}%` : "0%";
}

/**
 * Return the chest card written G<large>/<small> or P[<large>]:<type> as an object.
 * @param {ChestCard} text
 * @returns {ChestCardParts | null}
 */
export function parseChestCard(text) {
  const m = /^(?:G(\d{1,3})\/(\d{1,3})|P(\d{0,3}):([a-z][a-z0-9_-]{0,31}))$/.exec(text);
  if (!m) return null;
  if (m[4] !== undefined) return { poison: m[4], large: m[3] ? Number(m[3]) : 1, small: 0 };
  return { poison: null, large: Number(m[1]), small: Number(m[2]) };
}

/**
 * Return the odds of the next chest card for `seat`, exactly as shock_rules.chest_odds: the
 * chest deck is public. A poison card shocks the revealer when it already has an uncovered
 * poison of that type or one is in the chest centre (potions never cover chest poisons); a
 * shock loses every gem on the bag, the card's own gem included. Returns null for a seat out
 * of the round.
 * @param {ViewDocument} view
 * @param {Seat} seat
 * @returns {ChestOdds | null}
 */
export function chestOdds(view, seat) {
  const me = view.seats[seat];
  if (!me || me.status !== "in") return null;
  /** @type {Map<string, number>} */
  const counts = new Map();
  /** @param {string} type */
  const bump = (type) => counts.set(type, (counts.get(type) || 0) + 1);
  for (const p of me.poisons) if (!p.covered) bump(p.poison);
  for (const text of view.chest_centre) {
    const card = parseChestCard(text);
    if (card && card.poison !== null) bump(card.poison);
  }
  const total = view.chest_deck.length;
  let poison = 0;
  let shock = 0;
  let gain = 0;
  for (const text of view.chest_deck) {
    const card = parseChestCard(text);
    if (!card) continue;
    if (card.poison === null) {
      gain += card.large;
      continue;
    }
    poison += 1;
    if ((counts.get(card.poison) || 0) >= 1) {
      shock += 1;
      gain -= me.on_bag;
    } else {
      gain += card.large;
    }
  }
  return {
    seat,
    cards: total,
    poison: fractionText(poison, total),
    shock: fractionText(shock, total),
    gain: fractionText(gain, total),
    poisonPercent: percent(poison, total),
    shockPercent: percent(shock, total),
    gainValue: total ? gain / total : 0,
  };
}

// ---- Cards, in pictures and in words.

/**
 * The edition's card facts for the view on screen: gem icons and poison types.
 * @returns {{ icons: GemIconsByCard, poisons: PoisonsByCard } | null}
 */
function edition() {
  const ed = client.view && client.view.config && client.view.config.edition;
  if (ed && typeof ed === "object" && ed.number_cards) {
    return { icons: ed.number_cards.gem_icons || {}, poisons: ed.number_cards.poisons || {} };
  }
  return null;
}

/**
 * Return how many gem icons a number card shows (K33): placed on it when played face up.
 * @param {Card} card
 * @returns {number}
 */
function gemIcons(card) {
  const ed = edition();
  if (ed) return Number(ed.icons[card] || 0);
  return DEFAULT_ICON_RANKS.has(card.slice(0, -1)) ? 1 : 0;
}

/**
 * @param {Card} card
 * @returns {string | null}
 */
function poisonType(card) {
  const ed = edition();
  return ed ? ed.poisons[card] || null : DEFAULT_POISONS[card] || null;
}

/** @param {string} type */
export const poisonName = (type) => t(`poison.${type}`);

/**
 * Return a card in symbols for sentences: "♥10".
 * @param {Card | null} card
 * @returns {string}
 */
export function cardText(card) {
  if (!card) return "?";
  return `${SUIT_SYMBOL[card.slice(-1)] || ""}${card.slice(0, -1)}`;
}

/**
 * Return a chest card in words: "☠ bee poison" (a chip in the centre), and in a sentence
 * with what it gives: "◆ 2 gems for the revealer, 1 gem for each other player in the round",
 * "☠ bee poison (1 gem for the revealer)".
 * @param {ChestCard} text
 * @param {boolean} [full]
 * @returns {string}
 */
function chestText(text, full = false) {
  const card = parseChestCard(text);
  if (!card) return text;
  if (card.poison !== null) {
    const name = `\u2620 ${t("card.poison", { type: poisonName(card.poison) })}`;
    return full ? t("chest.poisonGives", { card: name, gems: gems(card.large) }) : name;
  }
  return `${GEM} ${t("chest.gem", { large: gems(card.large), small: gems(card.small) })}`;
}

/** Return an element showing a number card (or a card back for null): rank and suit, its gem
 * icons, and a poison's or potion's mark big enough to see at a glance.
 * @param {Card | null} card
 * @param {"span" | "button"} [tag]
 * @param {{ icons?: boolean }} [options]
 * @returns {HTMLElement}
 */
export function cardElement(card, tag = "span", options = {}) {
  const node = el(tag, "card");
  if (card === null || card === undefined) {
    node.classList.add("back");
    node.setAttribute("aria-label", t("card.back"));
    node.dataset.card = "";
    return node;
  }
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  node.classList.add(`suit-${suit}`);
  node.dataset.card = card;
  const words = [t("card.of", { rank, suit: t(`suit.${suit}`) })];
  node.append(el("span", "rank", rank), el("span", "pip", SUIT_SYMBOL[suit]));
  const icons = options.icons === false ? 0 : gemIcons(card);
  if (icons) {
    node.append(el("span", "icons", GEM.repeat(icons)));
    node.dataset.icons = String(icons);
    words.push(t("card.icons", { n: icons }));
  }
  if (POISON_CARDS.has(card)) {
    const type = poisonType(card);
    node.classList.add("is-poison");
    node.append(el("span", "mark poison-mark", "\u2620"));
    words.push(t("card.poison", { type: type ? poisonName(type) : "" }));
  }
  if (POTION_CARDS.has(card)) {
    node.classList.add("is-potion");
    const mark = el("span", "mark potion-mark");
    mark.append(potionIcon());
    node.append(mark);
    words.push(t("card.potion"));
  }
  node.setAttribute("aria-label", words.join(", "));
  node.title = words.join(", ");
  return node;
}

/** Return the potion's mark, a flask, drawn (the alembic character, U+2697, is missing
 * from common fonts: Debian's draw it as a letter).
 * @returns {SVGSVGElement}
 */
export function potionIcon() {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "potion-icon");
  svg.setAttribute("aria-hidden", "true");
  // A round-bottomed flask (a neck with a lip, a bulb), and the liquid in it.
  const parts = [
    { d: "M6 1.5h4v1h-.6v3.2a5.2 5.2 0 1 1-2.8 0V2.5H6z", fill: "none", stroke: "currentColor",
      "stroke-width": "1.3", "stroke-linejoin": "round" },
    { d: "M3.6 10.2h8.8a4.4 4.4 0 0 1-8.8 0z", fill: "currentColor" },
  ];
  for (const attributes of parts) {
    const path = document.createElementNS(NS, "path");
    for (const [name, value] of Object.entries(attributes)) path.setAttribute(name, value);
    svg.append(path);
  }
  return svg;
}

/**
 * @param {ChestCard} text
 * @returns {HTMLElement}
 */
export function chestElement(text) {
  const card = parseChestCard(text);
  const node = el("span", "chest-card");
  node.dataset.chestCard = text;
  node.textContent = chestText(text);
  if (card && card.poison !== null) {
    node.classList.add("poison");
    node.title = t("card.poison", { type: poisonName(card.poison) });
  } else if (card) {
    node.classList.add("gem");
    node.title = t("chest.gem", { large: t("gems", { n: card.large }), small: t("gems", { n: card.small }) });
  }
  return node;
}

// ---- Events, in words.

/** @param {number} n */
export const gems = (n) => t("gems", { n });

/**
 * Return an event in words.
 * @param {ProtocolEvent} e
 * @returns {string}
 */
export function describe(e) {
  const who = seatName("seat" in e ? e.seat : undefined);
  switch (e.event) {
    case "RoundStarted":
      return e.leader !== null && e.leader !== undefined && e.leader >= 0
        ? t("ev.roundStartedLeader", { round: e.round, who: seatName(e.leader) })
        : t("ev.roundStarted", { round: e.round });
    case "LeaderChosen": return t("ev.leader", { who });
    case "CardDealt": return t("ev.dealtYou", { cards: cardText(e.card) });
    case "HiddenCardDealt": return t("ev.dealtOthers", { who, n: 1 });
    case "TrumpRevealed": return t("ev.trump", { card: cardText(e.card) });
    case "CardPlayed":
      if (!e.face_up) {
        return t("ev.downCard", { who, card: cardText(e.card) }) + (e.gems ? t("ev.downGems", { gems: gems(e.gems) }) : "");
      }
      return e.gems ? t("ev.playedGems", { who, card: cardText(e.card), gems: gems(e.gems) })
        : t("ev.played", { who, card: cardText(e.card) });
    case "HiddenCardPlayed":
      return t("ev.down", { who }) + (e.gems ? t("ev.downGems", { gems: gems(e.gems) }) : "");
    case "Withdrew": return t("ev.withdrew", { who, gems: gems(e.banked) });
    case "TrickWon": return t("ev.trickWon", { who, trick: e.trick, card: cardText(e.card), gems: gems(e.gems) });
    case "TrickAbandoned": return t("ev.trickAbandoned", { trick: e.trick, gems: gems(e.gems) });
    case "PoisonTaken": return t("ev.poisonTaken", { who, type: poisonName(e.poison), card: cardText(e.card) });
    case "PotionTaken": return t("ev.potionTaken", { who, card: cardText(e.card) });
    case "PoisonCovered":
      return e.potion ? t("ev.covered", { who, potion: cardText(e.potion), card: cardText(e.card) })
        : t("ev.coveredAny", { who, card: cardText(e.card) });
    case "ChestRevealed": return t("ev.chest", { who, n: e.number, card: chestText(e.card, true) });
    case "ChestStopped": return t("ev.chestStopped", { who });
    case "GemsGained": return t("ev.gained", { who, gems: gems(e.gems) });
    case "Shocked": return t("ev.shocked", { who, type: poisonName(e.poison), gems: gems(e.lost) });
    case "GemsBanked": return t("ev.banked", { who, gems: gems(e.gems) });
    case "RoundEnded": return t("ev.roundEnded", { round: e.round, reason: t(`reason.${e.reason}`) });
    case "GameEnded":
      return t("ev.gameEnded", {
        count: e.winners.length, names: names(e.winners),
        scores: e.scores.map((n, seat) => `${seatName(seat)} ${n}`).join(", "),
      });
    // An event this client does not know (a newer protocol's): the types say there is none.
    default: return /** @type {ProtocolEvent} */ (e).event;
  }
}

/** Return the log's lines: one per event, except that a deal's many cards make one line
 * ("Cards dealt: you received ♥3 ♠9 …; seat 1 received 9 cards; …").
 * @param {ProtocolEvent[]} events
 * @returns {LogLine[]}
 */
export function logLines(events) {
  /** @type {LogLine[]} */
  const lines = [];
  /** @type {{ step: number | undefined, mine: Card[], others: Map<Seat, number> } | null} */
  let deal = null;
  const flush = () => {
    if (!deal) return;
    const parts = [];
    if (deal.mine.length) parts.push(t("ev.dealtYou", { cards: deal.mine.map(cardText).join(" ") }));
    for (const [seat, n] of deal.others) parts.push(t("ev.dealtOthers", { who: seatName(seat), n }));
    lines.push({ event: "Dealt", step: deal.step, text: t("ev.dealt", { parts: parts.join("; ") }) });
    deal = null;
  };
  for (const e of events) {
    if (e.event === "CardDealt" || e.event === "HiddenCardDealt") {
      if (!deal) deal = { step: e.step, mine: [], others: new Map() };
      const mine = e.event === "CardDealt" && client.view && client.view.seat === e.seat;
      if (mine) deal.mine.push(e.card);
      else deal.others.set(e.seat, (deal.others.get(e.seat) || 0) + 1);
      continue;
    }
    flush();
    lines.push({ event: e.event, step: e.step, text: describe(e) });
  }
  flush();
  return lines;
}
