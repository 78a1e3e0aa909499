// How a client uses the protocol's types, type-checked by `npm run typecheck` (never run).
// The first part is real use: narrowing a document by its `type`, an event by its `event`, a
// legal action by its `kind`, reading a view. The second part lists documents the types must
// refuse, each under a `@ts-expect-error`: should the types ever accept one, the directive
// goes unused and the check fails.

import type {
  ActionDocument,
  Card,
  ErrorDocument,
  Event,
  EventsDocument,
  LegalAction,
  Phase,
  SeatView,
  ShockProtocol,
  SteppedEvent,
  ViewDocument,
} from "./protocol";

/** Proves a `switch` exhaustive: every member of the union has its `case`. */
function unreachable(value: never): never {
  throw new Error(`unexpected ${JSON.stringify(value)}`);
}

/** What a client does with any document it receives: narrow it by `type`. */
export function describe(doc: ShockProtocol): string {
  switch (doc.type) {
    case "view":
      return describeView(doc);
    case "events":
      return doc.events.map(describeEvent).join("\n");
    case "error":
      return `refused (${doc.code}) at step ${doc.step ?? "?"}: ${doc.message}`;
    case "action":
      return describeActionDocument(doc);
    case "state":
      return `step ${doc.step}: ${doc.hands.map((hand) => hand.length).join("/")} cards in hand`;
    case "record":
      return `${doc.actions.length} actions, result ${doc.headers["Result"] ?? "unknown"}`;
    case "config":
      return `${doc.players} players, edition ${doc.edition === "default" ? "default" : doc.edition.edition.name}`;
    default:
      return unreachable(doc);
  }
}

/** A text line is parsed into the union; a validator (ajv and the schemas) checks it first. */
export function parse(line: string): ShockProtocol {
  return JSON.parse(line) as ShockProtocol;
}

/** Narrowing an event by `event`: each kind has its own fields. */
export function describeEvent(event: Event): string {
  switch (event.event) {
    case "CardDealt":
      return `seat ${event.seat} is dealt ${event.card}`;
    case "HiddenCardDealt":
      return `seat ${event.seat} is dealt a card`;
    case "CardPlayed":
      return `seat ${event.seat} plays ${event.card}${event.face_up ? "" : " face down"} with ${event.gems} gems`;
    case "HiddenCardPlayed":
      return `seat ${event.seat} plays a card face down with ${event.gems} gems`;
    case "ChestRevealed":
      return `seat ${event.seat} reveals chest card ${event.number}: ${event.card}`;
    case "ChestStopped":
      return `seat ${event.seat} stops`;
    case "GameEnded":
      return `scores ${event.scores.join(" ")}; winners ${event.winners.join(", ")}`;
    case "GemsBanked":
    case "GemsGained":
      return `seat ${event.seat}: ${event.gems} gems (${event.event})`;
    case "LeaderChosen":
      return `seat ${event.seat} leads first`;
    case "PoisonCovered":
      return `seat ${event.seat} covers ${event.card} with ${event.potion ?? "a potion"}`;
    case "PotionTaken":
      return `seat ${event.seat} takes ${event.card}`;
    case "PoisonTaken":
      return `seat ${event.seat} takes ${event.card} (${event.poison})`;
    case "RoundEnded":
      return `round ${event.round} ends: ${event.reason}`;
    case "RoundStarted":
      return `round ${event.round} starts, led by ${event.leader ?? "chance's choice"}`;
    case "Shocked":
      return `seat ${event.seat} is shocked by ${event.poison} and loses ${event.lost} gems`;
    case "TrickAbandoned":
      return `trick ${event.trick} abandoned with ${event.gems} gems`;
    case "TrickWon":
      return `seat ${event.seat} wins trick ${event.trick} with ${event.card} and ${event.gems} gems`;
    case "TrumpRevealed":
      return `trump: ${event.card}`;
    case "Withdrew":
      return `seat ${event.seat} withdraws, banking ${event.banked}`;
    default:
      return unreachable(event);
  }
}

/** Narrowing a legal action by `kind`: each kind carries the field it needs. */
export function describeLegalAction(action: LegalAction): string {
  switch (action.kind) {
    case "play":
    case "withdraw":
    case "down":
    case "cover":
    case "deal":
    case "trump":
      return `${action.kind} the card ${action.card}`;
    case "chest":
      return `chest card ${action.chest_card}`;
    case "leader":
      return `seat ${action.seat} leads`;
    case "reveal":
    case "stop":
      return action.notation;
    default:
      return unreachable(action);
  }
}

function describeActionDocument(doc: ActionDocument): string {
  const when = doc.step === undefined ? "" : ` at step ${doc.step}`;
  // The notation-only form has no kind: `kind?: never` lets a client test for it.
  if (doc.kind === undefined) return `${doc.notation}${when}`;
  return `${doc.kind}${when}`;
}

