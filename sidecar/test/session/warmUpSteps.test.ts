import { describe, expect, it } from 'vitest';
import { runWarmUp } from '../../src/session/warmUpSteps.js';

describe('runWarmUp', () => {
  it('lets the loaded pages go before the warm-up, and says it ran after it', async () => {
    const order: string[] = [];
    let releaseBefore = () => {};
    const run = runWarmUp({
      before: () =>
        new Promise<void>((resolve) => {
          order.push('before');
          releaseBefore = resolve;
        }),
      warm: () => order.push('warm'),
      after: () => order.push('after'),
    });
    await Promise.resolve();
    expect(order).toEqual(['before']); // the warm-up waits for the trim: its pages are the ones a reply keeps
    releaseBefore();
    await run;
    expect(order).toEqual(['before', 'warm', 'after']);
  });

  it('warms up anyway when letting the pages go fails', async () => {
    const order: string[] = [];
    await runWarmUp({
      before: () => Promise.reject(new Error('madvise is not there')),
      warm: () => order.push('warm'),
      after: () => order.push('after'),
    });
    expect(order).toEqual(['warm', 'after']);
  });
});
