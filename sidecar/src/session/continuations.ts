// Output no person's prompt started (PROTOCOL.md, "Background work"): when a background task ends, Claude Code
// runs a follow-up on its own. This keeps the bookkeeping that decides where that follow-up goes:
// - the launching turn, held open: a root result while background work is live or a follow-up is due does not
//   end the turn; it ends when the session is idle again (nothing live, no follow-up due, the last one done);
// - else a reserved continuation turn (`turn.started {origin: "task_notification"}`), when the root had settled;
// - else nowhere: after a failed or canceled root turn the signals are fenced and the follow-up is rejected.
// A follow-up that shows no output within the delay is given up: its reservation ends, its late output is rejected.
import type { Event, EventOf } from '../protocol/events.js';

export type TurnEnd = EventOf<'turn.completed'> | EventOf<'turn.failed'> | EventOf<'turn.canceled'>;

/** A root turn whose result arrived while background work was live: its end waits for idle. */
export interface HeldTurn {
  turn: string;
  end: TurnEnd;
}

export const DEFAULT_CONTINUATION_DELAY_MS = 30_000;
export const CONTINUATION_TIMEOUT = 'background_agent_continuation_timeout';

export class Continuations {
  held: HeldTurn | undefined;
  /** The continuation turn reserved for a follow-up after the root settled. */
  reserved: { turn: string; startedAt: number } | undefined;
  /** Notifications whose follow-up has not ended yet (several may be answered by one follow-up). */
  private due = 0;
  /** A follow-up is streaming (its output began; its result has not come). */
  private streaming = false;
  /** The last root turn failed or was canceled: later signals open no continuation. */
  fenced = false;
  /** A follow-up was given up or fenced: its output is dropped until its result. */
  rejecting = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private reservations = 0;

  constructor(
    private readonly session: string,
    private readonly delayMs: number,
    private readonly onDelayed: () => void,
  ) {}

  /** A person's turn was released: a fresh root, so earlier fences no longer apply. */
  personTurnStarted(): void {
    this.fenced = false;
  }

  /** A task_notification arrived: a follow-up is due. */
  notified(): void {
    this.due += 1;
  }

  /** Whether a follow-up is due or under way. */
  get pending(): boolean {
    return this.due > 0 || this.streaming;
  }

  /** The follow-up's output began: it showed up in time. */
  outputSeen(): void {
    if (this.due > 0 || this.reserved !== undefined || this.held !== undefined) this.streaming = true;
    this.stopTimer();
  }

  /** A follow-up's result arrived: every notification so far is answered (they may be coalesced). */
  followUpEnded(): void {
    this.due = 0;
    this.streaming = false;
    this.stopTimer();
  }

  /** A new id for a continuation turn; the session's id keeps it unique across sessions. */
  reserve(now: number): string {
    this.reservations += 1;
    const turn = `${this.session}:continuation:${this.reservations}`;
    this.reserved = { turn, startedAt: now };
    return turn;
  }

  /** Waits `delayMs` for the follow-up's output; onDelayed gives it up. */
  armTimer(): void {
    this.stopTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onDelayed();
    }, this.delayMs);
    this.timer.unref?.();
  }

  stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Forgets every pending follow-up (the query was interrupted, revoked or the session ends). */
  reset(): void {
    this.due = 0;
    this.streaming = false;
    this.stopTimer();
  }
}

/** One end for a turn held open across its follow-ups: the follow-up's outcome, with the costs of both. */
export function mergeEnds(root: TurnEnd, followUp: TurnEnd): TurnEnd {
  if (root.kind !== 'turn.completed' || followUp.kind !== 'turn.completed') return followUp.kind === 'turn.completed' ? root : followUp;
  return {
    ...followUp,
    durationMs: root.durationMs + followUp.durationMs,
    numTurns: root.numTurns + followUp.numTurns,
    costUsd: root.costUsd + followUp.costUsd,
  };
}

export function isTurnEnd(body: Event): body is TurnEnd {
  return body.kind === 'turn.completed' || body.kind === 'turn.failed' || body.kind === 'turn.canceled';
}
