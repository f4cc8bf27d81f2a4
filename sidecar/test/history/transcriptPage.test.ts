// A transcript page written from its items' JSON: the reply line must be the very bytes JSON.stringify writes
// for the page object (the host stores what it reads), whatever the text holds, and an item alone over the line
// bound is still cut down before it is measured.
import { describe, expect, it } from 'vitest';
import { sizedItem, transcriptPage } from '../../src/history/transcriptPage.js';
import type { Item } from '../../src/history/settleStream.js';
import { fitEvent, MAX_EVENT_BYTES } from '../../src/protocol/bounds.js';
import { okLine, okReply, SerialisedLine } from '../../src/protocol/codec.js';
import type { Event } from '../../src/protocol/events.js';

const base = { session: '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b', turn: 't1', time: '2026-01-01T00:00:00.000Z' };
const said = (text: string): Event => ({ ...base, kind: 'message.completed', role: 'assistant', text });

/** Text that makes JSON.stringify escape, widen to UTF-16, or write four-byte and lone-surrogate sequences. */
const awkward = ['plain', 'é ü ñ ÿ', '日本語 ✓ …', 'emoji 😀🎉', 'lone \ud800 and \udfff', 'quote " back \\ tab \t nul \u0000 del \u007f', '\u2028\u2029'];

const items: Item[] = awkward.map((text, i) => (i % 3 === 2 ? { event: said(text) } : { uuid: `u${i}-${text.slice(0, 2)}`, event: said(text) }));

const objectPage = (page: readonly Item[], done: boolean, bytesRead: number, resume?: object) => ({
  items: page.map((item) => (item.uuid === undefined ? { event: fitEvent(item.event) } : { uuid: item.uuid, event: fitEvent(item.event) })),
  done,
  bytesRead,
  ...(resume !== undefined ? { resume } : {}),
});

const lineText = (line: SerialisedLine | ReturnType<typeof okLine>): string => {
  if (!(line instanceof SerialisedLine)) throw new Error('expected a serialised line');
  return line.parts.map((p) => (typeof p === 'string' ? p : Buffer.from(p).toString('utf8'))).join('');
};

describe('transcriptPage', () => {
  it('writes the bytes JSON.stringify writes for the page object, with and without a resume point', () => {
    const resume = { offset: 123, state: { leaf: 'é✓😀', n: [1, 2.5, -0] }, items: 4 };
    for (const [page, done, bytesRead, at] of [
      [items, false, 4096, undefined],
      [items.slice(2, 5), true, 1e15 + 7, resume],
      [[], true, 0, resume],
    ] as const) {
      const written = transcriptPage(page.map(sizedItem), done, bytesRead, at);
      const expected = JSON.stringify(objectPage(page, done, bytesRead, at));
      expect(Buffer.from(written.bytes).equals(Buffer.from(expected, 'utf8'))).toBe(true);
      expect(written.text()).toBe(expected);
      expect([written.done, written.bytesRead]).toEqual([done, bytesRead]);
    }
  });

  it('measures each item as the bytes it adds to the page, its comma included', () => {
    const sized = items.map(sizedItem);
    const written = transcriptPage(sized, false, 1, undefined);
    const empty = transcriptPage([], false, 1, undefined);
    expect(written.bytes.length - empty.bytes.length).toBe(sized.reduce((sum, item) => sum + item.size, 0) - 1);
  });

  it('fits an item alone over the line bound before measuring it', () => {
    const huge = said('x'.repeat(MAX_EVENT_BYTES + 1024));
    const sized = sizedItem({ uuid: 'u1', event: huge });
    expect(sized.event).toBe(JSON.stringify(fitEvent(huge)));
    expect(sized.event).toMatch(/truncated by the sidecar/);
    expect(sized.size).toBeLessThan(MAX_EVENT_BYTES);
  });

  it('makes the reply line okLine would make for the page, byte for byte', () => {
    const page = transcriptPage(items.map(sizedItem), true, 99, undefined);
    const line = okReply('r7', page);
    expect(lineText(line)).toBe(`${JSON.stringify(okLine('r7', objectPage(items, true, 99)))}\n`);
    expect(okReply('r8', { job: 'tj1' })).toEqual(okLine('r8', { job: 'tj1' }));
  });
});
