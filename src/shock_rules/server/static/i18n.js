// The words of the browser client, in English and Brazilian Portuguese (the game is Brazilian:
// its rulebook and its online edition are in Portuguese, and the Portuguese words below are the
// rulebook's own: vaza, rodada, trunfo, Baú, Bolsa de Tesouros, joias, Choque Anafilático).
// The language comes from the browser and can be switched; the choice is remembered.
//
// An ES module: `t(key, params)` gives a message in the page's language, `setLang`,
// `language()` and `LANGUAGES` choose and tell it, `onChange` calls back on a switch; the
// page's fixed text (data-i18n="key") is translated here. A game's module adds its own words
// (`addMessages`).
// @ts-check
/** @typedef {import("../../../../web/types/client").Message} Message */
/** @typedef {import("../../../../web/types/client").MessageParams} MessageParams */

const STORE_KEY = "shock-rules.lang";

/** One table of messages per language. A message is text with {name} holes, or a function
 * of its parameters where a number changes the words.
 * @type {Record<string, Record<string, Message>>} */
const MESSAGES = {
  en: {
    "lang.name": "English",
    "title.turn": "\u25cf Your turn \u2014 ",
    "title.table": "Shock! table {table}",
    "rules": "How to play",
    "help.keys": "Keys",
    "help.title": "Playing with the keyboard",
    "help.cards": "\u2190 \u2192 choose a card you may play; Enter or Space plays it",
    "help.digits": "1\u20139 play the 1st\u20139th card you may play",
    "help.withdraw": "W withdraw (then choose the card to lay face down); Esc cancels",
    "help.chest": "R reveal another chest card, S stop",
    "help.cover": "C cover the first poison your potion may cover",
    "help.toggle": "? shows or hides this help",
    // seats and people
    "you": "you",
    "nobody": "nobody",
    "seat": "seat {seat}",
    "Seat": "Seat {seat}",
    "Seat.you": "Seat {seat} (you)",
    "status.in": "in the round",
    "status.withdrawn": "withdrew",
    "status.shocked": "shocked",
    "leads": "leads",
    "is": (p) => (p.who === "you" ? "are" : "is"),
    // numbers of things
    "gems": (p) => `${p.n} gem${p.n === 1 ? "" : "s"}`,
    "cards": (p) => `${p.n} card${p.n === 1 ? "" : "s"}`,
    // status line
    "status.round": "Round {round} of 5",
    "status.trick": "trick {trick}",
    "status.you": "you are seat {seat}",
    "status.spectating": "watching",
    "turn.over": (p) => `Game over \u2014 ${Number(p.count) > 1 ? "winners" : "winner"}: ${p.names}`,
    "over.title": (p) => `${Number(p.count) > 1 ? "Winners" : "Winner"}: ${p.names}`,
    "over.youWon": "You won!",
    "over.winner": "winner",
    "over.place": (p) => { const n = Number(p.n); const s = n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"; return `${n}${s}`; },
    "over.placeHead": "Place",
    "over.playerHead": "Player",
    "over.scoreHead": "Gems in the bag",
    "over.gems": (p) => `${p.n} gem${p.n === 1 ? "" : "s"}`,
    "over.again": "Play again",
    "turn.lost": "Connection lost: reconnecting\u2026",
    "turn.sent": "Sent\u2026",
    "turn.waiting": "Waiting for {who}\u2026",
    "turn.dealing": "Dealing\u2026",
    "hint.withdraw": "Your turn: choose the card to lay face down as you withdraw",
    "hint.cover": "Your turn: choose the poison your potion covers",
    "hint.reveal": "Your turn: reveal another chest card, or stop",
    "hint.down": "Your turn: lay a card face down",
    "hint.play": "Your turn: play a card",
    "hint.playOrWithdraw": "Your turn: play a card, or withdraw",
    // board
    "board.trump": "Trump",
    "board.trick": "Trick",
    "board.chest": "Chest",
    "board.seats": "Players",
    "board.deck": "dungeon deck {n}",
    "board.discard": "discard pile {n}",
    "board.chestDeck": "chest deck {n}",
    "board.chestDiscard": "chest discard {n}",
    "board.supply": "gem supply {n}",
    "board.noCard": "no card played yet",
    "board.emptyChest": "no chest poison in the centre",
    "last.won": "Last trick: {who} won it with {card}, taking {gems}",
    "last.abandoned": "Last trick: everyone withdrew; its gems went back to the supply",
    "legend.won": "ringed: the card that won the trick; faded: the others",
    "legend.down": "dashed: laid face down (it cannot win)",
    "odds.title": "Next chest card for {who} ({cards} left):",
    "odds.poison": "poison {p}",
    "odds.shock": "shock {p}",
    "odds.gain": "gems {g} on average",
    // hand
    "hand.title": "Your hand ({n})",
    "hand.none": "no cards",
    "hand.faceDown": "Your face-down cards:",
    "btn.withdraw": "Withdraw\u2026",
    "btn.cancel": "Cancel withdrawing",
    "btn.cover": "Cover {card}",
    "btn.reveal": "Reveal a chest card",
    "btn.stop": "Stop",
    "card.icons": (p) => `${p.n} gem icon${p.n === 1 ? "" : "s"}`,
    "card.poison": "{type} poison",
    "card.potion": "potion",
    "card.back": "face-down card",
    "card.of": "{rank} of {suit}",
    "suit.H": "hearts", "suit.S": "spades", "suit.D": "diamonds", "suit.C": "clubs",
    "poison.bee": "bee", "poison.jellyfish": "jellyfish", "poison.spider": "spider",
    "chest.gem": "{large} for the revealer, {small} for each other player in the round",
    "chest.poisonGives": "{card} ({gems} for the revealer, unless it shocks them)",
    // seats panel
    "fact.inBag": "safe in bag",
    "fact.onBag": "at risk on bag",
    "fact.hand": "cards in hand",
    "fact.faceDown": "face down",
    "seat.poisons": "poisons",
    "seat.potions": (p) => `potions (${p.stored} kept for later)`,
    "seat.coveredBy": "covered by {card}",
    "seat.uncovered": "uncovered",
    "seat.voids": "has no {suits}",
    // log
    "log.title": "What happened",
    "ev.roundStarted": "Round {round} begins",
    "ev.roundStartedLeader": "Round {round} begins; {who} leads",
    "ev.leader": (p) => `${p.who} ${p.who === "you" ? "are" : "is"} chosen to lead`,
    "ev.dealt": (p) => `Cards dealt: ${p.parts}`,
    "ev.dealtYou": "you received {cards}",
    "ev.dealtOthers": (p) => `${p.who} received ${p.n} card${p.n === 1 ? "" : "s"}`,
    "ev.trump": "Trump is {card}",
    "ev.played": "{who} played {card}",
    "ev.playedGems": "{who} played {card} ({gems} on it)",
    "ev.down": "{who} laid a card face down",
    "ev.downCard": "{who} laid {card} face down",
    "ev.downGems": " ({gems} on it)",
    "ev.withdrew": "{who} withdrew, putting {gems} safely in the bag",
    "ev.trickWon": "{who} won trick {trick} with {card}, taking {gems}",
    "ev.trickAbandoned": "Trick {trick}: everyone withdrew; {gems} back to the supply",
    "ev.poisonTaken": "{who} took the {type} poison {card}",
    "ev.potionTaken": "{who} took the potion {card}",
    "ev.covered": "{who}: the potion {potion} covers {card}",
    "ev.coveredAny": "{who}: a potion covers {card}",
    "ev.chest": "{who} revealed chest card {n}: {card}",
    "ev.chestStopped": "{who} stopped revealing",
    "ev.gained": "{who} gained {gems}",
    "ev.shocked": (p) => `${p.who} ${p.who === "you" ? "are" : "is"} shocked by ${p.type}, losing ${p.gems}`,
    "ev.banked": "{who} put {gems} safely in the bag",
    "ev.roundEnded": "Round {round} ended: {reason}",
    "reason.hands_empty": "every card was played",
    "reason.nobody_left": "nobody is left in the round",
    "reason.one_left": "only one player is left in the round",
    "reason.all_withdrew": "everyone left withdrew during a trick",
    "ev.gameEnded": (p) => `Game over: ${Number(p.count) > 1 ? "winners" : "winner"} ${p.names}. Gems in the bag: ${p.scores}`,
    "and": " and ",
    "connection.connecting": "connecting\u2026",
    "connection.open": "connected",
    "connection.closed": "reconnecting\u2026",
    "connection.refused": "refused",
    "connection.missing": "no such table",
    "error.token": "This link's token is not valid for this table.",
    "error.missing": "There is no table {table}.",
    "error.offline": "Not connected: reconnecting, try again in a moment.",
    "local.python": "loading Python (1/3)\u2026",
    "local.wheels": "installing shock-rules (2/3)\u2026",
    "local.engine": "starting the engine (3/3)\u2026",
    "local.ready": "engine ready",
    "local.failed": "the engine failed to load",
    "local.here": "in this page",
    "lobby.newTable": "New table",
    "lobby.playersLabel": "Players",
    "lobby.variant": "Variant",
    "variant.standard": "standard",
    "variant.simplified": "simplified",
    "lobby.seats": "Seats",
    "lobby.person": "person",
    "lobby.bot": "bot: {name}",
    "bot.random": "random", "bot.heuristic": "heuristic", "bot.mcts": "mcts",
    "lobby.create": "Create table",
    "lobby.createError": "Could not create the table: {reason}",
    "lobby.httpError": "the server answered {status}",
    "lobby.table": "Table",
    "lobby.sendLinks": "Send each link to the person who plays that seat; anyone with a link plays that seat.",
    "lobby.playSeat": "Play seat {seat}",
    "lobby.yourSeat": "Seat {seat}: yours, in this page",
    "lobby.spectate": "Watch as a spectator",
    "lobby.listed": "listed in the lobby (anyone here may watch it)",
    "lobby.rules": "How to play",
    "lobby.openTables": "Open tables",
    "lobby.openTablesEmpty": "No open tables right now: create one, and it shows here.",
    "lobby.openTablesError": "Could not load the open tables; trying again in a few seconds.",
    "lobby.players": "{n} players",
    "lobby.round": "round {round}",
    "lobby.over": "game over",
    "lobby.persons": (p) => `${p.n === 1 ? "1 person" : `${p.n} persons`} (${p.here} here now)`,
    "lobby.tableId": "Table {table}",
    "lobby.ageNow": "created just now",
    "lobby.ageMinutes": (p) => `created ${p.n} minute${p.n === 1 ? "" : "s"} ago`,
    "lobby.ageHours": (p) => `created ${p.n} hour${p.n === 1 ? "" : "s"} ago`,
    "lobby.ageDays": (p) => `created ${p.n} day${p.n === 1 ? "" : "s"} ago`,
    "lobby.botAt": "{name} (seat {seat})",
    "lobby.bots": "bots: {list}",
    "lobby.noBots": "no bots",
    "lobby.watch": "Watch",
    "lobby.missingTitle": "There is no table {table}",
    "lobby.missingDetail": "It may have ended and been cleared away, been abandoned, or the link is not quite right.",
    "lobby.refusedTitle": "This link's seat token is not valid",
    "lobby.refusedDetail": "The link names table {table}, but none of its seats. Ask for your seat's link again, or watch the table as a spectator.",
    "lobby.watchInstead": "Watch this table",
    "lobby.back": "Back to the lobby",
    "lobby.replacedTitle": "This seat's link was replaced",
    "lobby.replacedDetail": "Someone who holds a seat of table {table} gave it a new link; this one no longer works. Ask for the new link, or watch the table as a spectator.",
    "seat.elsewhere": (p) => `This seat is also open elsewhere (${p.n} connections in all). If that is not you, replace its link.`,
    "seat.replace": "Replace this seat's link",
    "seat.replaced": "The seat has a new link: this page's address. The old link no longer works; send the new one to no one but its player.",
    "seat.replaceError": "Could not replace the link: {reason}",
    "connection.tooMany": "too many connections: {reason}",
  },
  "pt-BR": {
    "lang.name": "Português (Brasil)",
    "title.turn": "\u25cf Sua vez \u2014 ",
    "title.table": "Mesa {table} de Shock!",
    "rules": "Como jogar",
    "help.keys": "Teclas",
    "help.title": "Jogando pelo teclado",
    "help.cards": "\u2190 \u2192 escolhem uma carta que você pode jogar; Enter ou Espaço a joga",
    "help.digits": "1\u20139 jogam a 1ª\u20139ª carta que você pode jogar",
    "help.withdraw": "W retira você da rodada (depois escolha a carta virada para baixo); Esc cancela",
    "help.chest": "R revela outra Carta de Baú, S para",
    "help.cover": "C cobre o primeiro veneno que sua poção pode cobrir",
    "help.toggle": "? mostra ou esconde esta ajuda",
    "you": "você",
    "nobody": "ninguém",
    "seat": "lugar {seat}",
    "Seat": "Lugar {seat}",
    "Seat.you": "Lugar {seat} (você)",
    "status.in": "na rodada",
    "status.withdrawn": "retirou-se",
    "status.shocked": "em choque",
    "leads": "é o Líder",
    "is": () => "",
    "gems": (p) => `${p.n} joia${p.n === 1 ? "" : "s"}`,
    "cards": (p) => `${p.n} carta${p.n === 1 ? "" : "s"}`,
    "status.round": "Rodada {round} de 5",
    "status.trick": "vaza {trick}",
    "status.you": "você é o lugar {seat}",
    "status.spectating": "assistindo",
    "turn.over": (p) => `Fim de jogo \u2014 ${Number(p.count) > 1 ? "vencedores" : "vencedor"}: ${p.names}`,
    "over.title": (p) => `${Number(p.count) > 1 ? "Vencedores" : "Vencedor"}: ${p.names}`,
    "over.youWon": "Você venceu!",
    "over.winner": "vencedor",
    "over.place": "{n}\u00ba",
    "over.placeHead": "Posição",
    "over.playerHead": "Jogador",
    "over.scoreHead": "Joias na Bolsa",
    "over.gems": (p) => `${p.n} joia${p.n === 1 ? "" : "s"}`,
    "over.again": "Jogar de novo",
    "turn.lost": "Conexão perdida: reconectando\u2026",
    "turn.sent": "Enviado\u2026",
    "turn.waiting": "Esperando {who}\u2026",
    "turn.dealing": "Distribuindo\u2026",
    "hint.withdraw": "Sua vez: escolha a carta que vai virada para baixo ao se retirar",
    "hint.cover": "Sua vez: escolha o veneno que sua poção cobre",
    "hint.reveal": "Sua vez: revele outra Carta de Baú, ou pare",
    "hint.down": "Sua vez: jogue uma carta virada para baixo",
    "hint.play": "Sua vez: jogue uma carta",
    "hint.playOrWithdraw": "Sua vez: jogue uma carta, ou retire-se",
    "board.trump": "Trunfo",
    "board.trick": "Vaza",
    "board.chest": "Baú",
    "board.seats": "Jogadores",
    "board.deck": "Baralho de Masmorra {n}",
    "board.discard": "descarte {n}",
    "board.chestDeck": "Baralho de Baús {n}",
    "board.chestDiscard": "descarte do Baú {n}",
    "board.supply": "reserva de joias {n}",
    "board.noCard": "nenhuma carta jogada ainda",
    "board.emptyChest": "nenhum veneno do Baú no centro",
    "last.won": "Última vaza: {who} venceu com {card} e levou {gems}",
    "last.abandoned": "Última vaza: todos se retiraram; as joias voltaram para a reserva",
    "legend.won": "com contorno: a carta que venceu a vaza; esmaecidas: as outras",
    "legend.down": "tracejada: jogada virada para baixo (não pode vencer)",
    "odds.title": "Próxima Carta de Baú para {who} (restam {cards}):",
    "odds.poison": "veneno {p}",
    "odds.shock": "choque {p}",
    "odds.gain": "joias {g} em média",
    "hand.title": "Sua mão ({n})",
    "hand.none": "nenhuma carta",
    "hand.faceDown": "Suas cartas viradas para baixo:",
    "btn.withdraw": "Retirar-se\u2026",
    "btn.cancel": "Não se retirar",
    "btn.cover": "Cobrir {card}",
    "btn.reveal": "Revelar uma Carta de Baú",
    "btn.stop": "Parar",
    "card.icons": (p) => `${p.n} ícone${p.n === 1 ? "" : "s"} de joia`,
    "card.poison": "veneno {type}",
    "card.potion": "poção",
    "card.back": "carta virada para baixo",
    "card.of": "{rank} de {suit}",
    "suit.H": "copas", "suit.S": "espadas", "suit.D": "ouros", "suit.C": "paus",
    "poison.bee": "abelha", "poison.jellyfish": "água-viva", "poison.spider": "aranha",
    "chest.gem": "{large} para quem revela, {small} para cada outro jogador na rodada",
    "chest.poisonGives": "{card} ({gems} para quem revela, se não sofrer Choque)",
    "fact.inBag": "guardadas na Bolsa",
    "fact.onBag": "em risco sobre a Bolsa",
    "fact.hand": "cartas na mão",
    "fact.faceDown": "viradas para baixo",
    "seat.poisons": "venenos",
    "seat.potions": (p) => `poções (${p.stored} guardada${p.stored === 1 ? "" : "s"})`,
    "seat.coveredBy": "coberto por {card}",
    "seat.uncovered": "descoberto",
    "seat.voids": "não tem {suits}",
    "log.title": "O que aconteceu",
    "ev.roundStarted": "Começa a rodada {round}",
    "ev.roundStartedLeader": "Começa a rodada {round}; {who} é o Líder",
    "ev.leader": "{who} foi escolhido como Líder",
    "ev.dealt": "Cartas distribuídas: {parts}",
    "ev.dealtYou": "você recebeu {cards}",
    "ev.dealtOthers": (p) => `${p.who} recebeu ${p.n} carta${p.n === 1 ? "" : "s"}`,
    "ev.trump": "O trunfo é {card}",
    "ev.played": "{who} jogou {card}",
    "ev.playedGems": "{who} jogou {card} ({gems} sobre ela)",
    "ev.down": "{who} jogou uma carta virada para baixo",
    "ev.downCard": "{who} jogou {card} virada para baixo",
    "ev.downGems": " ({gems} sobre ela)",
    "ev.withdrew": "{who} se retirou e guardou {gems} na Bolsa",
    "ev.trickWon": "{who} venceu a vaza {trick} com {card} e levou {gems}",
    "ev.trickAbandoned": "Vaza {trick}: todos se retiraram; {gems} voltam para a reserva",
    "ev.poisonTaken": "{who} pegou o veneno {type} {card}",
    "ev.potionTaken": "{who} pegou a poção {card}",
    "ev.covered": "{who}: a poção {potion} cobre {card}",
    "ev.coveredAny": "{who}: uma poção cobre {card}",
    "ev.chest": "{who} revelou a Carta de Baú {n}: {card}",
    "ev.chestStopped": "{who} parou de revelar",
    "ev.gained": "{who} ganhou {gems}",
    "ev.shocked": "{who} sofreu Choque Anafilático ({type}) e perdeu {gems}",
    "ev.banked": "{who} guardou {gems} na Bolsa",
    "ev.roundEnded": "Fim da rodada {round}: {reason}",
    "reason.hands_empty": "todas as cartas foram jogadas",
    "reason.nobody_left": "ninguém ficou na rodada",
    "reason.one_left": "só um jogador ficou na rodada",
    "reason.all_withdrew": "todos os que restavam se retiraram durante uma vaza",
    "ev.gameEnded": (p) => `Fim de jogo: ${Number(p.count) > 1 ? "vencedores" : "vencedor"} ${p.names}. Joias na Bolsa: ${p.scores}`,
    "and": " e ",
    "connection.connecting": "conectando\u2026",
    "connection.open": "conectado",
    "connection.closed": "reconectando\u2026",
    "connection.refused": "recusado",
    "connection.missing": "mesa inexistente",
    "error.token": "O token deste link não vale para esta mesa.",
    "error.missing": "Não existe a mesa {table}.",
    "error.offline": "Sem conexão: reconectando, tente de novo em instantes.",
    "local.python": "carregando o Python (1/3)\u2026",
    "local.wheels": "instalando o shock-rules (2/3)\u2026",
    "local.engine": "iniciando o motor do jogo (3/3)\u2026",
    "local.ready": "motor pronto",
    "local.failed": "o motor do jogo não carregou",
    "local.here": "nesta página",
    "lobby.newTable": "Nova mesa",
    "lobby.playersLabel": "Jogadores",
    "lobby.variant": "Variante",
    "variant.standard": "padrão",
    "variant.simplified": "simplificada",
    "lobby.seats": "Lugares",
    "lobby.person": "pessoa",
    "lobby.bot": "robô: {name}",
    "bot.random": "aleatório", "bot.heuristic": "heurístico", "bot.mcts": "mcts",
    "lobby.create": "Criar mesa",
    "lobby.createError": "Não foi possível criar a mesa: {reason}",
    "lobby.httpError": "o servidor respondeu {status}",
    "lobby.table": "Mesa",
    "lobby.sendLinks": "Envie cada link à pessoa que joga aquele lugar; quem tiver o link joga aquele lugar.",
    "lobby.playSeat": "Jogar no lugar {seat}",
    "lobby.yourSeat": "Lugar {seat}: o seu, nesta página",
    "lobby.spectate": "Assistir como espectador",
    "lobby.listed": "listada no saguão (qualquer um aqui pode assistir)",
    "lobby.rules": "Como jogar (em inglês)",
    "lobby.openTables": "Mesas abertas",
    "lobby.openTablesEmpty": "Nenhuma mesa aberta agora: crie uma, e ela aparece aqui.",
    "lobby.openTablesError": "Não foi possível carregar as mesas abertas; tentando de novo em instantes.",
    "lobby.players": "{n} jogadores",
    "lobby.round": "rodada {round}",
    "lobby.over": "fim de jogo",
    "lobby.persons": (p) => `${p.n === 1 ? "1 pessoa" : `${p.n} pessoas`} (${p.here} ${p.here === 1 ? "presente" : "presentes"} agora)`,
    "lobby.tableId": "Mesa {table}",
    "lobby.ageNow": "criada agora há pouco",
    "lobby.ageMinutes": (p) => `criada há ${p.n} minuto${p.n === 1 ? "" : "s"}`,
    "lobby.ageHours": (p) => `criada há ${p.n} hora${p.n === 1 ? "" : "s"}`,
    "lobby.ageDays": (p) => `criada há ${p.n} dia${p.n === 1 ? "" : "s"}`,
    "lobby.botAt": "{name} (lugar {seat})",
    "lobby.bots": "robôs: {list}",
    "lobby.noBots": "sem robôs",
    "lobby.watch": "Assistir",
    "lobby.missingTitle": "Não existe a mesa {table}",
    "lobby.missingDetail": "Ela pode ter terminado e sido removida, ter sido abandonada, ou o link não está certo.",
    "lobby.refusedTitle": "O token de lugar deste link não é válido",
    "lobby.refusedDetail": "O link indica a mesa {table}, mas nenhum de seus lugares. Peça de novo o link do seu lugar, ou assista à mesa como espectador.",
    "lobby.watchInstead": "Assistir a esta mesa",
    "lobby.back": "Voltar ao saguão",
    "lobby.replacedTitle": "O link deste lugar foi substituído",
    "lobby.replacedDetail": "Alguém que ocupa um lugar da mesa {table} deu a ele um novo link; este não vale mais. Peça o novo link, ou assista à mesa como espectador.",
    "seat.elsewhere": (p) => `Este lugar também está aberto em outra página ou aparelho (${p.n} conexões ao todo). Se não for você, substitua o link dele.`,
    "seat.replace": "Substituir o link deste lugar",
    "seat.replaced": "O lugar tem um novo link: o endereço desta página. O link antigo não vale mais; envie o novo só a quem joga neste lugar.",
    "seat.replaceError": "Não foi possível substituir o link: {reason}",
    "connection.tooMany": "conexões demais: {reason}",
  },
};

/** The page's languages, by code ("en", "pt-BR"). */
export const LANGUAGES = Object.keys(MESSAGES);
/** @type {((lang: string) => void)[]} */
const listeners = [];

/** @returns {string | null} */
function stored() {
  try {
    return localStorage.getItem(STORE_KEY);
  } catch {
    return null; // storage may be refused (private windows, file:// pages)
  }
}

/** Return the language to start in: the one chosen before, else the browser's.
 * @returns {string} */
function initial() {
  const chosen = stored();
  if (chosen && LANGUAGES.includes(chosen)) return chosen;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    if (tag && tag.toLowerCase().startsWith("pt")) return "pt-BR";
    if (tag && tag.toLowerCase().startsWith("en")) return "en";
  }
  return "en";
}

