// The sidebar's filter searches the sessions' content too: a word only a reply held lists its session with the
// match marked, and a click opens it.
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { settle } from './fakeTransport';
import { renderConsole } from './render';

const S = '5b0c6f0e-2d7a-4c8e-9f1a-3b2c4d5e6f75';

describe('content search in the sidebar', () => {
  it('finds a word a reply held, marks it and opens the session', async () => {
    const { transport, store } = await renderConsole((t) => {
      t.on('listSessions', () => ({
        sessions: [{ session: S, title: 'Plan the trip', cwd: '/w/trip', lastModified: Date.now(), live: false, pinned: false, archived: false }],
      }));
      t.on('searchSessions', ({ query }) => ({
        indexing: false,
        hits:
          query === 'banker'
            ? [
                {
                  session: S,
                  title: 'Plan the trip',
                  cwd: '/w/trip',
                  position: 3,
                  time: '2026-12-01T10:00:00Z',
                  role: 'assistant',
                  snippet: 'ask the banker first',
                  marks: [{ start: 8, end: 14 }],
                },
              ]
            : [],
      }));
      t.on('history', () => ({ events: [], total: 0, start: 0 }));
    });
    await userEvent.type(screen.getByLabelText('Filter sessions'), 'banker');
    await act(() => settle());
    expect(screen.getByText('No session matches.')).toBeTruthy(); // no title says it
    const hit = screen.getByTestId('content-hit');
    expect(within(hit).getByText('banker').tagName).toBe('MARK');
    expect(screen.getByTestId('content-hit-snippet').textContent).toBe('ask the banker first');
    expect(transport.calls.filter((c) => c.method === 'searchSessions').at(-1)?.params).toEqual({ query: 'banker' });
    await userEvent.click(hit);
    await act(() => settle());
    expect(store.getState().selected).toBe(S);
  });

  it('keeps the hits of the range chosen', async () => {
    const { transport } = await renderConsole((t) => {
      t.on('listSessions', () => ({ sessions: [] }));
      t.on('searchSessions', () => ({ indexing: false, hits: [] }));
    });
    await userEvent.type(screen.getByLabelText('Filter sessions'), 'banker');
    await act(() => settle());
    await userEvent.selectOptions(screen.getByTestId('content-range'), 'Last 7 days');
    await act(() => settle());
    const since = transport.calls.filter((c) => c.method === 'searchSessions').at(-1)?.params as { since?: string };
    const sevenDays = new Date();
    sevenDays.setHours(0, 0, 0, 0);
    sevenDays.setDate(sevenDays.getDate() - 6);
    expect(since).toEqual({ query: 'banker', since: sevenDays.toISOString() });
    expect(screen.getByText('No message holds that.')).toBeTruthy();
  });
});
