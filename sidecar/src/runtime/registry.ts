// Open sessions by host id. A session still starting is registered as a promise, so requests that arrive
// meanwhile wait for it instead of failing with unknown_session.
import { ProtocolFailure } from '../protocol/errors.js';
import type { SessionHandle } from './backend.js';

export class SessionRegistry {
  private entries = new Map<string, Promise<SessionHandle>>();

  /** Registers a starting session; rejects a second start under an id that is open or starting. */
  add(id: string, starting: Promise<SessionHandle>): void {
    if (this.entries.has(id)) throw new ProtocolFailure('session_exists', `session ${id} is already open`);
    this.entries.set(id, starting);
    // A start that fails leaves no entry behind.
    starting.catch(() => this.remove(id, starting));
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  async get(id: string): Promise<SessionHandle> {
    const entry = this.entries.get(id);
    if (entry === undefined) throw new ProtocolFailure('unknown_session', `no open session ${id}`);
    try {
      return await entry;
    } catch {
      throw new ProtocolFailure('unknown_session', `no open session ${id} (it failed to start)`);
    }
  }

  /** Forgets the session, but only if the entry is still the one given (a new start may reuse the id). */
  remove(id: string, expected?: Promise<SessionHandle>): void {
    if (expected === undefined || this.entries.get(id) === expected) this.entries.delete(id);
  }

  /** Closes every session, waiting for those still starting. */
  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    await Promise.allSettled(all.map(async (entry) => (await entry).close()));
  }
}
