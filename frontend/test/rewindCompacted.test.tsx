// A prompt from before a /compact can be rewound to like any other (issue 28, item 11): Claude Code cannot resume
// there, so the host copies the conversation up to it into a new session (sidecar/test/e2e/rewindCompact.test.ts,
// e2e/background.e2e.test.mjs); the console offers Rewind on every prompt.
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConversationContext } from '../src/components/conversation/actions';
import { Row } from '../src/components/conversation/Row';
import type { ConsoleEvent } from '../src/protocol/events';
import { StoreProvider } from '../src/store/hooks';
import { ConsoleStore } from '../src/store/store';
import { FakeTransport, settle } from './fakeTransport';
import { lasting, RECORDED_SESSION, recordedEvents, upTo, liveSession } from './fixtures';

const S = RECORDED_SESSION;

async function rewindButtons(compacted: boolean): Promise<Map<string, HTMLButtonElement>> {
  const recorded = upTo(recordedEvents(), (e) => e.kind === 'turn.completed' && e.turn === 't3');
  const at = recorded.findIndex((e) => e.kind === 'turn.started' && e.turn === 't3');
  const compaction = {
    kind: 'session.compacted',
    session: S,
    turn: 't2',
    time: '2026-01-01T00:00:00.020Z',
    trigger: 'manual',
    preTokens: 9000,
  } as ConsoleEvent;
  const events = compacted ? [...recorded.slice(0, at), compaction, ...recorded.slice(at)] : recorded;
  const transport = new FakeTransport();
  transport.snapshot = {
    ...transport.snapshot,
    sessions: [liveSession(lasting(events.map((e, i) => ({ ...e, seq: i + 1 }) as ConsoleEvent)))],
  };
  const store = new ConsoleStore(transport, { schedule: (flush) => flush(), isForeground: () => true });
  store.start();
  await act(async () => {
    transport.setConnection('open');
    await settle();
  });
  store.select(S);
  const users = [...(store.getState().sessions[S]?.transcript.items.values() ?? [])].filter((i) => i.type === 'user');
  const buttons = new Map<string, HTMLButtonElement>();
  for (const user of users) {
    const { unmount } = render(
      <StoreProvider store={store}>
        <ConversationContext.Provider value={{ sessionId: S, editable: true, rewind: () => undefined, fork: () => undefined }}>
          <Row itemKey={user.key} />
        </ConversationContext.Provider>
      </StoreProvider>,
    );
    const button = screen.queryByTestId('rewind-prompt') as HTMLButtonElement | null;
    if (button !== null && user.type === 'user') buttons.set(user.text.slice(0, 12), button.cloneNode(true) as HTMLButtonElement);
    unmount();
  }
  return buttons;
}

describe('rewind and /compact', () => {
  it('keeps Rewind on prompts above a compaction and after it', async () => {
    const buttons = await rewindButtons(true);
    const before = [...buttons.entries()].filter(([text]) => !text.startsWith('[write notes'));
    expect(before.length).toBeGreaterThan(0);
    expect(buttons.get('[write notes')?.disabled).toBe(false);
    for (const [, b] of before) {
      expect(b.disabled).toBe(false);
      expect(b.title).toMatch(/^Rewind the conversation/);
    }
  });

  it('keeps Rewind on every prompt of a conversation never compacted', async () => {
    const buttons = await rewindButtons(false);
    expect(buttons.size).toBeGreaterThan(1);
    for (const [, b] of buttons) expect(b.disabled).toBe(false);
  });
});
