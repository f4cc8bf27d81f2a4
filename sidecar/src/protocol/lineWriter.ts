// Writes wire lines, one JSON object per line, and lets shutdown wait until every line reached the stream.
// Lines sent in the same turn of the event loop go out in one write: a streaming reply makes thousands of small
// events, and one write (one pipe syscall, one read on the host) per line cost more than the events themselves.
// A long burst is cut every MAX_BATCH_LINES, so the first line of a burst does not wait for the whole burst.
import type { WireLine } from './codec.js';

/** Writes data and calls done once it is handed to the OS (a Node stream's write with a callback). */
export type RawWrite = (data: string, done: (error?: Error | null) => void) => void;

/** Schedules a callback after the current turn of the event loop (setImmediate; tests may pass their own). */
export type Defer = (run: () => void) => void;

/** At most this many lines wait for the end of the event-loop turn (bounds the latency batching adds). */
export const MAX_BATCH_LINES = 64;

export class LineWriter {
  private outstanding = 0;
  private idle: Array<() => void> = [];
  private pending: string[] = [];
  private scheduled = false;

  constructor(
    private readonly rawWrite: RawWrite,
    private readonly defer: Defer = (run) => void setImmediate(run),
  ) {}

  send(line: WireLine): void {
    this.outstanding++;
    this.pending.push(`${JSON.stringify(line)}\n`);
    if (this.pending.length >= MAX_BATCH_LINES) {
      this.write();
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      this.defer(() => {
        this.scheduled = false;
        this.write();
      });
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
    this.rawWrite(lines.join(''), () => {
      this.outstanding -= lines.length;
      if (this.outstanding === 0) for (const resolve of this.idle.splice(0)) resolve();
    });
  }
}
