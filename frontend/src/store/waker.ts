// Readies a session for the prompt being typed in it (the host's wakeSession). An asleep session wakes while the
// person types, so the prompt does not wait for its processes to start again (about half a second; the runtime
// bench's wake figure), and an awake one starts its idle time again, so it does not fall asleep under a draft.
import type { Transport } from '../transport/transport';
import type { SessionState } from './types';

/** An awake session is told at most this often; an asleep one at the first keystroke. */
export const READY_AGAIN_MS = 20_000;

export class Waker {
  private readonly told = new Map<string, { at: number; refused: boolean }>();
  private readonly telling = new Set<string>();
  /** Sessions this waker is waking with no prompt sent yet: nobody waits on them. */
  private readonly ahead = new Set<string>();

  constructor(
    private readonly transport: Transport,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the session wakes because its prompt is being typed, none sent yet (nobody waits: "waking…" need
   * not show). */
  wakingAhead(id: string): boolean {
    return this.ahead.has(id);
  }

  /** A prompt was sent to the session: from now on its wake is waited on. */
  sent(id: string): void {
    this.ahead.delete(id);
  }

  /** The person typed in the session's composer. */
  typing(session: Pick<SessionState, 'id' | 'live' | 'sleep'>): void {
    const { id } = session;
    if (!session.live || session.sleep === 'waking' || this.telling.has(id)) return;
    const last = this.told.get(id);
    const recent = last !== undefined && this.now() - last.at < READY_AGAIN_MS;
    // A refusal (the session closed, or Claude Code's own TUI holds it) is not asked again at every keystroke.
    if (recent && (session.sleep !== 'asleep' || last.refused)) return;
    this.telling.add(id);
    if (session.sleep === 'asleep') this.ahead.add(id);
    const told = (refused: boolean) => {
      this.telling.delete(id);
      this.ahead.delete(id);
      this.told.set(id, { at: this.now(), refused });
    };
    // Nothing to show on a refusal: the prompt, if sent, wakes the session itself or says why it cannot.
    this.transport.call('wakeSession', { session: id }).then(
      () => told(false),
      () => told(true),
    );
  }
}
