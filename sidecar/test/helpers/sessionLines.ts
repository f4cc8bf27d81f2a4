// Reading one session's lines from a spawned sidecar in the real-SDK tests: its events, a request's reply, the
// next event of a kind, a turn's end. Waits are bounded by WAIT.
import type { Event, EventOf } from '../../src/protocol/events.js';
import type { OutputLine } from '../../src/protocol/schemas.js';
import { PROTOCOL_VERSION } from '../../src/protocol/version.js';
import type { SidecarProcess } from './sidecarProcess.js';

export const WAIT = 60_000;
export const END_KINDS = ['turn.completed', 'turn.failed', 'turn.canceled'];
let requestId = 0;

export function events(sidecar: SidecarProcess, session: string): Event[] {
  return sidecar.lines.flatMap((l) => (l.type === 'event' && l.event.session === session ? [l.event] : []));
}

export function eventsOf<K extends Event['kind']>(sidecar: SidecarProcess, session: string, kind: K): Array<EventOf<K>> {
  return events(sidecar, session).filter((e): e is EventOf<K> => e.kind === kind);
}

export async function request(sidecar: SidecarProcess, type: string, payload: object): Promise<OutputLine> {
  const id = `r${++requestId}`;
  sidecar.send({ v: PROTOCOL_VERSION, id, type, payload });
  return sidecar.reply(id, WAIT);
}

export function event<K extends Event['kind']>(
  sidecar: SidecarProcess,
  session: string,
  kind: K,
  match: (e: EventOf<K>) => boolean = () => true,
): Promise<EventOf<K>> {
  return sidecar
    .waitFor((l) => l.type === 'event' && l.event.session === session && l.event.kind === kind && match(l.event as EventOf<K>), WAIT)
    .then((l) => (l as Extract<OutputLine, { type: 'event' }>).event as EventOf<K>);
}

export function turnEnd(sidecar: SidecarProcess, session: string, turn: string): Promise<Event> {
  return sidecar
    .waitFor((l) => l.type === 'event' && l.event.session === session && l.event.turn === turn && END_KINDS.includes(l.event.kind), WAIT)
    .then((l) => (l as Extract<OutputLine, { type: 'event' }>).event);
}

/** Allows every permission the session asks for, as a person would, until the returned function is called. */
export function allowAll(sidecar: SidecarProcess, session: string): () => void {
  const answered = new Set<string>();
  const timer = setInterval(() => {
    for (const ask of eventsOf(sidecar, session, 'permission.requested')) {
      if (answered.has(ask.requestId)) continue;
      answered.add(ask.requestId);
      sidecar.send({ v: PROTOCOL_VERSION, id: `allow-${ask.requestId}`, type: 'permission', payload: { session, requestId: ask.requestId, verdict: 'allow' } });
    }
  }, 20);
  return () => clearInterval(timer);
}
