// Writes wire lines, one JSON object per line, and lets shutdown wait until every line reached the stream.
import type { WireLine } from './codec.js';

/** Writes data and calls done once it is handed to the OS (a Node stream's write with a callback). */
export type RawWrite = (data: string, done: (error?: Error | null) => void) => void;

export class LineWriter {
  private outstanding = 0;
  private idle: Array<() => void> = [];

  constructor(private readonly rawWrite: RawWrite) {}

  send(line: WireLine): void {
    this.outstanding++;
    this.rawWrite(`${JSON.stringify(line)}\n`, () => {
      this.outstanding--;
      if (this.outstanding === 0) for (const resolve of this.idle.splice(0)) resolve();
    });
  }

  /** Resolves once every line sent so far was written (or failed to write: a closed pipe must not hang exit). */
  flush(): Promise<void> {
    if (this.outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }
}
