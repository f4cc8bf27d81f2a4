// The recorded session: the real SDK and claude CLI against the scripted Messages API, mapped by the sidecar
// (sidecar/testdata/recorded/session.events.json, produced by `npm run record` in sidecar/).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LiveSession } from '../src/protocol/api';
import { type ConsoleEvent, readEvent, type SessionEvent } from '../src/protocol/events';

const TESTDATA = join(dirname(fileURLToPath(import.meta.url)), '../../sidecar/testdata');
const RECORDED = join(TESTDATA, 'recorded/session.events.json');
const PROTOCOL_FIXTURES = join(TESTDATA, 'protocol/valid.ndjson');

/** Every mapped event of the recording, with `seq` added as the host does. */
export function recordedEvents(): SessionEvent[] {
  const raw: unknown = JSON.parse(readFileSync(RECORDED, 'utf8'));
  if (!Array.isArray(raw)) throw new Error(`${RECORDED} is not a JSON array`);
  return raw.map((value, i) => {
    const ev = readEvent(value);
    if (ev === undefined) throw new Error(`event ${i} of the recording is not an event`);
    return { ...ev, seq: i + 1 } as SessionEvent;
  });
}

export const RECORDED_SESSION = '5e551011-0000-4000-8000-000000000001';

/** What a snapshot holds: the lasting events only. */
export function lasting(events: readonly ConsoleEvent[]): ConsoleEvent[] {
  return events.filter((ev) => ev.ephemeral !== true);
}

/** Events up to and including the first that matches. */
export function upTo<T extends ConsoleEvent>(events: readonly T[], match: (ev: T) => boolean): T[] {
  const at = events.findIndex(match);
  if (at < 0) throw new Error('no event matches');
  return events.slice(0, at + 1);
}

/**
 * The shared protocol fixture's `unknown` event (an SDK message nobody maps yet), moved into the recorded
 * session: the recording itself no longer has one since the mapper learned every message it saw.
 */
export function unknownEvent(session: string, turn: string): SessionEvent {
  for (const line of readFileSync(PROTOCOL_FIXTURES, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const envelope = JSON.parse(line) as { type?: string; event?: { kind?: string } };
    if (envelope.type !== 'event' || envelope.event?.kind !== 'unknown') continue;
    const ev = readEvent({ ...envelope.event, session, turn });
    if (ev !== undefined) return ev as SessionEvent;
  }
  throw new Error(`${PROTOCOL_FIXTURES} has no unknown event`);
}

/** The recording with the fixture's unknown event inside turn t1, after its reply; seq renumbered. */
export function recordedWithUnknown(): SessionEvent[] {
  const events = recordedEvents();
  const at = events.findIndex((e) => e.kind === 'turn.completed' && e.turn === 't1');
  const out = [...events.slice(0, at), unknownEvent(RECORDED_SESSION, 't1'), ...events.slice(at)];
  return out.map((e, i) => ({ ...e, seq: i + 1 }));
}

/** The recorded session as the host's snapshot lists it, awake in its project, holding evs. */
export function liveSession(evs: ConsoleEvent[], extra: Partial<LiveSession> = {}): LiveSession {
  return {
    session: RECORDED_SESSION,
    cwd: '/home/user/project',
    requestedModel: 'default',
    effectiveModel: '',
    permissionMode: 'default',
    state: 'awake',
    events: evs,
    ...extra,
  };
}
