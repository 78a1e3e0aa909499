/**
 * Types of the browser client (the ES modules of src/shock_rules/server/static/ and
 * web/src/local.js): the messages its transports carry, the transports themselves, the
 * interface of a game's module, and the globals the page shows. HAND-WRITTEN (not generated
 * by scripts/types.mjs): the documents themselves are protocol.d.ts's; this file only says how
 * the client moves them. `npm run typecheck:client` (tsconfig.client.json) checks the modules
 * against both.
 *
 * No DOM type is named here, so that this file also compiles under tsconfig.json (no DOM lib).
 */

import type {
  ErrorDocument,
  Event,
  LegalAction,
  Phase,
  Players,
  ProtocolVersion,
  Seat,
  SeatOrNull,
  ShockProtocol,
  SteppedEvent,
  Step,
  Variant,
  ViewDocument,
} from "./protocol";
import type {
  MelvinAction,
  MelvinEvent,
  MelvinEventsDocument,
  MelvinViewDocument,
} from "./melvin";

/** What `shock-rules serve` (or the in-page host) sends a seat after every step: the seat's
 * view and the events it has not been told about yet. */
export interface ViewFrame {
  type: "view";
  seat: SeatOrNull;
  view: GameView;
  events: SteppedGameEvent[];
}

/** What `shock-rules serve` sends a seat's connections whenever the number of connections
 * holding the seat changes (on that server process). */
export interface SeatFrame {
  type: "seat";
  seat: Seat;
  connections: number;
}

/** A message a transport hands the client: a view frame, a seat frame, or a protocol document
 * (an error document when an action is refused, an events document). */
export type ServerMessage = ViewFrame | SeatFrame | ShockProtocol | MelvinEventsDocument;

/** The first message of a seat's WebSocket to `shock-rules serve`: the seat's token (never in
 * the URL). */
export interface HelloMessage {
  type: "hello";
  token: string;
}

/** The message the client sends for the viewer's decision: one of the view's legal actions,
 * with the step of the view it was chosen on. */
export interface ActionMessage {
  type: "action";
  action: GameAction;
  step: Step;
}

/** How a transport's link is: "connecting", "open", "closed" (while it retries), and the final
 * "refused" (a bad token) or "missing" (no such table). */
export type LinkStatus = "connecting" | "open" | "closed" | "refused" | "missing";

/** What a transport calls as documents arrive and its link changes. */
export interface TransportHandlers {
  document(doc: ServerMessage): void;
  status(kind: LinkStatus, detail?: string): void;
}

/** One way to reach a game's host: a WebSocket to `shock-rules serve`, or the in-page host. */
export interface Transport {
  start(handlers: TransportHandlers): void;
  send(doc: ActionMessage): void;
  /** While the page replaces its seat's link: the server's close of the old link waits. */
  hold?(): void;
  /** The seat's token from now on (the new one, or the old one if replacing it failed). */
  retoken?(token: string): void;
}

/** A view document of any game the client shows: Shock!'s (no "game") or Melvin Vs. Kronk's
 * ("game": "melvin"). */
export type GameView = ViewDocument | MelvinViewDocument;

/** An event of any game the client shows (with its step, in views and frames). */
export type GameEvent = Event | MelvinEvent;

/** An event with the step that caused it, as a frame lists them. */
export type SteppedGameEvent = SteppedEvent | (MelvinEvent & { step: Step });

/** A legal action of any game's view, or its notation (Melvin's client sends the notation,
 * which every host reads): what the client sends back. */
export type GameAction = LegalAction | MelvinAction | string;

/** The client's state (window.shockClient.client). */
export interface ClientState {
  table: string | null;
  token: string | null;
  /** Carries protocol documents to and from the game's host. */
  transport: Transport | null;
  view: GameView | null;
  /** Every event seen, ordered by step (an events document's events may lack their step). */
  events: GameEvent[];
  eventKeys: Set<string>;
  connected: boolean;
  /** Whether an action is on its way (nothing more is sent until the host answers). */
  pending: boolean;
  lastError: ErrorDocument | null;
}

/** One line of the log: the event's name (or "Dealt" for a deal's cards together), its step
 * and its words. */
export interface LogLine {
  event: string;
  step: number | undefined;
  text: string;
}

/** A key pressed at a table, as the shell hands it to the game's module (keys with Ctrl, Alt
 * or Meta, and keys typed in a form's field, never come; "?" is the shell's). */
export interface TableKey {
  readonly key: string;
  preventDefault(): void;
}

