// Holds a session's SDK messages back while something must happen before the next one is handled (a goal read
// before a result's turn end goes out), so the order on the wire stays the order Claude Code sent.

export class MessageGate {
  private queue: (() => void)[] | undefined;
  private readonly through = new WeakSet<object>();

  /** While the gate is closed `handle` waits its turn; true when it was queued. */
  queued(handle: () => void): boolean {
    if (this.queue === undefined) return false;
    this.queue.push(handle);
    return true;
  }

  /** How many messages wait at the closed gate; undefined while it is open (for a diagnostic). */
  get waiting(): number | undefined {
    return this.queue?.length;
  }

  /** Whether `message` already waited at the gate (it must not close it again). */
  passed(message: object): boolean {
    return this.through.has(message);
  }

  /** Closes the gate until `work` settles; then `handle` (the message that closed it) runs, and what queued behind. */
  closeFor(message: object, work: Promise<void>, handle: () => void): void {
    this.through.add(message);
    this.queue = [handle];
    void work.finally(() => this.open());
  }

  private open(): void {
    const waiting = this.queue ?? [];
    this.queue = undefined;
    while (waiting.length > 0) {
      waiting.shift()!();
      const reclosed = this.queue as (() => void)[] | undefined;
      if (reclosed !== undefined) {
        // A replayed message closed the gate again: the rest waits behind it.
        reclosed.push(...waiting);
        return;
      }
    }
  }
}
