// A dispatched turn stopped before its identity barrier passed (a cancel right after the prompt went out: Claude
// Code echoes the prompt only with the response's first output). Claude Code may still have persisted the prompt,
// and its transcript then holds the turn; without turn.accepted the host's receipt names no provider message and
// history could not end that turn as canceled. So, once the stopped process is gone (its transcript is final: no
// retry for write delay is needed), the transcript is read once: exactly one entry with the prompt's uuid binds the
// turn. None means Claude Code never took the prompt, and there is nothing of the turn to show later.
import type { EventBody } from '../protocol/events.js';
import { diag } from '../util/diagnostics.js';
import { resolveFromTranscript, type TranscriptFn } from './identity.js';
import type { Turn } from './turns.js';

/** Where the session's transcript is read from. */
export interface TranscriptSource {
  start: { session: string; cwd: string };
  transcript: TranscriptFn;
}

/**
 * True when the stopped turn is bound now (the caller emits turn.accepted before the turn's end); `stopped` settles
 * once the stopped generation's claude process is gone.
 */
export async function bindStoppedTurn(turn: Turn, source: TranscriptSource, stopped: Promise<void>): Promise<boolean> {
  // Every dispatched turn has its barrier; one never dispatched has nothing Claude Code could have persisted.
  const barrier = turn.barrier;
  if (barrier === undefined || barrier.bound) return false;
  await stopped.catch(() => undefined); // a process that ended badly still leaves its transcript behind
  const resolution = await resolveFromTranscript({
    session: source.start.session,
    cwd: source.start.cwd,
    uuid: turn.uuid,
    transcript: source.transcript,
    stillWanted: () => !barrier.bound,
    deadlineMs: 0,
  });
  if (resolution.bound)
    barrier.bind(); // the stopped turn's held output is not shown: it was canceled
  else diag(`the stopped turn ${turn.id} stays unbound: ${resolution.reason}`);
  return resolution.bound;
}

/** What ends a stopped turn: its acceptance first when it was bound only now, so the receipt names it. */
export function stoppedTurnEnd(turn: Turn, bound: boolean, forced: boolean): EventBody[] {
  const canceled: EventBody = { kind: 'turn.canceled', disposition: 'provider_active', forced };
  return bound ? [{ kind: 'turn.accepted', providerMessage: turn.uuid }, canceled] : [canceled];
}
