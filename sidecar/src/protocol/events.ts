// Activity events (PROTOCOL.md, "Events"): one strict zod schema per kind, so a field the protocol does not
// name fails validation instead of reaching the host unnoticed. The kinds live by area in kinds/*.ts, each with its
// metadata; this file joins them into the wire's one union.
import { z } from 'zod';
import { SESSION_EVENTS } from './kinds/session.js';
import { TURN_EVENTS, TURN_HOST_EVENTS } from './kinds/turn.js';
import { MESSAGE_EVENTS } from './kinds/message.js';
import { TOOL_EVENTS } from './kinds/tool.js';
import { PERMISSION_EVENTS } from './kinds/permission.js';
import { BACKGROUND_EVENTS } from './kinds/background.js';
import { COMMANDS_EVENTS } from './kinds/commands.js';
import { isoNow } from '../util/clock.js';

export * from './kinds/common.js';
export * from './kinds/session.js';
export * from './kinds/turn.js';
export * from './kinds/message.js';
export * from './kinds/tool.js';
export * from './kinds/permission.js';
export * from './kinds/background.js';
export * from './kinds/commands.js';

export const eventSchema = z.discriminatedUnion('kind', [
  ...SESSION_EVENTS,
  ...TURN_EVENTS,
  ...MESSAGE_EVENTS,
  ...TOOL_EVENTS,
  ...PERMISSION_EVENTS,
  ...BACKGROUND_EVENTS,
  ...COMMANDS_EVENTS,
]);

export type Event = z.infer<typeof eventSchema>;

/** Kinds the host makes itself (PROTOCOL.md): part of the wire to the console, never sent by the sidecar. */
export const hostEventSchemas = TURN_HOST_EVENTS;
export type EventKind = Event['kind'];
/** An event of one kind. */
export type EventOf<K extends EventKind> = Extract<Event, { kind: K }>;
/** What a producer fills in; the envelope fields (session, time) are added by whoever stamps the event. */
export type EventBody<K extends EventKind = EventKind> = K extends EventKind ? Omit<EventOf<K>, 'session' | 'time'> : never;

/** Where events go: the runtime writes them to stdout as event lines. */
export type EmitEvent = (event: Event) => void;

/**
 * Adds session and time to an event body, and the turn when given (it wins over the body's own), in one place,
 * so every producer stamps the same way. It runs for every stream piece, so the event is built in one copy.
 */
export function stampEvent(body: EventBody, session: string, now: () => Date, turn?: string): Event {
  return stampEventAt(body, session, isoNow(now), turn);
}

/** stampEvent with the time written already: the events of one transcript message share their message's. */
export function stampEventAt(body: EventBody, session: string, time: string, turn?: string): Event {
  // Envelope fields first, so logs and snapshots read the same way for every kind; copying the body in keeps
  // them in front (a key keeps its first place). (TypeScript loses the kind-to-fields link in the copy, hence
  // the assertion; tests validate every event.)
  if (body.kind === 'message.delta') return stampDelta(body, session, time, turn);
  const own = 'turn' in body ? body.turn : undefined;
  if (turn === undefined && own === undefined) return Object.assign({ kind: body.kind, session, time }, body) as Event;
  const event = Object.assign({ kind: body.kind, session, turn: turn ?? own, time }, body) as Event;
  if (turn !== undefined) event.turn = turn;
  return event;
}

/**
 * stampEventAt for a streamed piece, thousands a reply: its fields written out in the order the copy above gives
 * them (envelope, then the body's, as every producer writes them), without copying by name (issue 32).
 */
function stampDelta(body: EventBody<'message.delta'>, session: string, time: string, turn: string | undefined): Event {
  const { ephemeral, messageId, index, block, text } = body;
  const own = turn ?? body.turn;
  return own === undefined
    ? { kind: 'message.delta', session, time, ephemeral, messageId, index, block, text }
    : { kind: 'message.delta', session, turn: own, time, ephemeral, messageId, index, block, text };
}
