// A session's stored history, paged from the newest end, shown above its live part. The live part of a
// resumed session is in the transcript file too, so history stops where the live turns begin: history marks
// each event's turn with its prompt's uuid, the same uuid live `turn.started` reports.
import type { HistoryPage } from '../protocol/api';
import type { SessionEvent } from '../protocol/events';
import { applyTranscriptEvent, REPLAY } from './transcriptFold';
import { emptyTranscript } from './transcript';
import type { HistoryState, SessionState } from './types';

export const HISTORY_PAGE = 200;
/** The most the host gives in one page (app/console's history). */
export const MAX_PAGE = 2000;

/** How many events to ask for before position `before`: a page, or (paging back to position `to`, a search hit's)
 * all of them down to a little above it, at most the host's most. */
export function pageLimit(before: number | undefined, to: number | undefined): number {
  if (to === undefined || before === undefined) return HISTORY_PAGE;
  return Math.min(MAX_PAGE, Math.max(HISTORY_PAGE, before - to + HISTORY_PAGE / 2));
}

/** Whether this session has history that its live events do not already hold. */
export function needsHistory(state: SessionState): boolean {
  return !state.live || state.resumed || state.forkedFrom !== undefined;
}

export function withHistoryPending(state: SessionState): SessionState {
  return { ...state, history: { ...state.history, exhausted: false } };
}

/** Uuids of the prompts whose turns are in the live part. */
function liveUuids(state: SessionState): Set<string> {
  const out = new Set<string>();
  for (const turn of state.turns.values()) if (turn.uuid !== undefined) out.add(turn.uuid);
  return out;
}

/** The events of a page that precede the live part. */
export function beforeLive(events: readonly SessionEvent[], live: ReadonlySet<string>): SessionEvent[] {
  const cut = events.findIndex((ev) => ev.turn !== undefined && live.has(ev.turn));
  return cut < 0 ? events.slice() : events.slice(0, cut);
}

function fold(events: readonly SessionEvent[]): HistoryState['transcript'] {
  const t = emptyTranscript('h');
  for (const ev of events) applyTranscriptEvent(t, ev, REPLAY);
  return t;
}

/** Folds in a page that is older than what is loaded (or the first page). */
export function applyHistoryPage(state: SessionState, page: HistoryPage, first: boolean): SessionState {
  const kept = beforeLive(page.events, liveUuids(state));
  const events = first ? kept : [...kept, ...state.history.events];
  const history: HistoryState = {
    start: page.start,
    total: page.total,
    exhausted: page.start <= 0 || page.events.length === 0,
    loading: false,
    events,
    transcript: fold(events),
  };
  return { ...state, history };
}

export function historyLoading(state: SessionState, loading: boolean, error?: string): SessionState {
  const history: HistoryState = { ...state.history, loading };
  if (error !== undefined) history.error = error;
  else delete history.error;
  return { ...state, history };
}
