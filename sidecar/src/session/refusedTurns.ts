// A credential the API refuses (HTTP 401) fails the turn at once. Claude Code retries a 401 as it retries an
// overload: ten times with backoff, about three and a half minutes, reporting each retry as system/api_retry with
// error_status 401. No retry can fix a refused key or login, so the first such report ends the person's turn: the
// session stops it through the cancel path (interrupt, then close within the budgets), and the turn's end is
// turn.failed `auth` (the console's "The API key was refused" / "Not signed in" card), not turn.canceled.
import type { CancelBudgets } from '../protocol/schemas.js';
import type { EventBody } from '../protocol/events.js';
import { systemApiRetrySchema } from '../mapper/sdkSchemas.js';
import type { Turn } from './turns.js';

export const AUTH_REFUSED_MESSAGE =
  'Anthropic refused the credentials (HTTP 401), so Claude Code stopped instead of retrying. Fix the API key or sign in again, then retry.';

/** The stop's budgets: Claude Code is only waiting between retries, so it answers the interrupt at once. */
export const REFUSAL_STOP_BUDGETS: CancelBudgets = { interruptBudgetMs: 5_000, drainBudgetMs: 5_000 };

/**
 * Whether message has the two literals systemApiRetrySchema requires. Every message of a running turn is asked
 * (a streamed reply's thousands of pieces too), and zod's refusal builds its issues each time: issue 32's profile
 * of the sidecar over a 20,000-delta reply had that refusal at about 8 % of its samples.
 */
function maybeApiRetry(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as { type?: unknown; subtype?: unknown };
  return m.type === 'system' && m.subtype === 'api_retry';
}

export class RefusedTurns {
  private readonly refused = new Set<string>();

  /**
   * Whether message is Claude Code about to retry a 401 for the running person's turn (dispatched, no follow-up
   * of background work in between): the turn is then marked refused and the caller stops it.
   */
  refuses(message: unknown, running: Turn | undefined, continuationReserved: boolean): running is Turn {
    if (running === undefined || !running.dispatched || continuationReserved || this.refused.has(running.id)) return false;
    if (!maybeApiRetry(message)) return false;
    const retry = systemApiRetrySchema.safeParse(message);
    if (!retry.success || retry.data.error_status !== 401) return false;
    this.refused.add(running.id);
    return true;
  }

  /** A refused turn's end, however its stop ended it (canceled, or failed to drain), is the refusal. */
  end(body: EventBody, turn: string | undefined): EventBody {
    if (turn === undefined || !this.refused.has(turn) || (body.kind !== 'turn.canceled' && body.kind !== 'turn.failed')) return body;
    this.refused.delete(turn);
    return { kind: 'turn.failed', code: 'auth', message: AUTH_REFUSED_MESSAGE };
  }
}
