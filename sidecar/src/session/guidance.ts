// Guidance bookkeeping: which running turn is being steered, and which of its `result` messages belong to the
// interrupted response (bookkeeping, not the turn's end). While the interrupt is under way a result is held back;
// once it succeeded, a held result is the interrupted response's and is dropped. With none held, the interrupted
// response's result is still owed: the first result before Claude Code begins its next query (system/init, or the
// guidance's echo) is it, whatever its subtype — a response that ended just as the interrupt came is acknowledged
// first and ends `success` after, and the guidance then gets a query, and a result, of its own. Failing that, the
// next error_during_execution is it. If the interrupt failed, held results are handed back to be mapped as usual.
import type { Query, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { EventBody } from '../protocol/events.js';
import type { CancelBudgets } from '../protocol/schemas.js';

/** How long Claude Code may take to acknowledge the guidance's interrupt; the turn's results wait on it. */
export const GUIDE_INTERRUPT_BUDGET_MS = 10_000;
/** A turn whose guidance stalled is stopped at once (its interrupt was asked already) and drained within this. */
export const GUIDE_STOP_BUDGETS: CancelBudgets = { interruptBudgetMs: 0, drainBudgetMs: 5_000 };
export const GUIDANCE_STALLED = `Claude Code did not take the guidance within ${GUIDE_INTERRUPT_BUDGET_MS / 1000} s, so the turn was stopped; send the guidance again as a prompt`;

/** Asks the query to interrupt; 'timeout' when it did not answer within ms (a failure rejects). */
export async function interruptWithin(query: Pick<Query, 'interrupt'>, ms: number): Promise<'acknowledged' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([query.interrupt().then(() => 'acknowledged' as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface Steering {
  interrupting: boolean;
  held: SDKMessage[];
  /** How many interrupted responses' results are still to come. */
  owed: number;
  /** The guidance was sent and Claude Code has not begun a query since: a result now is the interrupted one's. */
  beforeNextQuery: boolean;
  /** The uuid the guidance was sent under (its echo begins the guidance's query). */
  guidance?: string;
}

export class Guidance {
  private readonly turns = new Map<string, Steering>();
  /** Turns stopped because their guidance stalled (its interrupt or its answer never came): their end says why. */
  private readonly stalledTurns = new Map<string, string>();

  /** An interrupt for guidance is about to be asked for this turn. */
  begin(turn: string): void {
    const s = this.turns.get(turn) ?? { interrupting: false, held: [], owed: 0, beforeNextQuery: false };
    s.interrupting = true;
    this.turns.set(turn, s);
  }

  /** True when this result of the turn is guidance bookkeeping: it must not be mapped nor end the turn. */
  absorb(turn: string | undefined, message: SDKMessage): boolean {
    const s = turn !== undefined ? this.turns.get(turn) : undefined;
    if (s === undefined) return false;
    if (beginsQuery(message, s.guidance)) s.beforeNextQuery = false;
    if (message.type !== 'result') return false;
    if (s.interrupting) {
      s.held.push(message);
      return true;
    }
    if (s.beforeNextQuery && s.owed > 0) {
      s.beforeNextQuery = false;
      s.owed -= 1;
      return true;
    }
    if (s.owed > 0 && message.subtype === 'error_during_execution') {
      s.owed -= 1;
      return true;
    }
    return false;
  }

  /**
   * The interrupt was acknowledged and the guidance goes out under `uuid`: the interrupted response's result was
   * held already, or is still owed.
   */
  succeeded(turn: string, uuid: string): void {
    const s = this.turns.get(turn);
    if (s === undefined) return;
    s.interrupting = false;
    s.guidance = uuid;
    s.beforeNextQuery = s.held.length === 0;
    if (s.held.length === 0) s.owed += 1;
    s.held = [];
  }

  /** The interrupt failed: returns the results held meanwhile, to be handled as usual. */
  failed(turn: string): SDKMessage[] {
    const s = this.turns.get(turn);
    if (s === undefined) return [];
    this.turns.delete(turn);
    return s.held;
  }

  /** The guidance stalled; the turn is being stopped (its held results belong to a revoked query). */
  stalled(turn: string, why: string = GUIDANCE_STALLED): void {
    this.turns.delete(turn);
    this.stalledTurns.set(turn, why);
  }

  /** A stalled turn's end, however its stop ended it (canceled, or failed to drain), is the stall. */
  end(body: EventBody, turn: string | undefined): EventBody {
    const why = turn !== undefined ? this.stalledTurns.get(turn) : undefined;
    if (turn === undefined || why === undefined || (body.kind !== 'turn.canceled' && body.kind !== 'turn.failed')) return body;
    this.stalledTurns.delete(turn);
    return { kind: 'turn.failed', code: 'sdk_error', message: why };
  }

  /** The turn ended. */
  forget(turn: string): void {
    this.turns.delete(turn);
  }
}

/** Whether message begins a query of Claude Code's: its init, or the echo of the guidance it takes up. */
function beginsQuery(message: SDKMessage, guidance: string | undefined): boolean {
  if (message.type === 'system') return message.subtype === 'init';
  return message.type === 'user' && guidance !== undefined && message.uuid === guidance;
}
