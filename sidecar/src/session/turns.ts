// Turn ordering for one session: one turn runs at a time; later prompts wait here (not in the SDK's input) so
// turns never merge, and each `result` ends the running turn in FIFO order.
import type { UUID } from 'node:crypto';

export interface Turn {
  id: string;
  prompt: string;
  /** The uuid of the user message sent to the SDK for this turn. */
  uuid: UUID;
}

export type CancelOutcome =
  | { disposition: 'interrupted'; turn: Turn }
  | { disposition: 'dequeued'; turn: Turn }
  | { disposition: 'idle' }
  | { disposition: 'unknown_turn' };

export class TurnScheduler {
  private runningTurn: Turn | undefined;
  private queue: Turn[] = [];

  get running(): Turn | undefined {
    return this.runningTurn;
  }

  get queued(): readonly Turn[] {
    return this.queue;
  }

  has(turnId: string): boolean {
    return this.runningTurn?.id === turnId || this.queue.some((t) => t.id === turnId);
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
   * The running turn's result arrived: returns the finished turn and the next one to release. With
   * `promote: false` (the session is closing) the queue stays as it is, so nothing new starts.
   */
  finish(promote = true): { finished: Turn | undefined; next: Turn | undefined } {
    const finished = this.runningTurn;
    this.runningTurn = promote ? this.queue.shift() : undefined;
    return { finished, next: this.runningTurn };
  }

  /** No turn id: the running one. A queued turn leaves the queue; the running one must be interrupted. */
  cancel(turnId?: string): CancelOutcome {
    const running = this.runningTurn;
    if (turnId === undefined || running?.id === turnId) {
      return running === undefined ? { disposition: 'idle' } : { disposition: 'interrupted', turn: running };
    }
    const at = this.queue.findIndex((t) => t.id === turnId);
    if (at === -1) return { disposition: 'unknown_turn' };
    const [turn] = this.queue.splice(at, 1);
    return { disposition: 'dequeued', turn: turn! };
  }

  /** The session ends: everything still running or waiting. */
  drain(): { running: Turn | undefined; queued: Turn[] } {
    const drained = { running: this.runningTurn, queued: this.queue };
    this.runningTurn = undefined;
    this.queue = [];
    return drained;
  }
}
