import { describe, expect, it } from 'vitest';
import { PageWindow, pageOf, parentIn, upTo, withReceiptEnds } from '../../src/history/history.js';
import type { Event } from '../../src/protocol/events.js';

const S = '5e551011-0000-4000-8000-000000000001';
const events: Event[] = Array.from({ length: 10 }, (_, i) => ({
  kind: 'message.completed',
  session: S,
  time: '2026-11-30T12:00:00.000Z',
  role: 'assistant',
  text: `message ${i}`,
}));

describe('history pages', () => {
  it('gives the newest page first, then older pages before a position', () => {
    const newest = pageOf(events, { limit: 4 });
    expect(newest).toMatchObject({ total: 10, start: 6, dropped: 0 });
    expect(newest.events.map((e) => (e.kind === 'message.completed' ? e.text : ''))).toEqual(['message 6', 'message 7', 'message 8', 'message 9']);
    const older = pageOf(events, { before: newest.start, limit: 4 });
    expect(older).toMatchObject({ total: 10, start: 2 });
    const oldest = pageOf(events, { before: older.start, limit: 4 });
    expect(oldest).toMatchObject({ total: 10, start: 0 });
    expect(oldest.events).toHaveLength(2);
  });

  it('keeps only the page while the events stream past, and gives what the whole list would', () => {
    for (const before of [undefined, 0, 3, 9, 10, 50]) {
      for (const limit of [undefined, 1, 2, 4, 10, 30]) {
        const window = new PageWindow({ before, limit });
        for (const e of events) window.push(e);
        expect(window.page(), `before ${before} limit ${limit}`).toEqual(pageOf(events, { before, limit }));
      }
    }
  });

  it('gives everything without a limit, and nothing before position 0', () => {
    expect(pageOf(events, {})).toMatchObject({ total: 10, start: 0 });
    expect(pageOf(events, {}).events).toHaveLength(10);
    expect(pageOf(events, { before: 0, limit: 5 }).events).toHaveLength(0);
    expect(pageOf(events, { before: 99, limit: 3 })).toMatchObject({ start: 7 });
  });
});

describe('turn ends from receipts', () => {
  const T = '2026-11-30T12:00:00.000Z';
  const turn = (uuid: string, text: string): Event[] => [
    { kind: 'turn.started', session: S, turn: uuid, time: T, prompt: text, uuid },
    { kind: 'message.completed', session: S, turn: uuid, time: T, role: 'assistant', text: `re: ${text}` },
  ];
  it('ends each Baton-run turn after its last event; a turn cut off by Baton dying reads host_exited', () => {
    const all = [...turn('u1', 'one'), ...turn('u2', 'two'), ...turn('u3', 'three')];
    const out = withReceiptEnds(
      all,
      [
        { providerMessage: 'u1', outcome: 'completed', endedAt: T, durationMs: 1200, costUsd: 0.5 },
        { providerMessage: 'u3', outcome: 'failed', endedAt: T, code: 'host_exited' },
      ],
      S,
    );
    expect(out.map((e) => `${e.kind}:${e.turn ?? ''}`)).toEqual([
      'turn.started:u1',
      'message.completed:u1',
      'turn.completed:u1',
      'turn.started:u2',
      'message.completed:u2',
      'turn.started:u3',
      'message.completed:u3',
      'turn.failed:u3',
    ]);
    expect(out[2]).toMatchObject({ costUsd: 0.5, durationMs: 1200 });
    expect(out[7]).toMatchObject({ code: 'host_exited' });
  });
});

describe('rewinding and forking at a message', () => {
  const chain = [{ uuid: 'u1' }, { uuid: 'a1' }, { uuid: 'u2' }, { uuid: 'a2' }];

  it('finds the message a user message follows, and says when it opens the conversation', () => {
    expect(parentIn(chain, 'u2')).toEqual({ found: true, parent: 'a1' });
    expect(parentIn(chain, 'u1')).toEqual({ found: true });
    expect(parentIn(chain, 'nope')).toEqual({ found: false });
  });

  it('keeps the conversation up to and including the message it continues from', () => {
    expect(upTo(chain, 'a1')).toEqual([{ uuid: 'u1' }, { uuid: 'a1' }]);
    expect(upTo(chain, 'gone')).toEqual(chain);
  });
});
