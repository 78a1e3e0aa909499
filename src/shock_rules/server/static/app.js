// The browser client of `shock-rules serve` (and of the in-browser build of web/): plain modern
// JavaScript, no build step, nothing fetched but the host's own API. It shows one seat's view
// document (shock-rules/2) and sends the seat's decisions as {"type": "action", "action":
// <legal action>, "step": N}. Words come from i18n.js (English and Brazilian Portuguese).
// @ts-check
"use strict";

// Checked by tsc against the protocol's types (web/: `npm run typecheck:client`).
/** @typedef {import("../../../../web/types/protocol").ViewDocument} ViewDocument */
/** @typedef {import("../../../../web/types/protocol").LegalAction} LegalAction */
/** @typedef {import("../../../../web/types/protocol").Event} ProtocolEvent */
/** @typedef {import("../../../../web/types/protocol").Card} Card */
/** @typedef {import("../../../../web/types/protocol").ChestCard} ChestCard */
/** @typedef {import("../../../../web/types/protocol").Seat} Seat */
/** @typedef {import("../../../../web/types/protocol").CardAction} CardAction */
/** @typedef {import("../../../../web/types/protocol").CardActionKind} CardActionKind */
/** @typedef {import("../../../../web/types/protocol").GemIconsByCard} GemIconsByCard */
/** @typedef {import("../../../../web/types/protocol").PoisonsByCard} PoisonsByCard */
/** @typedef {import("../../../../web/types/protocol").CardPlayed} CardPlayed */
/** @typedef {import("../../../../web/types/protocol").HiddenCardPlayed} HiddenCardPlayed */
/** @typedef {import("../../../../web/types/protocol").TrickWon} TrickWon */
/** @typedef {import("../../../../web/types/protocol").TrickAbandoned} TrickAbandoned */
/** @typedef {import("../../../../web/types/client").ServerMessage} ServerMessage */
/** @typedef {import("../../../../web/types/client").Transport} Transport */
/** @typedef {import("../../../../web/types/client").TransportHandlers} TransportHandlers */
/** @typedef {import("../../../../web/types/client").ClientState} ClientState */
/** @typedef {import("../../../../web/types/client").ChestCardParts} ChestCardParts */
/** @typedef {import("../../../../web/types/client").ChestOdds} ChestOdds */
/** @typedef {import("../../../../web/types/client").MessageParams} MessageParams */
/** @typedef {import("../../../../web/types/client").ShockI18n} ShockI18n */
/** @typedef {import("../../../../web/types/client").TableCreated} TableCreated */
/** @typedef {import("../../../../web/types/client").TablesAnswer} TablesAnswer */
/** @typedef {import("../../../../web/types/client").TableRequest} TableRequest */
/** @typedef {import("../../../../web/types/client").OpenTable} OpenTable */
/** @typedef {import("../../../../web/types/client").OpenTablesAnswer} OpenTablesAnswer */
/** @typedef {import("../../../../web/types/client").SeatTokenAnswer} SeatTokenAnswer */
/** @typedef {import("../../../../web/types/client").CreatedTable} CreatedTable */
/** @typedef {{ event: string, step: number | undefined, text: string }} LogLine */
/**
 * The elements of index.html that this file uses as more than an HTMLElement, by id.
 * @typedef {{ players: HTMLSelectElement, variant: HTMLSelectElement, create: HTMLButtonElement,
 *   "create-form": HTMLFormElement, "spectate-link": HTMLAnchorElement, listed: HTMLInputElement,
 *   "to-lobby": HTMLAnchorElement,
 *   "rules-link": HTMLAnchorElement, "gone-watch": HTMLAnchorElement,
 *   "gone-back": HTMLAnchorElement }} PageElements
 */
/**
 * The type of the page's element `K`: PageElements' when it names it, else HTMLElement.
 * @template {string} K
 * @typedef {K extends keyof PageElements ? PageElements[K] : HTMLElement} PageElement
 */

