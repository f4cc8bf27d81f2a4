// Reconnect delays: exponential with jitter, capped, so many tabs do not hammer a restarting host in step.
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  random?: () => number;
}

export class Backoff {
  private attempt = 0;

  constructor(private readonly opts: BackoffOptions) {}

  /** The delay before the next attempt. */
  next(): number {
    const base = Math.min(this.opts.maxMs, this.opts.initialMs * 2 ** this.attempt);
    this.attempt++;
    const jitter = (this.opts.random ?? Math.random)() * 0.3 * base;
    return Math.round(base * 0.85 + jitter);
  }

  reset(): void {
    this.attempt = 0;
  }
}
