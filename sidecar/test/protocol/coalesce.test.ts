import { describe, expect, it } from 'vitest';
import { coalesce, MAX_COALESCED_TEXT } from '../../src/protocol/coalesce.js';
import { eventLine, okLine, type WireLine } from '../../src/protocol/codec.js';
import type { Event } from '../../src/protocol/events.js';

type Delta = Extract<Event, { kind: 'message.delta' }>;

const piece = (over: Partial<Delta> = {}): Delta => ({
  kind: 'message.delta',
  session: 's',
  turn: 't',
  time: '2026-01-01T00:00:00.000Z',
  ephemeral: true,
  messageId: 'm',
  index: 0,
  block: 'text',
  text: 'a',
  ...over,
});

const textOf = (line: WireLine | undefined): string | undefined =>
  line?.type === 'event' && line.event.kind === 'message.delta' ? line.event.text : undefined;

describe('coalesce', () => {
  it('joins two pieces of one block, keeping the first one’s time', () => {
    const merged = coalesce(eventLine(piece({ text: 'Hel' })), eventLine(piece({ text: 'lo', time: '2026-01-01T00:00:01.000Z' })));
    expect(textOf(merged)).toBe('Hello');
    expect(merged?.type === 'event' && merged.event.time).toBe('2026-01-01T00:00:00.000Z');
  });

  it.each<[string, Partial<Delta>]>([
    ['another session', { session: 'other' }],
    ['another turn', { turn: 'other' }],
    ['no turn', { turn: undefined }],
    ['another message', { messageId: 'other' }],
    ['another block index', { index: 1 }],
    ['thinking after text', { block: 'thinking' }],
  ])('keeps pieces apart across %s', (_name, over) => {
    expect(coalesce(eventLine(piece()), eventLine(piece(over)))).toBeUndefined();
  });

  it('keeps apart what is not a text piece, and stops before a piece grows past MAX_COALESCED_TEXT', () => {
    const completed: Event = { kind: 'message.completed', session: 's', turn: 't', time: '2026-01-01T00:00:00.000Z', role: 'assistant', text: 'a' };
    expect(coalesce(eventLine(piece()), eventLine(completed))).toBeUndefined();
    expect(coalesce(okLine('1', {}), eventLine(piece()))).toBeUndefined();
    const big = piece({ text: 'x'.repeat(MAX_COALESCED_TEXT) });
    expect(coalesce(eventLine(big), eventLine(piece()))).toBeUndefined();
    expect(textOf(coalesce(eventLine(piece({ text: 'x'.repeat(MAX_COALESCED_TEXT - 1) })), eventLine(piece())))).toHaveLength(MAX_COALESCED_TEXT);
  });

  it('copies the pieces it first merges and appends later ones in place, never changing a piece the session saw', () => {
    const first = piece({ text: 'a' });
    const second = piece({ text: 'b' });
    const pieces = [first, second, piece({ text: 'c' }), piece({ text: 'd' })];
    let line: WireLine | undefined = eventLine(first);
    const lines: WireLine[] = [];
    for (const next of pieces.slice(1)) {
      line = coalesce(line as WireLine, eventLine(next));
      lines.push(line as WireLine);
    }
    expect(textOf(line)).toBe('abcd');
    expect(lines[1]).toBe(lines[0]); // the merged line grows in place
    expect(lines[2]).toBe(lines[0]);
    expect(pieces.map((p) => p.text)).toEqual(['a', 'b', 'c', 'd']);
    // A fresh line (the writer wrote the last one) is copied again, not appended to.
    const again = coalesce(eventLine(first), eventLine(second));
    expect(again).not.toBe(lines[0]);
    expect(textOf(again)).toBe('ab');
    expect(textOf(lines[0])).toBe('abcd');
  });
});
