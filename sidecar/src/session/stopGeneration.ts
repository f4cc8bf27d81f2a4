// Stopping a dispatched turn (cancel's provider_active path): revoke the generation first, so nothing more from it
// is routed, asked or run; then ask Claude Code to interrupt within the interrupt budget. Acknowledged → graceful.
// Missing or failed → close the query's transport and wait at most the drain budget for the generation to settle,
// killing the process half-way through it (a process stopped with SIGSTOP can act on neither stdin's end nor
// SIGTERM). Every path ends within the two budgets; a drain that still did not settle is reported, never waited on.
import type { CancelBudgets } from '../protocol/schemas.js';
import type { Generation } from './generation.js';

export type StopOutcome =
  /** Claude Code acknowledged the interrupt; the generation retires in the background. */
  | { forced: false }
  /** The transport was closed; `drained` is false when the generation had not settled within the drain budget. */
  | { forced: true; drained: boolean };

export class GenerationStop {
  private forceNow: () => void = () => undefined;
  private readonly forcing: Promise<'forced'>;
  readonly outcome: Promise<StopOutcome>;

  constructor(
    private readonly generation: Generation,
    budgets: CancelBudgets,
    /** Called after the revoke, before the interrupt is asked (settle open permission requests here). */
    beforeInterrupt: () => void,
  ) {
    this.forcing = new Promise((resolve) => {
      this.forceNow = () => resolve('forced');
    });
    generation.revoke();
    beforeInterrupt();
    this.outcome = this.run(budgets);
  }

  /** A later cancel with no interrupt budget (a second Ctrl-C): stop waiting for the interrupt. */
  skipInterrupt(): void {
    this.forceNow();
  }

  private async run(budgets: CancelBudgets): Promise<StopOutcome> {
    const generation = this.generation;
    const interrupt = generation.query.interrupt().then(
      () => 'acknowledged' as const,
      () => 'failed' as const,
    );
    const timer = sleep(budgets.interruptBudgetMs);
    const answer = await Promise.race([interrupt, timer.done, this.forcing]);
    timer.cancel();
    if (answer === 'acknowledged') return { forced: false };
    generation.close();
    const half = Math.floor(budgets.drainBudgetMs / 2);
    if (await settlesWithin(generation, half)) return { forced: true, drained: true };
    generation.kill();
    return { forced: true, drained: await settlesWithin(generation, budgets.drainBudgetMs - half) };
  }
}

async function settlesWithin(generation: Generation, ms: number): Promise<boolean> {
  const timer = sleep(ms);
  const settled = await Promise.race([generation.settled.then(() => true), timer.done.then(() => false)]);
  timer.cancel();
  return settled;
}

function sleep(ms: number): { done: Promise<'timeout'>; cancel: () => void } {
  let handle: NodeJS.Timeout | undefined;
  const done = new Promise<'timeout'>((resolve) => {
    handle = setTimeout(() => resolve('timeout'), ms);
  });
  return { done, cancel: () => clearTimeout(handle) };
}

/** Why a stop failed: the claude process had not settled within the drain budget. */
export function drainMessage(budgets: CancelBudgets): string {
  return `Claude Code did not stop within the drain budget (${budgets.drainBudgetMs} ms after the interrupt budget of ${budgets.interruptBudgetMs} ms); its process was killed`;
}
