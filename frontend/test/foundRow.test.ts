// Which row shows a history position (a search hit's), and paging history back to it before asking the
// transcript to show it.
import { describe, expect, it } from 'vitest';
import { rowAtPosition } from '../src/components/conversation/foundRow';
import type { SessionEvent } from '../src/protocol/events';
import { newSession } from '../src/store/fold';
import { applyHistoryPage } from '../src/store/history';
import type { HistoryPage } from '../src/protocol/api';
import { revealPosition } from '../src/store/reveal';
import { ConsoleStore } from '../src/store/store';
import type { SessionState } from '../src/store/types';
import { FakeTransport, settle } from './fakeTransport';
import { PAST, PAST_EVENTS } from './pastSession';

function loaded(events: SessionEvent[], start = 0): SessionState {
  return applyHistoryPage(newSession({ id: PAST, cwd: '/w' }), { events, total: start + events.length, start }, true);
}

const itemOf = (s: SessionState, key: string | undefined) => (key === undefined ? undefined : s.history.transcript.items.get(key));

describe('rowAtPosition', () => {
  it('names the prompt, reply or tool row an event made, and a subagent’s work by its Agent row', () => {
    const s = loaded(PAST_EVENTS);
    for (const [i, ev] of PAST_EVENTS.entries()) {
      const item = itemOf(s, rowAtPosition(s, i));
      expect(item, `position ${i} (${ev.kind})`).toBeDefined();
      if (ev.kind === 'turn.started' && ev.origin === undefined && !ev.prompt.startsWith('<')) expect(item?.type).toBe('user');
      if (ev.kind === 'tool.started' && ev.parentToolUseId === undefined) expect(item).toMatchObject({ type: 'tool', toolUseId: ev.toolUseId });
      if (ev.kind === 'tool.started' && ev.parentToolUseId !== undefined) expect(item).toMatchObject({ type: 'tool', toolUseId: ev.parentToolUseId });
    }
  });

  it('counts positions from the loaded page’s start, and has none above it', () => {
    const s = loaded(PAST_EVENTS.slice(5), 5);
    const first = PAST_EVENTS.findIndex((ev, i) => i >= 5 && ev.kind === 'tool.started' && ev.parentToolUseId === undefined);
    const ev = PAST_EVENTS[first];
    expect(itemOf(s, rowAtPosition(s, first))).toMatchObject({ toolUseId: ev?.kind === 'tool.started' ? ev.toolUseId : '' });
    expect(rowAtPosition(s, 4)).toBeUndefined();
  });
});

describe('revealPosition', () => {
  const T = '2026-01-01T00:00:00Z';
  const S = 'long';
  const prompt = (n: number): SessionEvent => ({ kind: 'turn.started', session: S, turn: `u${n}`, time: T, prompt: `prompt ${n}`, uuid: `u${n}` });
  const all: SessionEvent[] = Array.from({ length: 5000 }, (_, i) => prompt(i));

  function setup() {
    const transport = new FakeTransport();
    const store = new ConsoleStore(transport, { schedule: () => undefined, isForeground: () => true });
    store.start();
    transport.on('history', (p: { before?: number; limit?: number }): HistoryPage => {
      const end = p.before ?? all.length;
      const start = Math.max(0, end - (p.limit ?? 500));
      return { events: all.slice(start, end), total: all.length, start };
    });
    return { transport, store };
  }

  it('pages a just-opened session back to a far position, at most 2000 a page, then asks its transcript for it', async () => {
    const { transport, store } = setup();
    transport.setConnection('open');
    await settle();
    // As a content hit does: the session is selected (its first page on its way), then revealed.
    store.select(S, { session: S, title: 'Long', cwd: '/w', lastModified: 1, live: false, pinned: false, archived: false });
    await revealPosition(store, { session: S, position: 10, words: ['prompt'] });
    expect(transport.callsOf('history').map((p) => (p as { before?: number }).before)).toEqual([undefined, 4800, 2800, 800]);
    expect(transport.callsOf('history').map((p) => (p as { limit: number }).limit)).toEqual([200, 2000, 2000, 890]);
    const s = store.getState().sessions[S] as SessionState;
    expect(s.history.start).toBeLessThanOrEqual(10);
    expect(store.reveal.current()).toMatchObject({ session: S, position: 10, words: ['prompt'] });
    const row = s.history.transcript.items.get(rowAtPosition(s, 10) ?? '');
    expect(row?.type === 'user' ? row.text : '').toBe('prompt 10');
  });

  it('asks for a position the newest page holds without loading more', async () => {
    const { transport, store } = setup();
    transport.setConnection('open');
    await settle();
    store.select(S, { session: S, title: 'Long', cwd: '/w', lastModified: 1, live: false, pinned: false, archived: false });
    await revealPosition(store, { session: S, position: 4900, words: [] });
    expect(transport.callsOf('history')).toHaveLength(1);
    expect(store.reveal.current()?.position).toBe(4900);
  });
});
