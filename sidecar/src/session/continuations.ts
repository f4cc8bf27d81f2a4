// Output no person's prompt started (PROTOCOL.md, "Background work"): when a background task ends, Claude Code
// runs a follow-up on its own. This owns the bookkeeping that decides where that follow-up goes:
// - the launching turn, held open: a root result while background work is live, a follow-up is due or the live
//   set only just emptied does not end the turn; it ends at Claude Code's idle edge with nothing live;
// - else a reserved continuation turn (`turn.started {origin: "task_notification"}`), when the root had settled;
//   it too ends at the idle edge, not at its first follow-up result (several notifications may each get one);
// - else nowhere: after a failed or canceled root turn the signals are fenced and the follow-up is rejected.
// The level signal and the task edges are not ordered by contract: after the live set empties, a short
// quiescence grace lets a task's own notification (which makes a follow-up due) win over the empty level.
// A follow-up that shows no output within the delay is given up: its reservation ends, its late output is rejected.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { Event, EventBody, EventOf } from '../protocol/events.js';
import { isFollowUpResult, isIdle, isLevel, isNotification, isOutput } from './backgroundSignals.js';

export type TurnEnd = EventOf<'turn.completed'> | EventOf<'turn.failed'> | EventOf<'turn.canceled'>;

/** A root turn whose result arrived while background work was live: its end waits for idle. */
export interface HeldTurn {
  turn: string;
  end: TurnEnd;
}

/** A continuation turn reserved for a follow-up after the root settled; `end` once a follow-up result came. */
export interface ReservedTurn {
  turn: string;
  startedAt: number;
  end?: TurnEnd;
}

export const DEFAULT_CONTINUATION_DELAY_MS = 30_000;
/** How long an empty live set waits for a task's own terminal edges before it counts as quiet. */
export const DEFAULT_QUIESCENCE_GRACE_MS = 250;
export const CONTINUATION_TIMEOUT = 'background_agent_continuation_timeout';

