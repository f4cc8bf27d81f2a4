// A Bash call sent to the background shows the live end of its output (task.output) under "running in background",
// colours drawn as the console draws any output; the tail stays after the task ends (issue 28, item 9).
import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConversationContext } from '../src/components/conversation/actions';
import { Row } from '../src/components/conversation/Row';
import type { ConsoleEvent } from '../src/protocol/events';
import { StoreProvider } from '../src/store/hooks';
import { ConsoleStore } from '../src/store/store';
import { FakeTransport, settle } from './fakeTransport';
import { lasting, RECORDED_SESSION, recordedEvents, upTo, liveSession } from './fixtures';

const S = RECORDED_SESSION;
const TOOL = 'toolu_fake_45';

async function cardWith(extra: (seq: number) => ConsoleEvent[], until: (e: ConsoleEvent) => boolean): Promise<HTMLElement> {
  const events = upTo(recordedEvents(), until);
  const transport = new FakeTransport();
  transport.snapshot = {
    ...transport.snapshot,
    sessions: [liveSession(lasting(events))],
  };
  const store = new ConsoleStore(transport, { schedule: (flush) => flush(), isForeground: () => true });
  store.start();
  await act(async () => {
    transport.setConnection('open');
    await settle();
  });
  store.select(S);
  // Ephemeral: delivered live, never in a snapshot.
  await act(async () => {
    transport.push(...extra(events.length + 1));
    await settle();
  });
  const item = [...(store.getState().sessions[S]?.transcript.items.values() ?? [])].find((i) => i.type === 'tool' && i.toolUseId === TOOL);
  render(
    <StoreProvider store={store}>
      <ConversationContext.Provider value={{ sessionId: S, editable: true, rewind: () => undefined, fork: () => undefined }}>
        <Row itemKey={item?.key ?? ''} />
      </ConversationContext.Provider>
    </StoreProvider>,
  );
  return screen.getByTestId('tool-card');
}

const output = (seq: number, tail: string): ConsoleEvent =>
  ({
    kind: 'task.output',
    session: S,
    turn: 't11',
    time: '2026-01-01T00:00:00.170Z',
    ephemeral: true,
    seq,
    taskId: 'b9gjxde7y',
    toolUseId: TOOL,
    tail,
  }) as ConsoleEvent;

describe('a background Bash card', () => {
  it('shows its output tail, coloured, under "running in background"', async () => {
    const card = await cardWith(
      (seq) => [output(seq, 'step 1\n\u001b[32mstep 2 ok\u001b[0m\n')],
      (e) => e.kind === 'tool.completed' && e.toolUseId === TOOL,
    );
    expect(within(card).getByTestId('background-running').textContent).toBe('running in background');
    const tail = within(card).getByTestId('background-tail');
    expect(tail.textContent).toContain('step 1');
    expect(tail.textContent).toContain('step 2 ok');
    expect(tail.textContent).not.toContain('\u001b');
    expect(within(tail).getByText('step 2 ok').closest('span')?.getAttribute('style') ?? '').not.toBe('');
  });

  it('shows no tail before any output came', async () => {
    const card = await cardWith(
      () => [],
      (e) => e.kind === 'tool.completed' && e.toolUseId === TOOL,
    );
    expect(within(card).queryByTestId('background-tail')).toBeNull();
  });
});
