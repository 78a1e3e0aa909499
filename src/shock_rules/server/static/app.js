// The browser client of `shock-rules serve`: plain modern JavaScript, no build step, nothing
// fetched but this server's own API. It shows one seat's view document (shock-rules/2) and
// sends the seat's decisions as {"type": "action", "action": <legal action>, "step": N}.
"use strict";

(() => {
  const SUIT_SYMBOL = { H: "\u2665", S: "\u2660", D: "\u2666", C: "\u2663" };
  const SUIT_NAME = { H: "hearts", S: "spades", D: "diamonds", C: "clubs" };
  const POISON_CARDS = new Set(["7H", "7S", "7D"]);
  const POTION_CARDS = new Set(["5C", "7C"]);
  const BOTS = ["random", "heuristic", "mcts"];

  const $ = (id) => document.getElementById(id);

  /** Return a new element with a class and text. */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // ---- Exact fractions, written like Python's fractions.Fraction ("0", "3", "-5/22").

  function gcd(a, b) {
    a = Math.abs(a);
    b = Math.abs(b);
    while (b) [a, b] = [b, a % b];
    return a;
  }

  /** Return the fraction num/den in lowest terms as text, the way Python's str(Fraction) does. */
  function fractionText(num, den) {
    if (den === 0 || num === 0) return "0";
    const g = gcd(num, den);
    const n = num / g;
    const d = den / g;
    return d === 1 ? String(n) : `${n}/${d}`;
  }

  function percent(num, den) {
    return den ? `${((100 * num) / den).toFixed(1)}%` : "0%";
  }

  /** Return the chest card written G<large>/<small> or P[<large>]:<type> as an object. */
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
   */
  function chestOdds(view, seat) {
    const me = view.seats[seat];
    if (!me || me.status !== "in") return null;
    const counts = new Map();
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

  // ---- Cards.

  /** Return an element showing a number card (or a card back for null). */
  function cardElement(card, tag = "span") {
    const node = el(tag, "card");
    if (card === null || card === undefined) {
      node.classList.add("back");
      node.setAttribute("aria-label", "face-down card");
      node.dataset.card = "";
      return node;
    }
    const rank = card.slice(0, -1);
    const suit = card.slice(-1);
    node.classList.add(`suit-${suit}`);
    node.dataset.card = card;
    node.setAttribute("aria-label", `${rank} of ${SUIT_NAME[suit]}`);
    node.append(el("span", "rank", rank), el("span", "pip", SUIT_SYMBOL[suit]));
    if (POISON_CARDS.has(card)) node.append(el("span", "mark", "\u2620"));
    if (POTION_CARDS.has(card)) node.append(el("span", "mark", "\u2697"));
    return node;
  }

  function chestElement(text) {
    const card = parseChestCard(text);
    const node = el("span", "chest-card");
    node.dataset.chestCard = text;
    if (card && card.poison !== null) {
      node.classList.add("poison");
      node.textContent = `\u2620 ${card.poison}` + (card.large !== 1 ? ` +${card.large}` : "");
    } else if (card) {
      node.classList.add("gem");
      node.textContent = `\u25c6${card.large} / ${card.small}`;
    } else {
      node.textContent = text;
    }
    return node;
  }

  // ---- Events, in words.

  function seatName(seat) {
    if (seat === null || seat === undefined) return "nobody";
    return client.view && client.view.seat === seat ? "you" : `seat ${seat}`;
  }

  const gems = (n) => `${n} gem${n === 1 ? "" : "s"}`;

  function describe(e) {
    const who = seatName(e.seat);
    switch (e.event) {
      case "RoundStarted":
        return `Round ${e.round} begins` + (e.leader !== null ? `; ${seatName(e.leader)} leads` : "");
      case "LeaderChosen": return `${who} ${who === "you" ? "are" : "is"} chosen to lead`;
      case "CardDealt": return `${who} received ${e.card}`;
      case "HiddenCardDealt": return `${who} received a card`;
      case "TrumpRevealed": return `Trump: ${e.card}`;
      case "CardPlayed":
        return `${who} played ${e.card}` + (e.face_up ? "" : " face down") +
          (e.gems ? ` (${gems(e.gems)} on it)` : "");
      case "HiddenCardPlayed":
        return `${who} played a card face down` + (e.gems ? ` (${gems(e.gems)} on it)` : "");
      case "Withdrew": return `${who} withdrew, banking ${gems(e.banked)}`;
      case "TrickWon": return `${who} won trick ${e.trick} with ${e.card}, taking ${gems(e.gems)}`;
      case "TrickAbandoned": return `Trick ${e.trick} abandoned (${gems(e.gems)})`;
      case "PoisonTaken": return `${who} took poison ${e.card} (${e.poison})`;
      case "PotionTaken": return `${who} took potion ${e.card}`;
      case "PoisonCovered": return `${who} covered ${e.card} with a potion`;
      case "ChestRevealed": return `${who} revealed chest card ${e.number}: ${e.card}`;
      case "ChestStopped": return `${who} stopped revealing`;
      case "GemsGained": return `${who} gained ${gems(e.gems)}`;
      case "Shocked": return `${who} ${who === "you" ? "are" : "is"} shocked by ${e.poison}, losing ${gems(e.lost)}`;
      case "GemsBanked": return `${who} banked ${gems(e.gems)}`;
      case "RoundEnded": return `Round ${e.round} ended (${e.reason.replace(/_/g, " ")})`;
      case "GameEnded":
        return `Game over: scores ${e.scores.join(", ")}; winner${e.winners.length > 1 ? "s" : ""} ` +
          e.winners.map(seatName).join(" and ");
      default: return e.event;
    }
  }

  // ---- The client's state.

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
  };

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

  function setConnection(text, kind) {
    const node = $("connection");
    node.hidden = false;
    node.textContent = text;
    node.dataset.state = kind;
  }

  function showError(text) {
    const node = $("error");
    node.textContent = text;
    node.hidden = !text;
  }

  // ---- Sending actions.

  function send(action) {
    const view = client.view;
    if (!view || client.pending) return;
    if (!client.transport || !client.connected) {
      showError("Not connected: reconnecting, try again in a moment.");
      return;
    }
    client.pending = true;
    client.withdrawMode = false;
    showError("");
    client.transport.send({ type: "action", action, step: view.step });
    render();
  }

  // ---- Rendering.

  /** Whether the viewer can act now: its turn, connected, and no action on its way. */
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
    document.title = (view.your_turn ? "\u25cf Your turn \u2014 " : "") + "Shock! table " + client.table;
  }

  function renderStatus(view) {
    const parts = [`Round ${view.round}/5`, `trick ${view.trick_number}`, `step ${view.step}`];
    parts.push(view.seat === null ? "spectating" : `you are seat ${view.seat}`);
    $("status-line").textContent = parts.join(" \u00b7 ");
    const turn = $("turn-line");
    turn.className = "turn";
    if (view.phase === "over") {
      const end = [...client.events].reverse().find((e) => e.event === "GameEnded");
      const scores = end ? end.scores : view.seats.map((s) => s.in_bag);
      const best = Math.max(...scores);
      const winners = end ? end.winners : scores.flatMap((s, i) => (s === best ? [i] : []));
      turn.textContent = `Game over \u2014 winner${winners.length > 1 ? "s" : ""}: ` +
        winners.map(seatName).join(" and ") + ` (scores ${scores.join(", ")})`;
      turn.classList.add("over");
    } else if (!client.connected) {
      turn.textContent = "Connection lost: reconnecting\u2026";
      turn.classList.add("lost");
    } else if (view.your_turn) {
      turn.textContent = client.pending ? "Sent\u2026" : turnHint(view);
      turn.classList.add("mine");
    } else if (view.to_act !== null) {
      turn.textContent = `Waiting for ${seatName(view.to_act)}\u2026`;
    } else {
      turn.textContent = "Dealing\u2026";
    }
  }

  function turnHint(view) {
    const kinds = new Set(view.legal_actions.map((a) => a.kind));
    if (client.withdrawMode) return "Your turn: choose the card to play face down as you withdraw";
    if (kinds.has("cover")) return "Your turn: choose the poison your potion covers";
    if (kinds.has("reveal")) return "Your turn: reveal another chest card, or stop";
    if (kinds.has("down")) return "Your turn: play a card face down";
    return "Your turn: play a card" + (kinds.has("withdraw") ? ", or withdraw" : "");
  }

  function renderBoard(view) {
    const trump = $("trump");
    trump.replaceChildren(view.trump ? cardElement(view.trump) : el("span", "none", "\u2014"));
    const decks = [
      `dungeon deck ${view.deck_size}`, `discard ${view.discard.length}`,
      `chest deck ${view.chest_deck.length}`, `chest discard ${view.chest_discard.length}`,
      `gem supply ${view.supply}`,
    ];
    $("decks").textContent = decks.join(" \u00b7 ");

    const trick = $("trick");
    trick.replaceChildren();
    const shown = new Set();
    for (const played of view.trick) {
      const slot = el("div", "played");
      slot.dataset.seat = String(played.seat);
      const key = `${view.round}.${view.trick_number}.${played.seat}`;
      shown.add(key);
      if (!client.trickShown.has(key)) slot.classList.add("land");
      const card = cardElement(played.card);
      if (!played.face_up) card.classList.add("face-down");
      slot.append(card, el("span", "who", seatName(played.seat)));
      if (played.gems) slot.append(el("span", "gems", `\u25c6${played.gems}`));
      trick.append(slot);
    }
    client.trickShown = shown;
    renderLastTrick(view);

    const centre = $("chest-centre");
    centre.replaceChildren();
    for (const c of view.chest_centre) centre.append(chestElement(c));
    if (!view.chest_centre.length) centre.append(el("span", "none", "empty"));

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
        el("span", "", `Next chest card for ${seatName(result.seat)} (${result.cards} left): `),
        el("span", "odds-poison", `poison ${result.poison} (${result.poisonPercent})`),
        el("span", "", " \u00b7 "),
        el("span", result.shock === "0" ? "odds-shock none-shock" : "odds-shock",
          `shock ${result.shock} (${result.shockPercent})`),
        el("span", "", ` \u00b7 gems ${sign}${result.gainValue.toFixed(2)} on average`),
      );
    }
  }

  /** Return the last finished trick of this round from the log: its end event and the cards
   * played in it (others' face-down cards stay hidden), or null. */
  function lastTrick() {
    const ev = client.events;
    let end = -1;
    for (let i = ev.length - 1; i >= 0 && end < 0; i--) {
      const kind = ev[i].event;
      if (kind === "TrickWon" || kind === "TrickAbandoned") end = i;
      else if (["CardPlayed", "HiddenCardPlayed", "RoundStarted", "TrumpRevealed"].includes(kind)) return null;
    }
    if (end < 0) return null;
    const cards = [];
    for (let i = end - 1; i >= 0; i--) {
      const kind = ev[i].event;
      if (kind === "CardPlayed" || kind === "HiddenCardPlayed") cards.unshift(ev[i]);
      else if (["TrickWon", "TrickAbandoned", "RoundStarted", "TrumpRevealed"].includes(kind)) break;
    }
    return { end: ev[end], cards };
  }

  function renderLastTrick(view) {
    const box = $("last-trick");
    box.replaceChildren();
    const last = view.trick.length ? null : lastTrick();
    box.hidden = !last;
    if (!view.trick.length && !last) $("trick").append(el("span", "none", "no card played yet"));
    if (!last) return;
    const { end, cards } = last;
    box.append(el("span", "label", end.event === "TrickWon"
      ? `Last trick: ${seatName(end.seat)} won with ${end.card}` : "Last trick: abandoned"));
    const row = el("div", "cards");
    for (const played of cards) {
      const slot = el("div", "played");
      const card = cardElement(played.event === "CardPlayed" ? played.card : null);
      card.classList.add("small");
      if (played.face_up === false || played.event === "HiddenCardPlayed") card.classList.add("face-down");
      if (end.event === "TrickWon" && played.seat === end.seat && played.card === end.card) {
        slot.classList.add("winner");
      }
      slot.append(card, el("span", "who", seatName(played.seat)));
      row.append(slot);
    }
    box.append(row);
  }

  function renderHand(view) {
    const mine = view.seat !== null;
    document.querySelector(".mine").hidden = !mine;
    if (!mine) return;
    const byCard = new Map();
    for (const action of view.legal_actions) {
      if (!action.card) continue;
      if (!byCard.has(action.card)) byCard.set(action.card, {});
      byCard.get(action.card)[action.kind] = action;
    }
    const active = canAct(view);
    const canWithdraw = active && view.legal_actions.some((a) => a.kind === "withdraw");
    if (!canWithdraw) client.withdrawMode = false;

    const hand = $("hand");
    hand.replaceChildren();
    $("hand-title").textContent = `Your hand (${view.hand.length})`;
    for (const card of view.hand) {
      const button = cardElement(card, "button");
      button.type = "button";
      const options = byCard.get(card) || {};
      const action = client.withdrawMode ? options.withdraw : options.play || options.down;
      if (active && action) {
        button.classList.add("legal");
        button.dataset.notation = action.notation;
        button.title = action.notation;
        button.addEventListener("click", () => send(action));
      } else {
        button.disabled = true;
      }
      hand.append(button);
    }
    if (!view.hand.length) hand.append(el("span", "none", "no cards"));

    const faceDown = $("face-down");
    faceDown.replaceChildren();
    if (view.own_face_down.length) {
      faceDown.append(el("span", "label", "Your face-down cards: "));
      for (const card of view.own_face_down) faceDown.append(cardElement(card));
    }

    const actions = $("actions");
    actions.replaceChildren();
    if (canWithdraw) {
      const toggle = el("button", "action mode", client.withdrawMode ? "Cancel withdraw" : "Withdraw\u2026");
      toggle.type = "button";
      toggle.id = "withdraw-mode";
      toggle.classList.toggle("active", client.withdrawMode);
      toggle.addEventListener("click", () => {
        client.withdrawMode = !client.withdrawMode;
        render();
      });
      actions.append(toggle);
    }
    for (const action of view.legal_actions) {
      if (!["cover", "reveal", "stop"].includes(action.kind) || !active) continue;
      const label = action.kind === "cover" ? `Cover ${action.card}`
        : action.kind === "reveal" ? "Reveal a chest card" : "Stop";
      const button = el("button", `action ${action.kind}`, label);
      button.type = "button";
      button.dataset.notation = action.notation;
      button.addEventListener("click", () => send(action));
      actions.append(button);
    }
  }

  function renderSeats(view) {
    const seats = $("seats");
    seats.replaceChildren();
    for (const s of view.seats) {
      const box = el("div", `seat status-${s.status}`);
      box.dataset.seat = String(s.seat);
      if (s.seat === view.seat) box.classList.add("me");
      if (s.seat === view.to_act) box.classList.add("to-act");
      const title = el("div", "seat-title");
      title.append(el("strong", "", s.seat === view.seat ? `Seat ${s.seat} (you)` : `Seat ${s.seat}`),
        el("span", `badge ${s.status}`, s.status));
      if (s.seat === view.leader) title.append(el("span", "badge leader", "leads"));
      box.append(title);
      const facts = el("div", "facts");
      const fact = (name, value, cls) => {
        const f = el("span", `fact ${cls}`);
        f.append(el("span", "k", name), el("span", "v", String(value)));
        facts.append(f);
      };
      fact("score (in bag)", s.in_bag, "in-bag");
      fact("on bag", `\u25c6${s.on_bag}`, "on-bag");
      fact("hand", s.hand_size, "hand-size");
      if (s.face_down_count) fact("face down", s.face_down_count, "face-down-count");
      box.append(facts);
      if (s.poisons.length) {
        const row = el("div", "poisons");
        row.append(el("span", "k", "poisons "));
        for (const p of s.poisons) {
          const c = cardElement(p.card);
          c.classList.add("small", p.covered ? "covered" : "uncovered");
          c.title = `${p.poison}${p.covered ? " (covered)" : ""}`;
          const item = el("span", "poison");
          item.append(c, el("span", "ptype", p.poison + (p.covered ? " (covered)" : "")));
          row.append(item);
        }
        box.append(row);
      }
      if (s.potions.length) {
        // A potion that covered a poison stays in front of its seat; the others are stored.
        const stored = s.potions.length - s.poisons.filter((p) => p.covered).length;
        const row = el("div", "potions");
        row.dataset.stored = String(stored);
        row.append(el("span", "k", `potions (${stored} stored) `));
        for (const card of s.potions) {
          const c = cardElement(card);
          c.classList.add("small");
          row.append(c);
        }
        box.append(row);
      }
      if (s.void_suits.length) {
        box.append(el("div", "voids", "void in " + s.void_suits.map((x) => SUIT_SYMBOL[x]).join(" ")));
      }
      seats.append(box);
    }
  }

  let loggedCount = 0;
  function renderLog() {
    const log = $("log");
    if (loggedCount === client.events.length && log.childElementCount === Math.min(loggedCount, 200)) return;
    log.replaceChildren();
    const shown = client.events.slice(-200).reverse();
    shown.forEach((e, i) => {
      const item = el("li", `event ev-${e.event}`);
      item.dataset.step = String(e.step ?? "");
      item.append(el("span", "step", String(e.step ?? "")), el("span", "text", describe(e)));
      if (loggedCount && i < client.events.length - loggedCount) item.classList.add("fresh");
      log.append(item);
    });
    loggedCount = client.events.length;
  }

  // ---- Transports: one UI over two ways to reach the game. A transport carries protocol
  // documents (shock-rules/2) between this page and the game's host: `start(handlers)` begins,
  // then calls `handlers.document(doc)` for each document received and `handlers.status(kind,
  // detail)` as the link changes ("connecting", "open", "closed" while it retries, and the final
  // "refused" or "missing"); `send(doc)` sends one document. This file's transport is a
  // WebSocket to `shock-rules serve`; the in-browser build brings one that runs the engine in
  // the page (window.shockHost).

  /** Return the WebSocket transport of one table at this page's server. */
  function socketTransport(table, token) {
    let socket = null;
    let retries = 0;
    let lastStep = null;
    let stopped = false;

    function url() {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      const base = `${scheme}//${location.host}/ws/${encodeURIComponent(table)}`;
      const query = new URLSearchParams();
      if (token) query.set("token", token);
      // Tell the server the last step this page saw, so it may send only what was missed.
      if (lastStep !== null) query.set("since", String(lastStep));
      const q = query.toString();
      return q ? `${base}?${q}` : base;
    }

    function open(handlers) {
      if (stopped) return;
      handlers.status("connecting");
      const current = new WebSocket(url());
      socket = current;
      current.addEventListener("open", () => {
        retries = 0;
        handlers.status("open");
      });
      current.addEventListener("message", (message) => {
        let doc;
        try {
          doc = JSON.parse(message.data);
        } catch {
          return;
        }
        if (doc && doc.type === "view" && doc.view) lastStep = doc.view.step;
        handlers.document(doc);
      });
      current.addEventListener("close", (event) => {
        if (socket !== current) return;
        socket = null;
        if (event.code === 4401 || event.code === 4403) {
          stopped = true;
          handlers.status("refused");
          return;
        }
        if (event.code === 4404) {
          stopped = true;
          handlers.status("missing");
          return;
        }
        const delay = Math.min(5000, 250 * 2 ** retries);
        retries += 1;
        handlers.status("closed");
        setTimeout(() => open(handlers), delay);
      });
    }

    return {
      start: open,
      send(doc) {
        if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(doc));
      },
    };
  }

  /** Show the table and follow it through `transport`. */
  function connect(transport) {
    client.transport = transport;
    $("table").hidden = false;
    transport.start({
      document: receive,
      status(kind) {
        client.connected = kind === "open";
        if (kind !== "open") client.pending = false;
        if (kind === "connecting") setConnection("connecting\u2026", "connecting");
        else if (kind === "open") setConnection("connected", "open");
        else if (kind === "refused") {
          setConnection("refused", "closed");
          showGone(kind);
        } else if (kind === "missing") {
          setConnection("no such table", "closed");
          showGone(kind);
        } else {
          setConnection("reconnecting\u2026", "closed");
          render();
        }
      },
    });
  }

  function receive(doc) {
    if (!doc || typeof doc !== "object") return;
    if (doc.type === "view" && doc.view) {
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
    } else if (doc.type === "events") {
      addEvents(doc.events);
      renderLog();
    } else if (doc.type === "error") {
      client.pending = false;
      client.lastError = doc;
      showError(`${doc.code}: ${doc.message}`);
      render();
    }
  }

  // ---- The lobby.

  // Every text the lobby's additions and the panel of a link that leads nowhere show, in plain
  // English and in one place, for the translations to take over.
  const LOBBY_TEXT = {
    listed: "listed in the lobby (anyone here may watch it)",
    rules: "Rules of the game",
    openTables: "Open tables",
    openTablesEmpty: "No open tables right now: create one, and it shows here.",
    openTablesError: "Could not load the open tables; trying again in a few seconds.",
    players: (n) => `${n} players`,
    round: (r) => `round ${r}`,
    over: "game over",
    persons: (n) => (n === 1 ? "1 person" : `${n} persons`),
    botAt: (name, seat) => `${name} (seat ${seat})`,
    bots: (list) => (list.length ? `bots: ${list.join(", ")}` : "no bots"),
    watch: "Watch",
    missingTitle: (table) => `There is no table ${table}`,
    missingDetail: "It may have ended and been cleared away, been abandoned, or the link is"
      + " not quite right.",
    refusedTitle: "This link's seat token is not valid",
    refusedDetail: (table) => `The link names table ${table}, but none of its seats. Ask for`
      + " your seat's link again, or watch the table as a spectator.",
    watchInstead: "Watch this table",
    back: "Back to the lobby",
  };
  // The rules' pages in the documentation named by pyproject.toml ([project.urls]
  // Documentation): the one place to change if the documentation moves.
  const RULES_URL = "https://github.com/shock-rules/shock-rules/tree/main/docs/rules";
  // How often the open tables are asked for while the lobby shows: a table's round moves
  // slowly, and every open lobby costs the server one request per period.
  const OPEN_TABLES_EVERY_MS = 10000;
  let openTablesTimer = null;

  /** Return the lobby's address: this server's front page, or the page itself in the
   * in-browser build (which may live in a folder of its site). */
  function lobbyUrl() {
    return window.shockHost ? location.pathname : "/";
  }

  /** Ask for the open tables and show them; again every OPEN_TABLES_EVERY_MS while the lobby
   * shows (a hidden tab skips its turns: nobody reads it). */
  async function refreshOpenTables() {
    clearTimeout(openTablesTimer);
    openTablesTimer = null;
    if ($("lobby").hidden || window.shockHost) return;
    if (!document.hidden) {
      const error = $("open-tables-error");
      try {
        const response = await fetch("/api/tables", { headers: { Accept: "application/json" } });
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

  /** Show the list of open tables (as `GET /api/tables` gives them) with a Watch link each. */
  function showOpenTables(tables) {
    const list = $("open-tables-list");
    list.replaceChildren();
    for (const t of tables) {
      const table = String(t.table);
      const item = el("li", "open-table");
      item.dataset.table = table;
      const bots = Object.entries(t.bots || {}).map(([seat, name]) => LOBBY_TEXT.botAt(name, seat));
      const what = [
        LOBBY_TEXT.players(t.players), String(t.variant),
        t.over ? LOBBY_TEXT.over : LOBBY_TEXT.round(t.round),
        LOBBY_TEXT.persons(t.persons), LOBBY_TEXT.bots(bots),
      ].join(" \u00b7 ");
      const link = el("a", "watch", LOBBY_TEXT.watch);
      link.href = tableLink(table, null);
      item.append(el("span", "open-table-what", what), link);
      list.append(item);
    }
    const empty = $("open-tables-empty");
    empty.textContent = LOBBY_TEXT.openTablesEmpty;
    empty.hidden = tables.length > 0;
  }

  /** Show, instead of the board, that the link leads nowhere: `kind` is the transport's
   * "missing" (no such table) or "refused" (a token that is none of its seats'). */
  function showGone(kind) {
    const missing = kind === "missing";
    $("table").hidden = true;
    $("lobby").hidden = true;
    const gone = $("gone");
    gone.hidden = false;
    gone.dataset.kind = kind;
    $("gone-title").textContent = missing
      ? LOBBY_TEXT.missingTitle(client.table) : LOBBY_TEXT.refusedTitle;
    $("gone-detail").textContent = missing
      ? LOBBY_TEXT.missingDetail : LOBBY_TEXT.refusedDetail(client.table);
    const watch = $("gone-watch");
    // A spectator's link of a table that exists still works: offer it for a refused token.
    watch.hidden = missing || !!window.shockHost;
    watch.textContent = LOBBY_TEXT.watchInstead;
    watch.href = tableLink(client.table, null);
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
      const label = el("label", "seat-choice", `Seat ${seat} `);
      const select = el("select");
      select.name = `seat-${seat}`;
      select.dataset.seat = String(seat);
      for (const kind of ["person", ...BOTS]) {
        const option = el("option", "", kind === "person" ? "person" : `bot: ${kind}`);
        option.value = kind;
        select.append(option);
      }
      select.value = old[seat] || (seat === 0 ? "person" : "heuristic");
      label.append(select);
      box.append(label);
    }
  }

  function tableLink(table, token) {
    const query = new URLSearchParams({ table });
    if (token) query.set("token", token);
    return `${location.origin}/?${query}`;
  }

  async function createTable(event) {
    event.preventDefault();
    const bots = {};
    for (const select of $("seat-choices").querySelectorAll("select")) {
      if (select.value !== "person") bots[select.dataset.seat] = select.value;
    }
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
        connect(game.transport);
        return;
      }
      const response = await fetch("/api/tables", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const doc = await response.json().catch(() => ({}));
      if (!response.ok || doc.type === "error" || !doc.table) {
        throw new Error(doc.message || `the server answered ${response.status}`);
      }
      showLinks(doc);
    } catch (exc) {
      error.textContent = `Could not create the table: ${exc.message}`;
      error.hidden = false;
    } finally {
      $("create").disabled = false;
    }
  }

  function showLinks(doc) {
    $("links").hidden = false;
    $("links-table").textContent = doc.table;
    const list = $("seat-links");
    list.replaceChildren();
    for (const { seat, token } of doc.seats) {
      const item = el("li", "seat-link");
      item.dataset.seat = String(seat);
      const link = el("a", "", `Play seat ${seat}`);
      link.href = tableLink(doc.table, token);
      const copy = el("input", "copy");
      copy.readOnly = true;
      copy.value = link.href;
      copy.addEventListener("focus", () => copy.select());
      item.append(link, copy);
      list.append(item);
    }
    $("spectate-link").href = tableLink(doc.table, null);
  }

  /** Fill in the lobby's rules link, its listed box and its open tables (none of them for the
   * in-page host, which has no list of tables). */
  function showLobbyExtras() {
    const rules = $("rules-link");
    rules.href = RULES_URL;
    rules.textContent = LOBBY_TEXT.rules;
    $("listed-label").textContent = LOBBY_TEXT.listed;
    $("open-tables-title").textContent = LOBBY_TEXT.openTables;
    const hosted = !!window.shockHost;
    $("listed-choice").hidden = hosted;
    $("open-tables").hidden = hosted;
    if (hosted) return;
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && !$("lobby").hidden) refreshOpenTables();
    });
    refreshOpenTables();
  }

  // ---- Start.

  function start() {
    const params = new URLSearchParams(location.search);
    const path = /^\/table\/([^/]+)\/?$/.exec(location.pathname);
    client.table = path ? decodeURIComponent(path[1]) : params.get("table");
    client.token = params.get("token");
    if (client.table) {
      connect(socketTransport(client.table, client.token));
    } else {
      $("lobby").hidden = false;
      $("players").addEventListener("change", seatChoices);
      $("create-form").addEventListener("submit", createTable);
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
