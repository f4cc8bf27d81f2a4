// Stopping a dispatched turn: graceful when Claude Code acknowledges the interrupt; otherwise the transport is
// closed, the process killed half-way through the drain budget, and a generation that still does not settle is
// reported (drained: false) instead of waited on. Stand-ins decide every answer, so no outcome depends on timing.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../src/session/generation.js';
import { GenerationStop } from '../../src/session/stopGeneration.js';

function standIn(opts: { interrupt: 'ack' | 'hang' | 'fail'; settles: 'on_close' | 'on_kill' | 'never' }) {
  const calls: string[] = [];
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const generation = {
    revoke: () => calls.push('revoke'),
    close: () => {
      calls.push('close');
      if (opts.settles === 'on_close') settle();
    },
    kill: () => {
      calls.push('kill');
      if (opts.settles === 'on_kill') settle();
    },
    settled,
    query: {
      interrupt: () => {
        calls.push('interrupt');
        if (opts.interrupt === 'ack') return Promise.resolve(undefined);
        if (opts.interrupt === 'fail') return Promise.reject(new Error('no'));
        return new Promise(() => undefined);
      },
    },
  } as unknown as Generation;
  return { generation, calls };
}

const budgets = { interruptBudgetMs: 30, drainBudgetMs: 40 };

describe('GenerationStop', () => {
  it('revokes before it interrupts, and is graceful when Claude Code acknowledges', async () => {
    const { generation, calls } = standIn({ interrupt: 'ack', settles: 'never' });
    const stop = new GenerationStop(generation, budgets, () => calls.push('settle permissions'));
    await expect(stop.outcome).resolves.toEqual({ forced: false });
    expect(calls).toEqual(['revoke', 'settle permissions', 'interrupt']);
  });

  it('closes the transport when the interrupt goes unanswered or fails', async () => {
    for (const interrupt of ['hang', 'fail'] as const) {
      const { generation, calls } = standIn({ interrupt, settles: 'on_close' });
      await expect(new GenerationStop(generation, budgets, () => undefined).outcome).resolves.toEqual({ forced: true, drained: true });
      expect(calls).toEqual(['revoke', 'interrupt', 'close']);
    }
  });

  it('kills a process that ignores the closed transport (SIGSTOP), and reports one that never settles', async () => {
    const stopped = standIn({ interrupt: 'hang', settles: 'on_kill' });
    await expect(new GenerationStop(stopped.generation, budgets, () => undefined).outcome).resolves.toEqual({ forced: true, drained: true });
    expect(stopped.calls).toEqual(['revoke', 'interrupt', 'close', 'kill']);

    const wedged = standIn({ interrupt: 'hang', settles: 'never' });
    await expect(new GenerationStop(wedged.generation, budgets, () => undefined).outcome).resolves.toEqual({ forced: true, drained: false });
  });

  it('skips what is left of the interrupt budget when asked (a second Ctrl-C)', async () => {
    const { generation, calls } = standIn({ interrupt: 'hang', settles: 'on_close' });
    const stop = new GenerationStop(generation, { interruptBudgetMs: 600_000, drainBudgetMs: 40 }, () => undefined);
    stop.skipInterrupt();
    await expect(stop.outcome).resolves.toEqual({ forced: true, drained: true });
    expect(calls).toEqual(['revoke', 'interrupt', 'close']);
  });
});
