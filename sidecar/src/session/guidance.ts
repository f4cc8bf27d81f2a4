// Guidance bookkeeping: which running turn is being steered, and which of its `result` messages belong to the
// interrupted response (bookkeeping, not the turn's end). While the interrupt is under way a result is held back;
// once it succeeded, a held result (or the next error_during_execution) is the interrupted response's and is
// dropped; if it failed, held results are handed back to be mapped as usual.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';

interface Steering {
  interrupting: boolean;
  held: SDKMessage[];
  /** How many interrupted responses' results are still to come. */
  owed: number;
}

export class Guidance {
  private readonly turns = new Map<string, Steering>();

  /** An interrupt for guidance is about to be asked for this turn. */
  begin(turn: string): void {
    const s = this.turns.get(turn) ?? { interrupting: false, held: [], owed: 0 };
    s.interrupting = true;
    this.turns.set(turn, s);
  }

  /** True when this result of the turn is guidance bookkeeping: it must not be mapped nor end the turn. */
  absorb(turn: string | undefined, message: SDKMessage): boolean {
    const s = turn !== undefined ? this.turns.get(turn) : undefined;
    if (s === undefined || message.type !== 'result') return false;
    if (s.interrupting) {
      s.held.push(message);
      return true;
    }
    if (s.owed > 0 && message.subtype === 'error_during_execution') {
      s.owed -= 1;
      return true;
    }
    return false;
  }

  /** The interrupt was acknowledged: the interrupted response's result was held already, or is still owed. */
  succeeded(turn: string): void {
    const s = this.turns.get(turn);
    if (s === undefined) return;
    s.interrupting = false;
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

  /** The turn ended. */
  forget(turn: string): void {
    this.turns.delete(turn);
  }
}
