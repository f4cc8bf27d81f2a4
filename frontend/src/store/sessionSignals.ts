// What the sidebar shows of a session's state at a glance: it waits for the person, it is working.
import type { SessionState } from './types';

/** Whether a session waits for the person: a request of its own unanswered. */
export function needsYou(s: SessionState | undefined): boolean {
  return s?.live === true && s.pending.length > 0;
}

/** Whether a session is working: a turn runs. */
export function isBusy(s: SessionState | undefined): boolean {
  return s?.live === true && s.runningTurn !== undefined;
}