let lang = initial();

/** Return the message `key` in the current language with `params` filled in (English when
 * the language lacks it, the key itself when no language has it).
 * @param {string} key
 * @param {MessageParams} [params]
 * @returns {string} */
export function t(key, params = {}) {
  const message = MESSAGES[lang][key] ?? MESSAGES.en[key];
  if (message === undefined) return key;
  if (typeof message === "function") return message(params);
  return message.replace(/\{(\w+)\}/g, (/** @type {string} */ hole, /** @type {string} */ name) => (name in params ? String(params[name]) : hole));
}

/** @param {string} next */
export function setLang(next) {
  if (!LANGUAGES.includes(next) || next === lang) return;
  lang = next;
  try {
    localStorage.setItem(STORE_KEY, next);
  } catch {
    // not remembered: the page still switches
  }
  document.documentElement.lang = next;
  applyStatic();
  for (const listener of listeners) listener(next);
}

/** Translate the page's fixed text: elements marked data-i18n="key". */
function applyStatic() {
  const marked = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]"));
  for (const node of marked) node.textContent = t(node.dataset.i18n ?? "");
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang"));
  if (select) select.value = lang;
}

let started = false;

function start() {
  started = true;
  document.documentElement.lang = lang;
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang"));
  if (select) {
    select.replaceChildren();
    for (const code of LANGUAGES) {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = /** @type {string} */ (MESSAGES[code]["lang.name"]);
      select.append(option);
    }
    select.addEventListener("change", () => setLang(select.value));
  }
  applyStatic();
}

/** Add a game's words (one table per language, as this module's; melvin-words.js), and
 * translate the page's fixed text again with them.
 * @param {Record<string, Record<string, Message>>} tables */
export function addMessages(tables) {
  for (const code of LANGUAGES) Object.assign(MESSAGES[code], tables[code] ?? {});
  if (started) applyStatic();
}

/** Return the page's language now ("en", "pt-BR").
 * @returns {string} */
export function language() {
  return lang;
}

/** Call `listener` with the new language whenever it changes (after the page's fixed text is
 * translated).
 * @param {(lang: string) => void} listener */
export function onChange(listener) {
  listeners.push(listener);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
