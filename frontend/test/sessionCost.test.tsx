// The session header shows that session's total tokens and cost, asked of the index for that session alone, an
// estimate marked as such.
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { settle } from './fakeTransport';
import { renderConsole } from './render';

const S = '5b0c6f0e-2d7a-4c8e-9f1a-3b2c4d5e6f76';

describe('the session header', () => {
  it("shows the session's tokens and its estimated cost", async () => {
    const { transport } = await renderConsole((t) => {
      t.on('listSessions', () => ({
        sessions: [{ session: S, title: 'Plan the trip', cwd: '/w/trip', lastModified: Date.now(), live: false, pinned: false, archived: false }],
      }));
      t.on('history', () => ({ events: [], total: 0, start: 0 }));
      t.on('usageReport', () => {
        const total = {
          key: S,
          inputTokens: 40_000,
          outputTokens: 2_000,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0.15,
          estimatedUsd: 0.15,
          unpricedTokens: 0,
        };
        return { by: 'session', rows: [total], total: { ...total, key: '' }, pricesDate: '2026-12-02', pricesSdk: '0.3.332' };
      });
    });
    await userEvent.click(await screen.findByText('Plan the trip'));
    await act(() => settle());
    const cost = await screen.findByTestId('session-cost');
    expect(cost.textContent).toBe('42 k tokens · ~$0.15 (estimate)');
    expect(cost.title).toContain('list prices of 2026-12-02');
    expect(transport.calls.filter((c) => c.method === 'usageReport').at(-1)?.params).toEqual({ by: 'session', session: S });
  });
});