/**
 * One game's part of the browser client (shock.js: Shock!; melvin.js: Melvin Vs. Kronk). The shell (shell.js) keeps the
 * client's state, the transport, the status and turn lines, the log, the game-over panel, the
 * keys' help and the lobby; it picks the module whose `name` is the view document's "game"
 * ("shock" for Shock!'s documents, which have none) and asks it for the rest. Words are i18n
 * keys or text in the page's language. A module reads only its own game's documents: the
 * shell hands it no other.
 */
export interface GameModule {
  /** The view document's "game" ("shock": Shock!). */
  readonly name: string;
  /** The id of the page's element that holds the game's own panels (shown for its tables). */
  readonly board: string;
  /** The page title's key, with a {table} hole ("title.table"). */
  readonly title: string;
  /** The game's name in the page's header: its first word, and the rest ("Shock!",
   * "Knights & Poisons"). */
  readonly heading: readonly [string, string];
  /** The keys' help, one i18n key a line. */
  readonly help: readonly string[];
  /** The key of the standings' score column's head. */
  readonly scoreHead: string;
  /** Whether the viewer may act on `view` (the shell adds: connected, nothing on its way). */
  yourTurn(view: GameView): boolean;
  /** Whether the game is over. */
  isOver(view: GameView): boolean;
  /** The status line's parts ("Round 2 of 5", "trick 3"); the shell adds the viewer's seat. */
  status(view: GameView): string[];
  /** The turn line while the game runs, and whether it asks the viewer to act. */
  turn(view: GameView): { text: string; mine: boolean };
  /** Draw the game's panels for `view` (the shell drew the rest). */
  render(view: GameView): void;
  /** The final scores by seat and the winners (at the game's end; standings, turn line). */
  finalScores(view: GameView, events: readonly GameEvent[]): { scores: number[]; winners: Seat[] };
  /** A score in words ("3 gems"). */
  scoreText(score: number): string;
  /** A word beside a seat in the standings ("" for none). */
  standingNote(view: GameView, seat: Seat): string;
  /** Whether a seat could win (a seat out of the game ranks after every seat in it, whatever
   * its score: Melvin's eliminated players, M15). */
  contends(view: GameView, seat: Seat): boolean;
  /** The log's lines for every event seen, ordered by step. */
  logLines(events: readonly GameEvent[]): LogLine[];
  /** A key pressed at the table (Escape too, after the shell closed the help). */
  keydown(key: TableKey): void;
  /** Forget what the module kept of the last table (a new game in this page). */
  reset(): void;
  /** The lobby's choices for "Play again" of a table this tab did not create (a query). */
  lobbyChoices(view: GameView): Record<string, string>;
  /** A refusal in words (the host's message when the module has none better). */
  errorText(error: ErrorDocument): string;
}

/** A chest card taken apart: a poison card's type (null for a gem card) and its gems. */
export interface ChestCardParts {
  poison: string | null;
  large: number;
  small: number;
}

/** The odds of the next chest card for a seat (shock_rules.chest_odds), exact and in percent. */
export interface ChestOdds {
  seat: number;
  cards: number;
  poison: string;
  shock: string;
  gain: string;
  poisonPercent: string;
  shockPercent: string;
  gainValue: number;
}

/** What app.js shows of itself (the browser tests use it). */
export interface ShockClient {
  chestOdds(view: ViewDocument, seat: number): ChestOdds | null;
  fractionText(num: number, den: number): string;
  parseChestCard(text: string): ChestCardParts | null;
  describe(e: Event): string;
  client: ClientState;
  receive(doc: ServerMessage): void;
  send(action: LegalAction): void;
  connect(transport: Transport): void;
  socketTransport(table: string, token: string | null): Transport;
}

/** Values a message's `{name}` holes are filled with. */
export type MessageParams = Record<string, string | number | null>;

/** A message: text with `{name}` holes, or a function of its parameters. */
export type Message = string | ((params: MessageParams) => string);

// ---- The in-page host (web/src/local.js) and the parts of Pyodide it uses.

/** A Python object as Pyodide hands it over (only what local.js calls). */
export interface PyProxy {
  toJs(options: { dict_converter: (entries: Iterable<[string, number[]]>) => object }): object;
  destroy(): void;
}

/** A Python dict of lists of seconds (LocalTable.thinking), as local.js converts it. */
export interface ThinkingProxy extends PyProxy {
  toJs(options: {
    dict_converter: (entries: Iterable<[string, number[]]>) => Record<string, number[]>;
  }): Record<string, number[]>;
}

