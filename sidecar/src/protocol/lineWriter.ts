// Writes wire lines, one JSON object per line, and lets shutdown wait until every line reached the stream.
// Lines sent in the same turn of the event loop go out in one write: a streaming reply makes thousands of small
// events, and one write (one pipe syscall, one read on the host) per line cost more than the events themselves.
// Waiting lines may be merged (coalesce.ts: text pieces of one block). A long turn of the event loop is cut every
// MAX_BATCH_LINES lines or MAX_BATCH_WAIT_MS, so the first line of a burst does not wait for the whole burst.
// While a reply streams in a burst (BURST_PIECES lines or more sent within the last BURST_WINDOW_MS) a batch
// waits up to BURST_HOLD_MS for more pieces to merge: the host's cost is per line it reads, not per piece (issue
// 32), and a paced stream (a piece a millisecond) never waits. The burst is told by the rate, not by one batch's
// size: a sidecar that keeps up with a fast stream reads its pieces one per turn of the event loop.
import { SerialisedLine, type WireLine } from './codec.js';

/** Writes data (text, or UTF-8 bytes) and calls done once it is handed to the OS (a Node stream's write with a
 * callback). */
export type RawWrite = (data: string | Uint8Array, done: (error?: Error | null) => void) => void;

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

/** At least this many lines sent (merged or not) within BURST_WINDOW_MS say the stream is in a burst. */
export const BURST_PIECES = 24;

/** The window (ms) over which BURST_PIECES are counted: 3 pieces a millisecond, three times a paced stream's. */
export const BURST_WINDOW_MS = 8;

/** In a burst, how long (ms) a batch may wait for more pieces to merge into it. Well under a frame (16 ms at
 * 60 Hz). Issue 32, 20,000 deltas: 2 ms sent 251 events (host CPU 54 ms, burst p99 8 ms), 4 ms 156 (41 ms, 11 ms),
 * 8 ms 100 (33 ms, 16 ms: a whole frame, not taken). */
export const BURST_HOLD_MS = 4;

export interface LineWriterOptions {
  defer?: Defer;
  hold?: Hold;
  merge?: Merge;
  clock?: Clock;
}

export class LineWriter {
  private outstanding = 0;
  private idle: Array<() => void> = [];
  private pending: Array<WireLine | SerialisedLine> = [];
  private lastSerialised = false; // the last waiting line is a SerialisedLine
  private serialisedWaiting = false; // a SerialisedLine waits: the batch is written in parts
  private firstAt = 0;
  private scheduled = false;
  private batch = 0; // counts writes: a scheduled write of an earlier batch (cut meanwhile) does nothing
  private sent = 0; // lines sent since the last write, merged ones too
  private recent: Array<{ at: number; sent: number }> = []; // the writes within BURST_WINDOW_MS
  private recentSent = 0;
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

  send(line: WireLine | SerialisedLine): void {
    this.sent++;
    // Only wire lines merge: a serialised one is written as it is.
    const serialised = line instanceof SerialisedLine;
    const last = this.pending.length > 0 && !this.lastSerialised ? (this.pending[this.pending.length - 1] as WireLine) : undefined;
    const merged = last !== undefined && !serialised && this.merge !== undefined ? this.merge(last, line) : undefined;
    if (merged !== undefined) {
      this.pending[this.pending.length - 1] = merged;
    } else {
      this.lastSerialised = serialised;
      this.serialisedWaiting ||= serialised;
      if (this.pending.length === 0) {
        this.firstAt = this.clock();
        this.burst = this.sentWithinWindow(this.firstAt) >= BURST_PIECES;
      }
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
      const batch = this.batch;
      const run = () => {
        if (batch === this.batch) this.write();
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
    this.scheduled = false;
    this.batch++;
    const lines = this.pending;
    if (lines.length === 0) return;
    this.pending = [];
    this.lastSerialised = false;
    this.recent.push({ at: this.clock(), sent: this.sent });
    this.recentSent += this.sent;
    this.sent = 0;
    const written = () => {
      this.outstanding -= lines.length;
      if (this.outstanding === 0) for (const resolve of this.idle.splice(0)) resolve();
    };
    if (this.serialisedWaiting) {
      this.writeParts(lines, written);
      return;
    }
    let data = '';
    for (const line of lines as WireLine[]) data += `${JSON.stringify(line)}\n`;
    this.rawWrite(data, written);
  }

  /** A batch with serialised lines: their bytes go as they are, in order between the text around them. */
  private writeParts(lines: ReadonlyArray<WireLine | SerialisedLine>, written: () => void): void {
    this.serialisedWaiting = false;
    const chunks: Array<string | Uint8Array> = [];
    let data = '';
    for (const line of lines) {
      if (line instanceof SerialisedLine) data = appendParts(chunks, data, line);
      else data += `${JSON.stringify(line)}\n`;
    }
    if (data !== '') chunks.push(data);
    let left = chunks.length;
    for (const chunk of chunks) {
      this.rawWrite(chunk, () => {
        if (--left === 0) written();
      });
    }
  }

  /** How many lines were written within BURST_WINDOW_MS before now (older writes are forgotten). */
  private sentWithinWindow(now: number): number {
    let old = 0;
    while (old < this.recent.length && now - this.recent[old]!.at > BURST_WINDOW_MS) this.recentSent -= this.recent[old++]!.sent;
    if (old > 0) this.recent.splice(0, old);
    return this.recentSent;
  }
}

/** Adds a serialised line after the text waiting before it: its text parts join that text, its bytes go as they
 * are, in order. Returns the text that waits after it. */
function appendParts(chunks: Array<string | Uint8Array>, waiting: string, line: SerialisedLine): string {
  let data = waiting;
  for (const part of line.parts) {
    if (typeof part === 'string') {
      data += part;
      continue;
    }
    if (data !== '') chunks.push(data);
    chunks.push(part);
    data = '';
  }
  return data;
}
