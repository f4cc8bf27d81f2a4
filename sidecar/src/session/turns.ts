// Turn ordering for one session: one turn runs at a time; later prompts wait here (not in the SDK's input) so
// turns never merge, and each `result` ends the running turn in FIFO order. The scheduler also says where a turn
// is (its phase), which is what a cancel's disposition is decided from.
import type { UUID } from 'node:crypto';
import type { PromptImage } from '../protocol/schemas.js';
import type { IdentityBarrier } from './identity.js';

export interface Turn {
  id: string;
  prompt: string;
  /** Images sent with the prompt, after its text. */
  images?: PromptImage[];
  /** The uuid of the user message sent to the SDK for this turn. */
  uuid: UUID;
  /** Handed to the SDK's input (a query generation); until then a cancel removes it locally. */
  dispatched: boolean;
  /** Made at dispatch: binds the turn to the root user message Claude Code persisted for it (identity.ts). */
  barrier?: IdentityBarrier;
  /** Sent again to a fresh query once, after Claude Code died before it persisted the prompt. */
  resent?: boolean;
}

/** Where a turn was found. `queued` covers a released turn still waiting for its query generation to open. */
export type TurnLookup =
  | { phase: 'queued'; turn: Turn; running: boolean }
  | { phase: 'dispatched'; turn: Turn }
  | { phase: 'finished'; turn: string }
  | { phase: 'none' };

/** How many ended turn ids a session remembers, so a late cancel reads `mismatch` rather than `absent`. */
const FINISHED_MEMORY = 10_000;

export class TurnScheduler {
  private runningTurn: Turn | undefined;
  private queue: Turn[] = [];
  private finished = new Set<string>();

  get running(): Turn | undefined {
    return this.runningTurn;
  }

  get queued(): readonly Turn[] {
    return this.queue;
  }

  has(turnId: string): boolean {
    return this.runningTurn?.id === turnId || this.queue.some((t) => t.id === turnId) || this.finished.has(turnId);
  }

  /** Returns the turn to release into the SDK now, or undefined when it has to wait. */
  submit(turn: Turn): Turn | undefined {
    if (this.runningTurn === undefined && this.queue.length === 0) {
      this.runningTurn = turn;
      return turn;
    }
    this.queue.push(turn);
    return undefined;
  }

  /**
   * The running turn ended (its result arrived, or a cancel stopped it): returns the next one to release. With
   * `promote: false` (the session is closing) the queue stays as it is, so nothing new starts.
   */
  finish(promote = true): { finished: Turn | undefined; next: Turn | undefined } {
    const finished = this.runningTurn;
    if (finished !== undefined) this.remember(finished.id);
    this.runningTurn = promote ? this.queue.shift() : undefined;
    return { finished, next: this.runningTurn };
  }

  /** No turn id: the running one. */
  find(turnId?: string): TurnLookup {
    const running = this.runningTurn;
    if (running !== undefined && (turnId === undefined || running.id === turnId)) {
      return running.dispatched ? { phase: 'dispatched', turn: running } : { phase: 'queued', turn: running, running: true };
    }
    if (turnId === undefined) return { phase: 'none' };
    const waiting = this.queue.find((t) => t.id === turnId);
    if (waiting !== undefined) return { phase: 'queued', turn: waiting, running: false };
    return this.finished.has(turnId) ? { phase: 'finished', turn: turnId } : { phase: 'none' };
  }

  /** Removes a queued turn (not the running one) before it starts. */
  dequeue(turnId: string): void {
    const at = this.queue.findIndex((t) => t.id === turnId);
    if (at === -1) return;
    this.queue.splice(at, 1);
    this.remember(turnId);
  }

  /** The session ends: everything still running or waiting. */
  drain(): { running: Turn | undefined; queued: Turn[] } {
    const drained = { running: this.runningTurn, queued: this.queue };
    for (const turn of [...(drained.running !== undefined ? [drained.running] : []), ...drained.queued]) this.remember(turn.id);
    this.runningTurn = undefined;
    this.queue = [];
    return drained;
  }

  private remember(turnId: string): void {
    this.finished.add(turnId);
    if (this.finished.size > FINISHED_MEMORY) {
      const oldest = this.finished.values().next().value;
      if (oldest !== undefined) this.finished.delete(oldest);
    }
  }
}
