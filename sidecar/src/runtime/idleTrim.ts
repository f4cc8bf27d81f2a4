// Decides when the sidecar lets its read-only pages go (pageTrim.ts): once it is idle, never during a reply. A
// trim is wanted after the warm-up and after each turn's end; it runs once no turn runs and no line went either
// way for QUIET_MS, so the side reads after a turn (history pages, the index's lent jobs) finish first and a
// reply that starts meanwhile puts it off until its own end. The pages the next reply touches come back from
// the page cache (its CPU is measured: app/PERFORMANCE.md, "Sidecar lets its file pages go").
import type { Event } from '../protocol/events.js';

/** How long (ms) the sidecar stays quiet before a wanted trim runs. */
export const QUIET_MS = 500;

/** Schedules run after ms and returns its cancel (setTimeout; tests pass their own). */
export type Schedule = (run: () => void, ms: number) => () => void;

const schedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  timer.unref(); // a wanted trim never keeps the process alive
  return () => clearTimeout(timer);
};

export class IdleTrim {
  /** Running turns, as session + turn. */
  private readonly turns = new Set<string>();
  private wanted = false;
  private cancel: (() => void) | undefined;

  constructor(
    private readonly trim: () => void,
    private readonly later: Schedule = schedule,
  ) {}

  /** The warm-up is done: its pages may go once the sidecar is quiet. */
  warmedUp(): void {
    this.want();
  }

  /** A line came from the host or went to it: a wanted trim waits for quiet again. */
  traffic(): void {
    if (this.wanted) this.wait();
  }

  /** An event went to the host: turns start and end by these. */
  event(event: Event): void {
    switch (event.kind) {
      case 'turn.started':
        this.turns.add(turnKey(event.session, event.turn));
        break;
      case 'turn.completed':
      case 'turn.failed':
      case 'turn.canceled':
        this.turns.delete(turnKey(event.session, event.turn));
        this.want();
        return;
      case 'session.closed':
        for (const key of this.turns) if (key.startsWith(`${event.session}\n`)) this.turns.delete(key);
        break;
      default:
        break;
    }
    this.traffic();
  }

  private want(): void {
    this.wanted = true;
    this.wait();
  }

  private wait(): void {
    this.cancel?.();
    this.cancel = undefined;
    if (!this.wanted || this.turns.size > 0) return;
    this.cancel = this.later(() => {
      this.cancel = undefined;
      this.wanted = false;
      this.trim();
    }, QUIET_MS);
  }
}

function turnKey(session: string, turn: string | undefined): string {
  return `${session}\n${turn ?? ''}`;
}
