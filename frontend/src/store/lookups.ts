// What the console looks up on the host without changing any state of its own: path completion, files for
// @-mentions, usage, search, the account's models (kept until the sign-in changes). Each call rejects with the
// host's message.
import { toApiError } from '../protocol/api';
import type { UsageBy } from '../protocol/api.gen';
import type { ModelEntry } from '../protocol/events';
import type { Transport } from '../transport/transport';

export class Lookups {
  /** The account's models (listModels), until the sign-in changes. */
  private models: Promise<ModelEntry[]> | undefined;

  constructor(private readonly transport: Transport) {}

  /** The models the signed-in account offers (for a session not yet open); rejects with the host's message. */
  listModels(): Promise<ModelEntry[]> {
    this.models ??= this.transport.call('listModels', {}).then(
      (r) => r.models ?? [],
      (err: unknown) => {
        // Failures are not kept: asking again is the way to retry.
        this.models = undefined;
        throw toApiError(err, 'listModels');
      },
    );
    return this.models;
  }

  /** Another account may offer other models: the next listModels asks again. */
  forgetModels(): void {
    this.models = undefined;
  }

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
