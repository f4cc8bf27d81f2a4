// Writes wire lines, one JSON object per line, and lets shutdown wait until every line reached the stream.
// Lines sent in the same turn of the event loop go out in one write: a streaming reply makes thousands of small
// events, and one write (one pipe syscall, one read on the host) per line cost more than the events themselves.
// Waiting lines may be merged (coalesce.ts: text pieces of one block). A long turn of the event loop is cut every
// MAX_BATCH_LINES lines or MAX_BATCH_WAIT_MS, so the first line of a burst does not wait for the whole burst.
// While a reply streams in a burst (the last batch held BURST_PIECES lines or more) the next batch waits up to
// BURST_HOLD_MS for more pieces to merge: the host's cost is per line it reads, not per piece (issue 32), and a
// paced stream (a piece or two per batch) never waits.
import type { WireLine } from './codec.js';

/** Writes data and calls done once it is handed to the OS (a Node stream's write with a callback). */
export type RawWrite = (data: string, done: (error?: Error | null) => void) => void;

/** Schedules a callback after the current turn of the event loop (setImmediate; tests may pass their own). */
export type Defer = (run: () => void) => void;

/** Merges a line into the one waiting before it, or returns undefined to keep both. */
export type Merge = (prev: WireLine, next: WireLine) => WireLine | undefined;

/** A clock in milliseconds (performance.now; tests pass their own). */
export type Clock = () => number;

/** Schedules a callback after ms milliseconds (setTimeout; tests may pass their own). */
export type Hold = (run: () => void, ms: number) => void;

/** At most this many lines wait for the end of the event-loop turn (bounds the latency batching adds). */
export const MAX_BATCH_LINES = 64;

/** The oldest waiting line waits at most about this long (ms) while the event loop stays busy. */
export const MAX_BATCH_WAIT_MS = 1;

/** A batch of at least this many lines sent (merged or not) says the stream is in a burst. */
export const BURST_PIECES = 24;

/** In a burst, how long (ms) a batch may wait for more pieces to merge into it. */
export const BURST_HOLD_MS = 2;

export interface LineWriterOptions {
  defer?: Defer;
  hold?: Hold;
  merge?: Merge;
  clock?: Clock;
}

export class LineWriter {
  private outstanding = 0;
  private idle: Array<() => void> = [];
  private pending: WireLine[] = [];
  private firstAt = 0;
  private scheduled = false;
  private sent = 0; // lines sent since the last write, merged ones too
  private burst = false;
  private readonly defer: Defer;
  private readonly hold: Hold;
  private readonly merge: Merge | undefined;
  private readonly clock: Clock;

  constructor(
    private readonly rawWrite: RawWrite,
    options: LineWriterOptions = {},
  ) {
    this.defer = options.defer ?? ((run) => void setImmediate(run));
    this.hold = options.hold ?? ((run, ms) => void setTimeout(run, ms));
    this.merge = options.merge;
    this.clock = options.clock ?? (() => performance.now());
  }

  send(line: WireLine): void {
    this.sent++;
    const last = this.pending.length > 0 ? this.pending[this.pending.length - 1]! : undefined;
    const merged = last !== undefined && this.merge !== undefined ? this.merge(last, line) : undefined;
    if (merged !== undefined) {
      this.pending[this.pending.length - 1] = merged;
    } else {
      if (this.pending.length === 0) this.firstAt = this.clock();
      this.outstanding++;
      this.pending.push(line);
    }
    const wait = this.burst ? BURST_HOLD_MS : MAX_BATCH_WAIT_MS;
    if (this.pending.length >= MAX_BATCH_LINES || this.clock() - this.firstAt >= wait) {
      this.write();
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      const run = () => {
        this.scheduled = false;
        this.write();
      };
      if (this.burst) this.hold(run, BURST_HOLD_MS);
      else this.defer(run);
    }
  }

  /** Resolves once every line sent so far was written (or failed to write: a closed pipe must not hang exit). */
  flush(): Promise<void> {
    if (this.outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private write(): void {
    const lines = this.pending;
    if (lines.length === 0) return;
    this.pending = [];
    this.burst = this.sent >= BURST_PIECES;
    this.sent = 0;
    let data = '';
    for (const line of lines) data += `${JSON.stringify(line)}\n`;
    this.rawWrite(data, () => {
      this.outstanding -= lines.length;
      if (this.outstanding === 0) for (const resolve of this.idle.splice(0)) resolve();
    });
  }
}