/** Timers, injectable so the state machine's tests need no real clock. */
export interface Timers {
  set(fire: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  set(fire, ms) {
    const timer = setTimeout(fire, ms);
    timer.unref?.();
    return timer;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** What the session gives the bookkeeping: event output, the turn queue and the live query. */
export interface ContinuationHost {
  /** Stamps and sends an event body (under the turn named). */
  emit(body: EventBody, turn: string | undefined): void;
  /** Sends an event stamped already (a held turn's end). */
  send(event: Event): void;
  /** The running person's turn ended: release the next one. */
  advance(): void;
  /** A person's prompt is queued behind the running turn. */
  promptWaiting(): boolean;
  /** How many non-ambient background tasks are live (the level signal). */
  liveTasks(): number;
  now(): number;
  /** Interrupts the live query's response (a follow-up given up or canceled); `what` names it for diagnostics. */
  interrupt(what: string): void;
}

export interface ContinuationOptions {
  delayMs?: number;
  graceMs?: number;
  timers?: Timers;
}

export class Continuations {
  held: HeldTurn | undefined;
  reserved: ReservedTurn | undefined;
  /** Notifications whose follow-up has not ended yet (several may be answered by one follow-up). */
  private due = 0;
  /** A follow-up is streaming (its output began; its result has not come). */
  private streaming = false;
  /** The last root turn failed or was canceled: later signals open no continuation. */
  fenced = false;
  /** A follow-up was given up or fenced: its output is dropped until its result. */
  rejecting = false;
  /** Claude Code said idle after the last notification (read when the grace ends). */
  private idleSinceNotice = false;
  private delayTimer: unknown;
  private graceTimer: unknown;
  private reservations = 0;
  private readonly delayMs: number;
  private readonly graceMs: number;
  private readonly timers: Timers;

  constructor(
    private readonly session: string,
    private readonly host: ContinuationHost,
    options: ContinuationOptions = {},
  ) {
    this.delayMs = options.delayMs ?? DEFAULT_CONTINUATION_DELAY_MS;
    this.graceMs = options.graceMs ?? DEFAULT_QUIESCENCE_GRACE_MS;
    this.timers = options.timers ?? realTimers;
  }

  /** Whether a follow-up is due or under way. */
  get pending(): boolean {
    return this.due > 0 || this.streaming;
  }

  /** The turn a reserved continuation's output is stamped with. */
  get continuationTurn(): string | undefined {
    return this.reserved?.turn;
  }

  /**
   * A person's turn was released: a fresh root, so earlier fences no longer apply; a continuation whose
   * follow-up already answered ends now, before the person's output (Claude Code answers the prompt next).
   */
  personTurnStarted(): void {
    this.fenced = false;
    if (this.reserved?.end !== undefined) this.endReserved();
  }

  /** A person's prompt is waiting behind a held turn: it ends first; a follow-up still due gets its own turn. */
  promptQueued(): void {
    if (this.held !== undefined) this.settleHeld(true);
  }

  /** Before an SDK message is mapped: notifications make follow-ups due, a follow-up's first output is noted. */
  before(message: SDKMessage, runningRoot: string | undefined): void {
    if (isOutput(message)) {
      this.outputSeen();
      return;
    }
    if (!isNotification(message)) return;
    this.due += 1;
    this.idleSinceNotice = false;
    if (runningRoot !== undefined && this.held?.turn !== runningRoot) return; // the running root's result decides
    if (this.fenced) {
      // After a failed or canceled root: the task settles, but its follow-up opens nothing.
      this.reset();
      this.rejecting = true;
      return;
    }
    if (this.held === undefined && this.reserved === undefined) this.reserve();
    this.armDelay();
  }

  /** After a non-result message's events went out: the level and the idle edge may end the waiting turn. */
  after(message: SDKMessage): void {
    if (isLevel(message)) this.levelChanged();
    if (isIdle(message)) this.idle();
  }

  /**
   * A result: it answers a reserved continuation's or a held turn's follow-up (their end waits for idle), or it
   * ends the running root turn — which is held open instead while background work is live, a follow-up is due,
   * or the live set only just emptied.
   */
  resultArrived(end: TurnEnd | undefined, message: SDKMessage, running: string | undefined): void {
    const reserved = this.reserved;
    if (reserved !== undefined) {
      if (end !== undefined) reserved.end = reserved.end === undefined ? end : mergeEnds(reserved.end, end);
      this.followUpEnded();
      return;
    }
    if (this.held !== undefined) {
      if (end !== undefined) this.held.end = mergeEnds(this.held.end, end);
      this.followUpEnded();
      return;
    }
    if (isFollowUpResult(message) || end?.turn === undefined) {
      // Claude Code's bookkeeping for a notification (a resumed process reporting a task the previous one left,
      // with no model call): the end of no person's turn.
      this.followUpEnded();
      if (running === undefined) this.host.advance();
      return;
    }
    if (running === undefined || end.turn !== running) {
      this.host.send(end);
      this.host.advance();
      return;
    }
    if (end.kind !== 'turn.completed') {
      // A failed or canceled root fences later level and notification signals from opening a continuation.
      this.fenced = true;
      this.reset();
    } else if (this.pending || this.host.liveTasks() > 0 || this.graceTimer !== undefined) {
      this.held = { turn: running, end };
      if (this.pending) this.armDelay();
      // A person's prompt already waits: it ends the turn at once, as one sent while the turn was held would.
      if (this.host.promptWaiting()) this.settleHeld(true);
      return;
    }
    this.host.send(end);
    this.host.advance();
  }

  /** Output of a follow-up that was given up (or fenced) is dropped until its result; `echo`: a person's turn began. */
  rejects(message: SDKMessage, echo: boolean): boolean {
    if (!this.rejecting) return false;
    if (echo) {
      this.rejecting = false; // a person's turn begins: nothing before it is late any more
      return false;
    }
    if (message.type === 'result') {
      this.rejecting = false;
      return isFollowUpResult(message) || message.subtype === 'error_during_execution';
    }
    return isOutput(message);
  }

  /** The person stopped a continuation turn: interrupt its follow-up and reject what it still sends. */
  cancel(turn: string): void {
    this.reserved = undefined;
    this.reset();
    this.rejecting = true;
    this.host.interrupt('a follow-up');
    this.host.emit({ kind: 'turn.canceled', disposition: 'provider_active', forced: false }, turn);
  }

  /**
   * The query generation goes away (a cancel, a failure): no follow-up can come any more. A reserved continuation
   * turn ends canceled; a held turn other than `keep` (which its caller ends) ends with its own result.
   */
  endAll(keep: string | undefined): void {
    this.reset();
    const reserved = this.reserved;
    this.reserved = undefined;
    if (reserved !== undefined) this.host.emit({ kind: 'turn.canceled', disposition: 'provider_active', forced: false }, reserved.turn);
    const held = this.held;
    this.held = undefined;
    if (held !== undefined && held.turn !== keep) this.host.send(held.end);
  }

  /** The session closes: forget every follow-up; returns the held turn (its caller ends it with the running turn). */
  close(): HeldTurn | undefined {
    this.reset();
    const held = this.held;
    this.held = undefined;
    const reserved = this.reserved;
    this.reserved = undefined;
    if (reserved !== undefined) this.host.emit({ kind: 'turn.canceled', disposition: 'provider_active', forced: false }, reserved.turn);
    return held;
  }

  /** Forgets every pending follow-up (the query was interrupted, revoked or the session ends). */
  reset(): void {
    this.due = 0;
    this.streaming = false;
    this.stopDelay();
    this.stopGrace();
  }

  private outputSeen(): void {
    if (this.due > 0 || this.reserved !== undefined || this.held !== undefined) this.streaming = true;
    this.stopDelay();
  }

  /** A follow-up's result arrived: every notification so far is answered (they may be coalesced). */
  private followUpEnded(): void {
    this.due = 0;
    this.streaming = false;
    this.stopDelay();
  }

  /** The live set changed: emptied, it is quiet only once the grace passed without a task's own edge. */
  private levelChanged(): void {
    this.stopGrace();
    if (this.host.liveTasks() > 0) return;
    this.graceTimer = this.timers.set(() => {
      this.graceTimer = undefined;
      this.settleIfQuiet(this.idleSinceNotice);
    }, this.graceMs);
  }

  /**
   * Claude Code says it is idle (session_state_changed): the authoritative turn-over edge. With no task live, no
   * follow-up is coming any more (a notification Claude Code folded into the running turn gets none).
   */
  private idle(): void {
    this.idleSinceNotice = true;
    this.settleIfQuiet(true);
  }

  /**
   * Ends the turn waiting for background work once nothing is live and the grace passed: at the idle edge, or
   * when the level emptied with no follow-up due (a stopped task's level comes after Claude Code went idle).
   */
  private settleIfQuiet(idle: boolean): void {
    if (this.graceTimer !== undefined) return;
    // A continuation turn is Claude Code's answer to notifications: it is over when Claude Code is idle again,
    // even with other tasks still live (their follow-ups reserve a turn of their own).
    const answered = this.reserved?.end !== undefined;
    if (answered && idle) {
      this.followUpEnded();
      this.endReserved();
      return;
    }
    if (this.host.liveTasks() > 0 || (!idle && this.pending)) return;
    if (this.held !== undefined) {
      this.followUpEnded();
      this.settleHeld(false);
    } else if (answered) {
      this.followUpEnded();
      this.endReserved();
    }
  }

  /** Ends the held turn; with `forPrompt` a person's prompt is waiting, so a due follow-up gets its own turn. */
  private settleHeld(forPrompt: boolean): void {
    const held = this.held;
    if (held === undefined) return;
    this.held = undefined;
    this.host.send(held.end);
    if (forPrompt && this.pending && this.reserved === undefined) this.reserve();
    this.host.advance();
  }

  private endReserved(): void {
    const reserved = this.reserved;
    this.reserved = undefined;
    if (reserved?.end !== undefined) this.host.send(reserved.end);
  }

  /** A follow-up is due with no turn to attach to: a continuation turn that shows no prompt. */
  private reserve(): void {
    this.reservations += 1;
    const turn = `${this.session}:continuation:${this.reservations}`;
    this.reserved = { turn, startedAt: this.host.now() };
    this.host.emit({ kind: 'turn.started', prompt: '', origin: 'task_notification' }, turn);
  }

  /** The follow-up showed no output in time: warn, end its reservation, interrupt it and reject what comes late. */
  private delayed(): void {
    const reserved = this.reserved;
    const held = this.held;
    this.host.emit({ kind: 'session.updated', warning: 'continuation_delayed' }, reserved?.turn ?? held?.turn);
    this.reset();
    this.rejecting = true;
    if (reserved !== undefined) {
      this.reserved = undefined;
      const durationMs = Math.max(0, this.host.now() - reserved.startedAt);
      this.host.emit({ kind: 'turn.completed', durationMs, numTurns: 0, costUsd: 0, stopReason: CONTINUATION_TIMEOUT }, reserved.turn);
    } else if (held !== undefined) {
      this.settleHeld(false);
    }
    this.host.interrupt('a delayed follow-up');
  }

  /** Waits `delayMs` for the follow-up's output; then gives it up. */
  private armDelay(): void {
    this.stopDelay();
    this.delayTimer = this.timers.set(() => {
      this.delayTimer = undefined;
      this.delayed();
    }, this.delayMs);
  }

  private stopDelay(): void {
    if (this.delayTimer !== undefined) this.timers.clear(this.delayTimer);
    this.delayTimer = undefined;
  }

  private stopGrace(): void {
    if (this.graceTimer !== undefined) this.timers.clear(this.graceTimer);
    this.graceTimer = undefined;
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
