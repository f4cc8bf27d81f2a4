// What the console looks up on the host without changing any state of its own: path completion, files for
// @-mentions, usage, search. Each call rejects with the host's message.
import type { UsageBy } from '../protocol/api.gen';
import type { Transport } from '../transport/transport';

export class Lookups {
  constructor(private readonly transport: Transport) {}

  /** The folders completing a typed path (the new-session dialog); rejects with the host's message. */
  completePath(path: string) {
    return this.transport.call('completePath', { path });
  }

  /** The files and folders of cwd best matching query (the composer's @-mentions); rejects with the host's message.
   * While the folder's first listing is being made the answer is what it has so far (partial) unless complete. */
  findFiles(cwd: string, query: string, limit?: number, complete = false) {
    return this.transport.call('findFiles', { cwd, query, ...(limit !== undefined ? { limit } : {}), ...(complete ? { complete } : {}) });
  }

  /** Tokens and cost of every stored session, grouped by by, from since (RFC 3339) on (the usage view). */
  usageReport(by: UsageBy, since?: string) {
    return this.transport.call('usageReport', { by, ...(since !== undefined ? { since } : {}) });
  }

  /** One session's tokens and cost (the session header's total). */
  sessionUsage(session: string) {
    return this.transport.call('usageReport', { by: 'session', session });
  }

  /** Messages and tool calls of every stored session holding every word, from since (RFC 3339) on (the sidebar's
   * content results); of one session only, in the order of its history (the find bar). */
  searchSessions(query: string, cwd?: string, since?: string, session?: string, limit?: number) {
    return this.transport.call('searchSessions', {
      query,
      ...(session !== undefined ? { session } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(cwd !== undefined && cwd !== '' ? { cwd } : {}),
      ...(since !== undefined ? { since } : {}),
    });
  }
}
