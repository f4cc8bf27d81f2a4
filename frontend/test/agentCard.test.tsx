// A subagent's work shows nested in its Agent card. The card gets its row renderer from the Row around it
// (NestedRowsContext) rather than importing Row, which imports the cards: this checks the nested rows still render
// that way. The Row is rendered on its own (no virtualized list around it, whose opening remounts rows on timers).
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ConversationContext } from '../src/components/conversation/actions';
import { Row } from '../src/components/conversation/Row';
import { StoreProvider } from '../src/store/hooks';
import { ConsoleStore } from '../src/store/store';
import { FakeTransport, settle } from './fakeTransport';
import { lasting, RECORDED_SESSION, recordedWithUnknown, liveSession } from './fixtures';

const S = RECORDED_SESSION;

describe('the Agent card', () => {
  it('shows what the subagent did, its own tool calls nested inside it', async () => {
    const transport = new FakeTransport();
    transport.snapshot = {
      ...transport.snapshot,
      sessions: [liveSession(lasting(recordedWithUnknown()))],
    };
    const store = new ConsoleStore(transport, { schedule: () => undefined, isForeground: () => true });
    store.start();
    await act(async () => {
      transport.setConnection('open');
      await settle();
    });
    const items = [...(store.getState().sessions[S]?.transcript.items.values() ?? [])];
    const agent = items.find((item) => item.type === 'tool' && item.name === 'Agent');
    expect(agent).toBeDefined();
    render(
      <StoreProvider store={store}>
        <ConversationContext.Provider value={{ sessionId: S, editable: true, rewind: () => undefined, fork: () => undefined }}>
          <Row itemKey={agent?.key ?? ''} />
        </ConversationContext.Provider>
      </StoreProvider>,
    );
    const card = screen.getByTestId('tool-card');
    expect(card.dataset['tool']).toBe('Agent');
    // The recorded run is over, so the card starts closed; opened, it shows the subagent's three rows, its Bash
    // call among them, each a Row of its own.
    expect(card.querySelector('.nested')).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: 'Show what it did (3)' }));
    const nested = card.querySelector('.nested') as HTMLElement;
    expect(nested).not.toBeNull();
    expect(
      within(nested)
        .getAllByTestId('tool-card')
        .map((c) => c.dataset['tool']),
    ).toEqual(['Bash']);
    expect(nested.querySelectorAll(':scope > .row')).toHaveLength(3);
  });
});