/** web/src/host.py's LocalTable: one game in the page (strings are JSON messages). */
export interface LocalGame {
  readonly id: string;
  readonly thinking: ThinkingProxy;
  /** Whether the game is real-time (Melvin Vs. Kronk): its bots act by bot_plans/bot_act. */
  readonly realtime: boolean;
  frame(): string;
  receive(text: string): string;
  /** The name of the bot whose turn it is (Python's None: undefined). */
  bot_to_act(): string | undefined;
  /** The new frame after a bot's move (undefined: no bot's turn). */
  bot_step(): string | undefined;
  /** What the bots of a real-time game will do: a JSON list of BotPlan. */
  bot_plans(): string;
  /** The new frame after the planned action of the bot of `seat` at `step` (undefined: the
   * table moved on, or the bot waits). */
  bot_act(seat: number, step: number): string | undefined;
  is_over(): boolean;
  record(): string;
}

/** A bot of a real-time game that will act on the table as it is: after `delay` seconds (its
 * reaction), if the table is still at `step`. */
export interface BotPlan {
  seat: Seat;
  delay: number;
  step: Step;
}

/** web/src/host.py, the Python side of the in-page host. */
export interface HostModule {
  /** A new game, or the reason the request is wrong. */
  make_table(body: string): LocalGame | string;
  /** The scores of a random playout of `game` ("shock" or "melvin"), "a,b,c,d". */
  selftest(seed: bigint, game: string): string;
}

/** The Pyodide runtime (only what local.js uses). */
export interface Pyodide {
  runPython(code: string): string;
  pyimport(name: "shock_web_host"): HostModule;
  unpackArchive(buffer: ArrayBuffer, format: "wheel", options: { extractDir: string }): void;
  FS: { writeFile(path: string, data: string): void };
}

/** The Pyodide loader module (pyodide.mjs), imported by its address. */
export interface PyodideLoader {
  loadPyodide(options: { indexURL: string; packageBaseUrl: string; packages: string[] }):
    Promise<Pyodide>;
}

/** The wheels.json manifest the build writes. */
export interface WheelManifest {
  wheels: { file: string; integrity: string }[];
}

/** The answer of `POST /api/tables`: the table and its person seats' tokens. */
export interface TableCreated {
  type?: undefined;
  message?: undefined;
  table: string;
  seats: { seat: Seat; token: string }[];
}

/** What a tab keeps (sessionStorage) of a table it created: its request, for "Play again",
 * and its person seats' links, for the table's panel of links to send. */
export interface CreatedTable {
  body: TableRequest;
  seats: { seat: Seat; token: string }[];
}

/** A refusal of the server's HTTP API: an error document's shape with the API's own codes
 * ("bad_request", "too_fast", ...), which are not the protocol's. */
export interface ApiError {
  schema: ProtocolVersion;
  type: "error";
  code: string;
  message: string;
  table?: undefined;
}

/** What the lobby reads from `POST /api/tables` (an empty object when the body is not JSON). */
export type TablesAnswer =
  | TableCreated
  | ApiError
  | { type?: undefined; message?: undefined; table?: undefined };

/** The body of the lobby's "Create table". */
export interface TableRequest {
  /** The game ("shock" when absent; "melvin"). */
  game?: string;
  players: number;
  /** Shock!'s variant (Melvin Vs. Kronk has none). */
  variant?: string;
  bots: Record<string, string>;
  /** Whether the lobby lists the table (`shock-rules serve` only). */
  listed?: boolean;
}

/** A table of `GET /api/tables`: what its spectator view shows, and its persons and bots (bot
 * names by seat); never a token. */
export interface OpenTable {
  table: string;
  /** "shock" or "melvin" (absent from a server of before games: "shock"). */
  game?: string;
  players: Players;
  /** Shock!'s variant; null for Melvin Vs. Kronk. */
  variant: Variant | null;
  /** Shock!'s round; null for Melvin Vs. Kronk. */
  round: number | null;
  /** The view's phase: Shock!'s, or Melvin Vs. Kronk's ("play", "award", "over"). */
  phase: Phase | "award";
  persons: number;
  /** How many person seats have a page connected now. */
  seated: number;
  /** Seconds since the table was created (the server's clock). */
  age: number;
  bots: Record<string, string>;
  over: boolean;
}

/** The answer of `POST /api/tables/ID/seats/N/token`: the seat's new token. */
export interface SeatTokenAnswer {
  seat: Seat;
  token: string;
}

/** The answer of `GET /api/tables`. */
export interface OpenTablesAnswer {
  tables: OpenTable[];
}

/** A table made in the page: its id and the transport to it. */
export interface LocalTable {
  table: string;
  transport: Transport;
}

/** The in-page host: window.shockHost (absent when the page talks to `shock-rules serve`). */
export interface ShockHost {
  create(body: TableRequest): Promise<LocalTable>;
  stats(): {
    load: Record<string, number | null>;
    thinking: Record<string, { decisions: number; mean: number; max: number }>;
  };
  engine: Promise<HostModule>;
  game: LocalGame | null;
}

declare global {
  interface Window {
    shockClient?: ShockClient;
    shockHost?: ShockHost;
  }
}