(() => {
  /** @type {Record<string, string>} */
  const SUIT_SYMBOL = { H: "\u2665", S: "\u2660", D: "\u2666", C: "\u2663" };
  const POISON_CARDS = new Set(["7H", "7S", "7D"]);
  const POTION_CARDS = new Set(["5C", "7C"]);
  const BOTS = ["random", "heuristic", "mcts"];
  const GEM = "\u25c6";
  // The default edition's gem icons (K33, provisional): one on every 1, 2, 3 and 4. A view
  // whose config embeds an edition brings its own (config.edition.number_cards.gem_icons).
  const DEFAULT_ICON_RANKS = new Set(["1", "2", "3", "4"]);
  /** @type {Record<string, string>} */
  const DEFAULT_POISONS = { "7H": "bee", "7S": "jellyfish", "7D": "spider" };

  /**
   * Return the page's element `id`: index.html has every element this file asks for.
   * @template {string} K
   * @param {K} id
   * @returns {PageElement<K>}
   */
  const $ = (id) => /** @type {PageElement<K>} */ (/** @type {unknown} */ (document.getElementById(id)));
  /** @type {Pick<ShockI18n, "t" | "lang" | "onChange">} */
  const i18n = window.shockI18n || { t: (key) => key, lang: "en", onChange() {} };
  /**
   * @param {string} key
   * @param {MessageParams} [params]
   */
  const t = (key, params) => i18n.t(key, params);

  /**
   * Return a new element with a class and text.
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {string} [className]
   * @param {string} [text]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

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
  function fractionText(num, den) {
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
  function parseChestCard(text) {
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
  function chestOdds(view, seat) {
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
  const poisonName = (type) => t(`poison.${type}`);

  /**
   * Return a card in symbols for sentences: "♥10".
   * @param {Card | null} card
   * @returns {string}
   */
  function cardText(card) {
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
  function cardElement(card, tag = "span", options = {}) {
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
  function potionIcon() {
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
  function chestElement(text) {
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

  /**
   * @param {Seat | null | undefined} seat
   * @returns {string}
   */
  function seatName(seat) {
    if (seat === null || seat === undefined || seat < 0) return t("nobody");
    return client.view && client.view.seat === seat ? t("you") : t("seat", { seat });
  }

  /** @param {number} n */
  const gems = (n) => t("gems", { n });

  /** @param {Seat[]} seats */
  function names(seats) {
    return seats.map(seatName).join(t("and"));
  }

  /**
   * Return an event in words.
   * @param {ProtocolEvent} e
   * @returns {string}
   */
  function describe(e) {
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
  function logLines(events) {
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

  // ---- The client's state.

  /** @type {ClientState} */
  const client = {
    table: null,
    token: null,
    transport: null,      // carries protocol documents to and from the game's host
    view: null,
    events: [],          // every event seen, ordered by step
    eventKeys: new Set(),
    withdrawMode: false,
    connected: false,
    trickShown: new Set(), // the trick's cards already drawn (only new ones animate)
    pending: false,
    lastError: null,
    lastTrickKey: null,   // the last trick drawn (it animates once, when it is new)
  };

  /**
   * Add the events not seen yet to the log; return whether there were any.
   * @param {ProtocolEvent[] | undefined} events
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
  function setConnection(key, kind, reason = "") {
    const node = $("connection");
    node.hidden = false;
    node.dataset.state = kind;
    node.dataset.key = key;
    node.dataset.reason = reason;
    node.textContent = t(key, { reason });
  }
  i18n.onChange(() => {
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
  function showError(text, code = "") {
    const node = $("error");
    node.textContent = text;
    node.dataset.code = code;
    node.hidden = !text;
  }

  // ---- Sending actions.

  /** @param {LegalAction} action */
  function send(action) {
    const view = client.view;
    if (!view || client.pending) return;
    if (!client.transport || !client.connected) {
      showError(t("error.offline"));
      return;
    }
    client.pending = true;
    client.withdrawMode = false;
    showError("");
    client.transport.send({ type: "action", action, step: view.step });
    render();
  }

  // ---- Rendering.

  /**
   * Whether the viewer can act now: its turn, connected, and no action on its way.
   * @param {ViewDocument} view
   * @returns {boolean}
   */
  function canAct(view) {
    return view.your_turn && !client.pending && client.connected;
  }

  function render() {
    const view = client.view;
    if (!view) return;
    const root = $("table");
    root.dataset.step = String(view.step);
    root.dataset.phase = view.phase;
    root.dataset.seat = view.seat === null ? "" : String(view.seat);
    root.dataset.yourTurn = String(canAct(view));
    renderStatus(view);
    renderBoard(view);
    renderHand(view);
    renderSeats(view);
    renderLog();
    document.title = (view.your_turn ? t("title.turn") : "") + t("title.table", { table: client.table });
  }

  /** @param {ViewDocument} view */
  function renderStatus(view) {
    const parts = [t("status.round", { round: view.round }), t("status.trick", { trick: view.trick_number })];
    parts.push(view.seat === null ? t("status.spectating") : t("status.you", { seat: view.seat }));
    $("status-line").textContent = parts.join(" \u00b7 ");
    const turn = $("turn-line");
    turn.className = "turn";
    renderGameOver(view);
    if (view.phase === "over") {
      const { winners } = finalScores(view);
      turn.textContent = t("turn.over", { count: winners.length, names: names(winners) });
      turn.classList.add("over");
    } else if (!client.connected) {
      turn.textContent = t("turn.lost");
      turn.classList.add("lost");
    } else if (view.your_turn) {
      turn.textContent = client.pending ? t("turn.sent") : turnHint(view);
      turn.classList.add("mine");
    } else if (view.to_act !== null) {
      turn.textContent = t("turn.waiting", { who: seatName(view.to_act) });
    } else {
      turn.textContent = t("turn.dealing");
    }
  }

  /**
   * The final scores (gems in each bag, K: the game's end) and the winners.
   * @param {ViewDocument} view
   * @returns {{ scores: number[], winners: Seat[] }}
   */
  function finalScores(view) {
    const end = [...client.events].reverse().find((e) => e.event === "GameEnded");
    const scores = end ? end.scores : view.seats.map((s) => s.in_bag);
    const best = Math.max(...scores);
    const winners = end ? end.winners : scores.flatMap((s, i) => (s === best ? [i] : []));
    return { scores, winners };
  }

  /** At the game's end: the standings, best first, each score labelled, ties sharing a place,
   * and "Play again" and "Back to the lobby".
   * @param {ViewDocument} view */
  function renderGameOver(view) {
    const box = $("game-over");
    box.hidden = view.phase !== "over";
    if (box.hidden) return;
    const { scores, winners } = finalScores(view);
    $("game-over-title").textContent = winners.length === 1 && winners[0] === view.seat ? t("over.youWon")
      : t("over.title", { count: winners.length, names: names(winners) });
    const order = scores.map((score, seat) => ({ seat, score })).sort((a, b) => b.score - a.score || a.seat - b.seat);
    const body = $("standings-body");
    body.replaceChildren();
    order.forEach(({ seat, score }) => {
      const row = el("tr", winners.includes(seat) ? "winner" : "");
      row.dataset.seat = String(seat);
      if (seat === view.seat) row.classList.add("me");
      const place = 1 + order.filter((o) => o.score > score).length;
      const name = el("td", "name", seat === view.seat ? t("Seat.you", { seat }) : t("Seat", { seat }));
      if (winners.includes(seat)) name.append(" ", el("span", "badge winner", t("over.winner")));
      row.append(el("td", "place", t("over.place", { n: place })), name,
        el("td", "score", t("over.gems", { n: score })));
      body.append(row);
    });
    $("standings-place").textContent = t("over.placeHead");
    $("standings-player").textContent = t("over.playerHead");
    $("standings-score").textContent = t("over.scoreHead");
    $("again").textContent = t("over.again");
    const back = $("to-lobby");
    back.textContent = t("lobby.back");
    back.href = lobbyUrl();
  }

  /**
   * @param {ViewDocument} view
   * @returns {string}
   */
  function turnHint(view) {
    const kinds = new Set(view.legal_actions.map((a) => a.kind));
    if (client.withdrawMode) return t("hint.withdraw");
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
      if (!client.trickShown.has(key)) slot.classList.add("land");
      const card = cardElement(played.card, "span", { icons: false });
      if (!played.face_up) card.classList.add("face-down");
      slot.append(card, el("span", "who", seatName(played.seat)));
      slot.append(el("span", played.gems ? "gems" : "gems none-gems", `${GEM}${played.gems}`));
      trick.append(slot);
    }
    if (view.trick.some((played) => !played.face_up)) trick.append(el("div", "legend", t("legend.down")));
    client.trickShown = shown;
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
    const ev = client.events;
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
    const fresh = client.lastTrickKey !== key;
    client.lastTrickKey = key;
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
    if (!canWithdraw) client.withdrawMode = false;

    const hand = $("hand");
    const focused = document.activeElement && hand.contains(document.activeElement)
      ? /** @type {HTMLElement} */ (document.activeElement).dataset.card : null;
    hand.replaceChildren();
    $("hand-title").textContent = t("hand.title", { n: view.hand.length });
    for (const card of view.hand) {
      const button = /** @type {HTMLButtonElement} */ (cardElement(card, "button"));
      button.type = "button";
      const options = byCard.get(card) || {};
      const action = client.withdrawMode ? options.withdraw : options.play || options.down;
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
      const toggle = el("button", "action mode", client.withdrawMode ? t("btn.cancel") : t("btn.withdraw"));
      toggle.type = "button";
      toggle.id = "withdraw-mode";
      toggle.dataset.key = "W";
      toggle.classList.toggle("active", client.withdrawMode);
      toggle.addEventListener("click", () => {
        client.withdrawMode = !client.withdrawMode;
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

  let loggedCount = 0;
  /** @type {string | null} */
  let loggedLang = null;
  function renderLog() {
    const log = $("log");
    if (loggedCount === client.events.length && loggedLang === i18n.lang) return;
    const lines = logLines(client.events);
    const before = log.childElementCount;
    log.replaceChildren();
    // Oldest first, as a trick is played (the newest at the bottom, scrolled into sight
    // unless the reader scrolled up to read something older).
    const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    const shown = lines.slice(-200);
    const fresh = loggedLang === i18n.lang ? Math.max(0, lines.length - before) : 0;
    shown.forEach((line, i) => {
      const item = el("li", `event ev-${line.event}`, line.text);
      item.dataset.step = String(line.step ?? "");
      if (loggedCount && i >= shown.length - fresh) item.classList.add("fresh");
      log.append(item);
    });
    if (atEnd || !loggedCount) log.scrollTop = log.scrollHeight;
    loggedCount = client.events.length;
    loggedLang = i18n.lang;
  }

  // ---- Keys: play without a mouse. Cards and buttons are real buttons (Tab, Enter and Space
  // work already); these add arrows between the playable cards, digits and letters.

  /** @returns {HTMLButtonElement[]} */
  function playable() {
    return [.../** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#hand button.card.legal"))];
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if ($("table").hidden || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    const key = event.key;
    if (key === "?") {
      $("keys-help").hidden = !$("keys-help").hidden;
      event.preventDefault();
      return;
    }
    if (key === "Escape") {
      $("keys-help").hidden = true;
      if (client.withdrawMode) {
        client.withdrawMode = false;
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

  document.addEventListener("keydown", onKey);
  document.addEventListener("DOMContentLoaded", () => {
    const button = $("keys-button");
    if (button) button.addEventListener("click", () => { $("keys-help").hidden = !$("keys-help").hidden; });
  });
  // A new language redraws everything the client wrote.
  i18n.onChange(() => render());

  // ---- Transports: one UI over two ways to reach the game. A transport carries protocol
  // documents (shock-rules/2) between this page and the game's host: `start(handlers)` begins,
  // then calls `handlers.document(doc)` for each document received and `handlers.status(kind,
  // detail)` as the link changes ("connecting", "open", "closed" while it retries, and the final
  // "refused" or "missing"); `send(doc)` sends one document. This file's transport is a
  // WebSocket to `shock-rules serve`; the in-browser build brings one that runs the engine in
  // the page (window.shockHost).

  /**
   * Whether a message from the host is an object with a "type", as every message is: the
   * client reads the rest as the types say (the host writes what the schemas allow).
   * @param {unknown} value
   * @returns {value is ServerMessage}
   */
  function isServerMessage(value) {
    return typeof value === "object" && value !== null && "type" in value && typeof value.type === "string";
  }

  // The reason of the server's 4401 close of a connection whose seat's link was replaced.
  const REPLACED = "the seat's link was replaced";

  /**
   * Return the WebSocket transport of one table at this page's server. A seat's token goes in
   * the connection's first message (a hello), never in its URL: a URL ends in access logs.
   * @param {string} table
   * @param {string | null} token
   * @returns {Transport}
   */
  function socketTransport(table, token) {
    /** @type {WebSocket | null} */
    let socket = null;
    let retries = 0;
    /** @type {number | null} */
    let lastStep = null;
    let stopped = false;
    let seatToken = token;
    // While this page replaces the seat's link, the server's 4401 close of the old one waits
    // for the new token instead of ending the page.
    let held = false;
    /** @type {TransportHandlers | null} */
    let waiting = null;

    function url() {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      // A seat's connection (its token in its first message, a hello) or a spectator's.
      const path = `/ws/${encodeURIComponent(table)}${seatToken !== null ? "/seat" : ""}`;
      const base = `${scheme}//${location.host}${path}`;
      // Tell the server the last step this page saw, so it may send only what was missed.
      return lastStep !== null ? `${base}?since=${lastStep}` : base;
    }

    /** @param {TransportHandlers} handlers */
    function open(handlers) {
      if (stopped) return;
      handlers.status("connecting");
      const used = seatToken;
      const current = new WebSocket(url());
      socket = current;
      current.addEventListener("open", () => {
        retries = 0;
        if (used !== null) current.send(JSON.stringify({ type: "hello", token: used }));
        handlers.status("open");
      });
      current.addEventListener("message", (/** @type {MessageEvent<string>} */ message) => {
        /** @type {unknown} */
        let doc;
        try {
          doc = JSON.parse(message.data);
        } catch {
          return;
        }
        // The client ignores anything else (receive() did so before this check).
        if (!isServerMessage(doc)) return;
        if (doc.type === "view" && "view" in doc && doc.view) lastStep = doc.view.step;
        handlers.document(doc);
      });
      current.addEventListener("close", (event) => {
        if (socket !== current) return;
        socket = null;
        if (event.code === 4401 && used !== seatToken) {
          open(handlers); // this page replaced the seat's link: back with the new token
          return;
        }
        if (event.code === 4401 && held) {
          waiting = handlers;
          handlers.status("connecting");
          return;
        }
        if (event.code === 4401 || event.code === 4403) {
          stopped = true;
          handlers.status("refused", event.reason);
          return;
        }
        if (event.code === 4404) {
          stopped = true;
          handlers.status("missing");
          return;
        }
        const delay = Math.min(5000, 250 * 2 ** retries);
        retries += 1;
        // 4429: too many connections (of this address, of this seat) or opened too fast.
        handlers.status("closed", event.code === 4429 ? event.reason : undefined);
        setTimeout(() => open(handlers), delay);
      });
    }

    // A page left for another (a link, the lobby) may be kept whole by the browser for the
    // Back button, its connection still open: the seat would look open elsewhere to the next
    // page of it. Close it on the way out; a page brought back connects again.
    /** @type {TransportHandlers | null} */
    let shown = null;
    window.addEventListener("pagehide", () => {
      const current = socket;
      if (!current) return;
      socket = null;
      current.close(1000, "page left");
    });
    window.addEventListener("pageshow", (event) => {
      if (event.persisted && shown && !socket && !stopped) open(shown);
    });

    return {
      start(handlers) {
        shown = handlers;
        open(handlers);
      },
      send(doc) {
        if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(doc));
      },
      hold() {
        held = true;
      },
      retoken(next) {
        seatToken = next;
        held = false;
        if (waiting) {
          const handlers = waiting;
          waiting = null;
          open(handlers);
        }
      },
    };
  }

  /**
   * Show the table and follow it through `transport`.
   * @param {Transport} transport
   */
  function connect(transport) {
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

  /** @param {ServerMessage} doc */
  function receive(doc) {
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
      showError(doc.message || doc.code, doc.code);
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

  /** Ask the server for a new link of this page's seat: the old one stops working (its other
   * connections are closed), and this page's address becomes the new link. */
  async function replaceLink() {
    const transport = client.transport;
    const token = client.token;
    const seat = client.view ? client.view.seat : null;
    if (!transport || !token || !client.table || seat === null) return;
    const button = /** @type {HTMLButtonElement} */ ($("replace-link"));
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

  document.addEventListener("DOMContentLoaded", () => {
    $("replace-link").addEventListener("click", () => { replaceLink(); });
    $("again").addEventListener("click", () => { playAgain(); });
  });
  i18n.onChange(() => seatWords());

  // ---- The lobby.

  // Every text the lobby's additions and the panel of a link that leads nowhere show, in plain
  // English and in one place, for the translations to take over.
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
    botAt: (/** @type {string} */ name, /** @type {string} */ seat) => t("lobby.botAt", { name: t(`bot.${name}`), seat }),
    bots: (/** @type {string[]} */ list) => (list.length ? t("lobby.bots", { list: list.join(", ") }) : t("lobby.noBots")),
    get watch() { return t("lobby.watch"); },
    missingTitle: (/** @type {string | null} */ table) => t("lobby.missingTitle", { table }),
    get missingDetail() { return t("lobby.missingDetail"); },
    get refusedTitle() { return t("lobby.refusedTitle"); },
    get replacedTitle() { return t("lobby.replacedTitle"); },
    replacedDetail: (/** @type {string | null} */ table) => t("lobby.replacedDetail", { table }),
    refusedDetail: (/** @type {string | null} */ table) => t("lobby.refusedDetail", { table }),
    get watchInstead() { return t("lobby.watchInstead"); },
    get back() { return t("lobby.back"); },
  };
  // The players' page of the documentation named by pyproject.toml ([project.urls]
  // Documentation), "How to play" (the numbered rules are for implementers): the one place to
  // change if the documentation moves.
  const RULES_URL = "https://github.com/shock-rules/shock-rules/blob/main/docs/play.md";
  // How often the open tables are asked for while the lobby shows: a table's round moves
  // slowly, and every open lobby costs the server one request per period.
  const OPEN_TABLES_EVERY_MS = 10000;
  /** @type {number | null} */
  let openTablesTimer = null;

  /** Return the lobby's address: this server's front page, or the page itself in the
   * in-browser build (which may live in a folder of its site). */
  function lobbyUrl() {
    return window.shockHost ? location.pathname : "/";
  }

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
   * Show the list of open tables (as `GET /api/tables` gives them) with a Watch link each.
   * @param {OpenTable[]} tables
   */
  function showOpenTables(tables) {
    const list = $("open-tables-list");
    list.replaceChildren();
    for (const t of tables) {
      const table = String(t.table);
      const item = el("li", "open-table");
      item.dataset.table = table;
      const bots = Object.entries(t.bots || {}).map(([seat, name]) => LOBBY_TEXT.botAt(name, seat));
      const what = [
        LOBBY_TEXT.players(t.players), LOBBY_TEXT.variant(String(t.variant)),
        t.over ? LOBBY_TEXT.over : LOBBY_TEXT.round(t.round),
        LOBBY_TEXT.persons(t.persons, t.seated), LOBBY_TEXT.bots(bots), LOBBY_TEXT.age(t.age),
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
    $("gone-title").textContent = missing ? LOBBY_TEXT.missingTitle(client.table)
      : kind === "replaced" ? LOBBY_TEXT.replacedTitle : LOBBY_TEXT.refusedTitle;
    $("gone-detail").textContent = missing ? LOBBY_TEXT.missingDetail
      : kind === "replaced" ? LOBBY_TEXT.replacedDetail(client.table) : LOBBY_TEXT.refusedDetail(client.table);
    const watch = $("gone-watch");
    // A spectator's link of a table that exists still works: offer it for a refused token.
    watch.hidden = missing || !!window.shockHost;
    watch.textContent = LOBBY_TEXT.watchInstead;
    watch.href = tableLink(/** @type {string} */ (client.table), null);
    const back = $("gone-back");
    back.textContent = LOBBY_TEXT.back;
    back.href = lobbyUrl();
  }

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
      for (const kind of ["person", ...BOTS]) {
        const option = el("option", "", kind === "person" ? t("lobby.person") : t("lobby.bot", { name: t(`bot.${kind}`) }));
        option.value = kind;
        select.append(option);
      }
      select.value = old[seat] || (seat === 0 ? "person" : "heuristic");
      label.append(select);
      box.append(label);
    }
  }

  /**
   * @param {string} table
   * @param {string | null} token
   */
  function tableLink(table, token) {
    const query = new URLSearchParams({ table });
    // The token in the fragment: a browser never sends it to a server (nor to a proxy's log).
    const fragment = token ? `#${new URLSearchParams({ token })}` : "";
    return `${location.origin}/?${query}${fragment}`;
  }

  /** @param {SubmitEvent} event */
  async function createTable(event) {
    event.preventDefault();
    /** @type {Record<string, string>} */
    const bots = {};
    for (const select of $("seat-choices").querySelectorAll("select")) {
      if (select.value !== "person") bots[/** @type {string} */ (select.dataset.seat)] = select.value;
    }
    /** @type {TableRequest} */
    const body = { players: Number($("players").value), variant: $("variant").value, bots };
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

  // ---- A table this tab created: the other seats' links, and "Play again".

  const CREATED_KEY = "shock-rules.created.";

  /**
   * Keep what this tab asked for and got when it created `table` (for this tab only: a seat's
   * token is a secret, and sessionStorage dies with the tab).
   * @param {string} table
   * @param {CreatedTable} created
   */
  function remember(table, created) {
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
  function recalled(table) {
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
  async function createAndSit(body) {
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
  i18n.onChange(() => { if (!$("table").hidden) showLinks(); });

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
      const button = /** @type {HTMLButtonElement} */ ($("again"));
      button.disabled = true;
      try {
        await createAndSit(created.body);
      } catch (exc) {
        showError(t("lobby.createError", { reason: /** @type {Error} */ (exc).message }));
        button.disabled = false;
      }
      return;
    }
    const query = new URLSearchParams({ players: String(view.config.players), variant: String(view.config.variant) });
    location.assign(`${lobbyUrl()}?${query}`);
  }

  /** Forget the finished game's page state before a new game shows in this page. */
  function restart() {
    client.view = null;
    client.events = [];
    client.eventKeys = new Set();
    client.trickShown = new Set();
    client.lastTrickKey = null;
    client.withdrawMode = false;
    client.pending = false;
    loggedCount = 0;
    loggedLang = null;
    $("log").replaceChildren();
    $("game-over").hidden = true;
  }

  /** Fill in the lobby's rules link, its listed box and its open tables (none of them for the
   * in-page host, which has no list of tables). */
  function showLobbyExtras() {
    const rules = $("rules-link");
    rules.href = RULES_URL;
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
  i18n.onChange(() => {
    if ($("lobby").hidden) return;
    seatChoices();
    lobbyWords();
    if (!window.shockHost) refreshOpenTables();
  });

  // ---- Start.

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
    if (client.table) {
      connect(socketTransport(client.table, client.token));
    } else {
      $("lobby").hidden = false;
      // The keys play a table; the lobby has nothing for them to do.
      $("keys-button").hidden = true;
      $("players").addEventListener("change", seatChoices);
      $("create-form").addEventListener("submit", createTable);
      // "Play again" of a table this tab did not create: its players and variant filled in.
      const players = params.get("players");
      const variant = params.get("variant");
      if (players && [...$("players").options].some((o) => o.value === players)) $("players").value = players;
      if (variant && [...$("variant").options].some((o) => o.value === variant)) $("variant").value = variant;
      seatChoices();
      showLobbyExtras();
    }
  }

  window.shockClient = {
    chestOdds, fractionText, parseChestCard, describe, client, receive, send, connect,
    socketTransport,
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
