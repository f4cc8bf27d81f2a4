// The bound on a guided turn's answer: only a response other than the interrupted one ends the watch; a retry
// notice renews it; what arrived is reported by kind only.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { AnswerWatch, type Silence } from '../../src/session/guidedAnswer.js';

const start = (id: string) => ({ type: 'stream_event', event: { type: 'message_start', message: { id } } }) as unknown as SDKMessage;
const retry = { type: 'system', subtype: 'api_retry' } as unknown as SDKMessage;
const echo = { type: 'user', message: { role: 'user', content: 'secret guidance' } } as unknown as SDKMessage;

describe('AnswerWatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires once when only the interrupted response shows up, saying what arrived by kind', () => {
    const watch = new AnswerWatch(1_000);
    watch.arrived(start('interrupted'));
    const fired: Silence[] = [];
    watch.arm('t1', (s) => fired.push(s));
    for (const m of [start('interrupted'), echo]) {
      watch.arrived(m);
      watch.reached('t1', m);
    }
    vi.advanceTimersByTime(1_000);
    vi.advanceTimersByTime(5_000);
    expect(fired).toEqual([{ turn: 't1', budgetMs: 1_000, arrived: 2, trail: ['stream/message_start', 'user'] }]);
    expect(JSON.stringify(fired)).not.toContain('secret');
  });

  it('ends when the answer begins on the turn, and a retry notice renews the budget', () => {
    const watch = new AnswerWatch(1_000);
    const fired: Silence[] = [];
    watch.arm('t1', (s) => fired.push(s));
    vi.advanceTimersByTime(900);
    watch.reached('t1', retry);
    vi.advanceTimersByTime(900);
    expect(fired).toEqual([]);
    watch.reached('other', start('answer')); // not the guided turn's
    watch.reached('t1', start('answer'));
    vi.advanceTimersByTime(5_000);
    expect(fired).toEqual([]);
  });

  it('stops waiting once disarmed (the turn ended)', () => {
    const watch = new AnswerWatch(1_000);
    const fired: Silence[] = [];
    watch.arm('t1', (s) => fired.push(s));
    watch.disarm();
    vi.advanceTimersByTime(5_000);
    expect(fired).toEqual([]);
  });
});
