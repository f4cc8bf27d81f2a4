import { describe, expect, it } from 'vitest';
import { pageOf } from '../../src/history/history.js';
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

  it('gives everything without a limit, and nothing before position 0', () => {
    expect(pageOf(events, {})).toMatchObject({ total: 10, start: 0 });
    expect(pageOf(events, {}).events).toHaveLength(10);
    expect(pageOf(events, { before: 0, limit: 5 }).events).toHaveLength(0);
    expect(pageOf(events, { before: 99, limit: 3 })).toMatchObject({ start: 7 });
  });
});
