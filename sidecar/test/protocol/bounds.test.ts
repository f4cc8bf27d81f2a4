// Outgoing lines stay under the host's 8 MiB bound.
import { describe, expect, it } from 'vitest';
import { byteLength, fitEvent, fitTail, MAX_EVENT_BYTES } from '../../src/protocol/bounds.js';
import { type Event, eventSchema } from '../../src/protocol/events.js';

const base = { session: '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b', turn: 't1', time: '2026-01-01T00:00:00.000Z' };
const big = 'x'.repeat(9 * 1024 * 1024);

describe('fitEvent', () => {
  it('leaves ordinary events alone', () => {
    const event: Event = { ...base, kind: 'tool.completed', toolUseId: 'toolu_1', name: 'Read', output: 'short' };
    expect(fitEvent(event)).toBe(event);
  });

  it('shrinks a huge tool result: structured and fileBefore go, the output is cut and marked', () => {
    const event: Event = {
      ...base,
      kind: 'tool.completed',
      toolUseId: 'toolu_1',
      name: 'Edit',
      output: big,
      structured: { content: big },
      fileBefore: { path: '/p/a', text: big },
    };
    const fitted = fitEvent(event);
    expect(byteLength(fitted)).toBeLessThan(MAX_EVENT_BYTES);
    expect(eventSchema.safeParse(fitted).success).toBe(true);
    expect(fitted).not.toHaveProperty('structured');
    expect(fitted).not.toHaveProperty('fileBefore');
    expect(fitted.kind === 'tool.completed' && fitted.output).toMatch(/truncated by the sidecar/);
  });

  it('shrinks huge raw unknown messages and huge text', () => {
    const unknown = fitEvent({ ...base, kind: 'unknown', raw: { blob: big } });
    expect(unknown).toMatchObject({ raw: { truncated: true } });
    const text = fitEvent({ ...base, kind: 'message.completed', role: 'assistant', text: big });
    expect(byteLength(text)).toBeLessThan(MAX_EVENT_BYTES);
  });
});

describe('fitTail', () => {
  it('keeps the newest events that fit', () => {
    const events: Event[] = Array.from({ length: 10 }, (_, i) => ({ ...base, kind: 'message.completed', role: 'user', text: `${i}`.padEnd(1000, '.') }));
    const { events: kept, dropped } = fitTail(events, 5 * 1200);
    expect(dropped).toBeGreaterThan(0);
    expect(kept).toEqual(events.slice(dropped));
    expect(fitTail(events).dropped).toBe(0);
  });
});