/** Reading a view: the viewer, its hand, every seat's poisons, the turn, the events. */
export function describeView(view: ViewDocument): string {
  const lines = [`step ${view.step}, round ${view.round}, phase ${view.phase}`];
  const me: SeatView | undefined = view.seat === null ? undefined : view.seats[view.seat];
  const hand: Card[] = view.hand;
  if (me !== undefined) lines.push(`seat ${me.seat} holds ${hand.join(" ")}, ${me.in_bag} gems safe`);
  for (const seat of view.seats) {
    const poisons = seat.poisons.map(
      (p) => `${p.card} (${p.poison}${p.covered_by === null ? "" : `, covered by ${p.covered_by}`})`,
    );
    lines.push(`seat ${seat.seat} [${seat.status}]: ${poisons.join(", ") || "no poison"}`);
  }
  for (const play of view.trick) lines.push(`seat ${play.seat}: ${play.card ?? "face down"}`);
  if (view.your_turn) lines.push(...view.legal_actions.map(describeLegalAction));
  // Every event of a view carries its step (SteppedEvent), unlike an events document's.
  const steps: number[] = view.events.map((event: SteppedEvent) => event.step);
  lines.push(`events of steps ${steps.join(", ")}`);
  return lines.join("\n");
}

/** The answer to a view: one of its legal actions as an action document, with the view's step. */
export function answer(view: ViewDocument, choice: LegalAction): ActionDocument {
  return { schema: "shock-rules/2", type: "action", step: view.step, ...choice };
}

// -- what the types refuse ----------------------------------------------------------------

const error: ErrorDocument = { schema: "shock-rules/2", type: "error", code: "bad_seat", message: "no seat 7" };

// An extra property, in a document and in the union of documents.
// @ts-expect-error 'extra' is not a property of ErrorDocument
export const extra: ErrorDocument = { ...error, step: 3, extra: 1 };
// @ts-expect-error nor of any document of the union
export const extraInUnion: ShockProtocol = { schema: "shock-rules/2", type: "error", code: "bad_seat", message: "x", extra: 1 };
// @ts-expect-error nor of a poison in a view's seat
export const extraPoison: SeatView["poisons"][number] = { card: "7H", poison: "bee", covered: false, covered_by: null, extra: 1 };
// @ts-expect-error a poison says which potion covers it, null for none
export const noCoveredBy: SeatView["poisons"][number] = { card: "7H", poison: "bee", covered: false };

// A missing required property.
// @ts-expect-error an error document has a message
export const noMessage: ErrorDocument = { schema: "shock-rules/2", type: "error", code: "bad_seat" };
// @ts-expect-error a TrickWon event has a card, a trick and gems
export const noCard: Event = { event: "TrickWon", seat: 1, trick: 2, gems: 3 };
// @ts-expect-error a legal action has its notation
export const noNotation: LegalAction = { kind: "play", card: "7H" };

// A wrong kind, or the field of another kind.
// @ts-expect-error "leader" names a seat, not a card
export const leaderCard: LegalAction = { notation: "leader 2", kind: "leader", card: "7H" };
// @ts-expect-error "stop" has no field
export const stopCard: LegalAction = { notation: "stop", kind: "stop", card: "7H" };
// @ts-expect-error no such kind
export const pizza: ActionDocument = { schema: "shock-rules/2", type: "action", kind: "pizza", card: "7H" };
// @ts-expect-error an action given by its notation alone has no kind
export const notationAndKind: ActionDocument = { schema: "shock-rules/2", type: "action", notation: "stop", kind: 3 };

// Wrong tags and values.
// @ts-expect-error no such event
export const exploded: Event = { event: "Exploded", seat: 1 };
// @ts-expect-error another protocol version
export const version1: ShockProtocol = { ...error, schema: "shock-rules/1" };
// @ts-expect-error no such document type
export const edition: ShockProtocol = { schema: "shock-rules/2", type: "edition" };
// @ts-expect-error no such phase
export const dealing: Phase = "dealing";
// @ts-expect-error no such error code
export const oops: ErrorDocument = { ...error, code: "oops" };
// @ts-expect-error a seat of a view's seats is a number, never null
export const nullSeat: SeatView["seat"] = null;

// Reading what a document may not have: the union must be narrowed first.
export function unnarrowed(doc: ShockProtocol, action: LegalAction, event: Event): unknown[] {
  return [
    // @ts-expect-error only a view or a state has a phase
    doc.phase,
    // @ts-expect-error only some kinds have a card
    action.card,
    // @ts-expect-error only some events have a seat
    event.seat,
  ];
}

// An event of an events document need not carry its step; one of a view must.
export function stepOf(events: EventsDocument, view: ViewDocument): number[] {
  const first = events.events[0];
  // @ts-expect-error the step of an events document's event may be missing
  const missing: number = first?.step;
  return [missing, ...view.events.map((event) => event.step)];
}
