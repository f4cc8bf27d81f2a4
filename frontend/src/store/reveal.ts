// Showing a session at a history position (a search hit, a find bar's match): its history is loaded back to the
// position first, a page after another, then its transcript is asked to scroll there and highlight the row and
// the words. One request at a time across the window: a new one replaces the last.
import type { ConsoleState } from './types';

export interface RevealTarget {
  session: string;
  /** The position in the session's history (a search hit's). */
  position: number;
  /** The hit's message uuid: finds it in the live part, past the stored history. */
  uuid?: string;
  /** The words to highlight in the row. */
  words: readonly string[];
  /** Tells a repeated request for the same position from the last one. */
  nonce: number;
}

export class Reveal {
  private target: RevealTarget | undefined;
  private nonce = 0;
  private readonly listeners = new Set<() => void>();

  request(target: Omit<RevealTarget, 'nonce'>): void {
    this.nonce++;
    this.set({ ...target, nonce: this.nonce });
  }

  /** Drops the request (and its highlight) of that session. */
  clear(session: string): void {
    if (this.target?.session === session) this.set(undefined);
  }

  readonly current = (): RevealTarget | undefined => this.target;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(target: RevealTarget | undefined): void {
    this.target = target;
    for (const l of [...this.listeners]) l();
  }
}

/** What revealing needs of the store: its state, its changes and history paging. */
export interface HistoryPager {
  getState(): ConsoleState;
  subscribe(listener: () => void): () => void;
  loadHistory(id: string, first?: boolean, to?: number): Promise<void>;
  readonly reveal: Reveal;
}

/** The next change of the store. */
function changed(store: HistoryPager): Promise<void> {
  return new Promise((resolve) => {
    const stop = store.subscribe(() => {
      stop();
      resolve();
    });
  });
}

/** Loads the session's history back to the target's position (a load under way is waited for), then asks its
 * transcript to show it. The session is selected already. */
export async function revealPosition(store: HistoryPager, target: Omit<RevealTarget, 'nonce'>): Promise<void> {
  for (let guard = 0; guard < 200; guard++) {
    const h = store.getState().sessions[target.session]?.history;
    if (h === undefined) return;
    if (h.loading) {
      await changed(store);
      continue;
    }
    const loadedAny = h.total > 0 || h.events.length > 0;
    if (h.exhausted || (loadedAny && h.start <= target.position)) break;
    const before = h.start;
    await store.loadHistory(target.session, !loadedAny, target.position);
    const after = store.getState().sessions[target.session]?.history;
    if (after === undefined || after.error !== undefined || (after.start === before && loadedAny)) break; // no progress
  }
  store.reveal.request(target);
}
