// The usage view: the host's totals by group as bars and a table, estimates marked and dated, CSV export, and a
// change of grouping or range asks the host again.
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { UsageResult } from '../src/protocol/api.gen';
import { sinceDay, usageCsv } from '../src/components/usage/usageTable';
import { settle } from './fakeTransport';
import { renderConsole } from './render';

const row = (key: string, input: number, costUsd: number, estimatedUsd: number) => ({
  key,
  inputTokens: input,
  outputTokens: 100,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd,
  estimatedUsd,
  unpricedTokens: 0,
});

const report = (by: UsageResult['by']): UsageResult => ({
  by,
  rows: [row('2026-12-01', 20_000, 0.5, 0), row('2026-12-02', 900, 0.25, 0.25)],
  total: row('', 20_900, 0.75, 0.25),
  pricesDate: '2026-12-02',
  pricesSdk: '0.3.332',
});

describe('the usage view', () => {
  it('shows each group with its tokens and cost, marks estimates and asks again on a new grouping', async () => {
    const { transport } = await renderConsole((t) => {
      t.on('usageReport', ({ by }) => report(by));
    });
    await userEvent.click(screen.getByTestId('open-usage'));
    await act(() => settle());
    const rows = screen.getAllByTestId('usage-row');
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual(['2026-12-01', '2026-12-02']);
    expect(within(rows[0]!).getByText('$0.50')).toBeTruthy();
    expect(within(rows[1]!).getByText('~$0.25')).toBeTruthy();
    expect(within(screen.getByTestId('usage-total')).getByText('~$0.75')).toBeTruthy();
    expect(screen.getByText(/list prices of 2026-12-02/)).toBeTruthy();
    expect(transport.calls.filter((c) => c.method === 'usageReport').at(-1)?.params).toEqual({ by: 'day', since: sinceDay(30) });

    await userEvent.selectOptions(screen.getByTestId('usage-by'), 'model');
    await userEvent.selectOptions(screen.getByTestId('usage-range'), 'Everything');
    await act(() => settle());
    expect(transport.calls.filter((c) => c.method === 'usageReport').at(-1)?.params).toEqual({ by: 'model' });
  });

  it('exports CSV with a header and a quoted key per group', () => {
    const r = report('project');
    r.rows[0]!.key = '/w/a, "b"';
    expect(usageCsv(r).split('\n').slice(0, 2)).toEqual([
      'key,inputTokens,outputTokens,cacheReadTokens,cacheWriteTokens,costUsd,estimatedUsd',
      '"/w/a, ""b""",20000,100,0,0,0.5,0',
    ]);
  });

  it('counts the range in local days, today included, from local midnight', () => {
    expect(sinceDay(7, new Date(2026, 11, 2, 15))).toBe(new Date(2026, 10, 26).toISOString());
    expect(sinceDay(undefined)).toBeUndefined();
  });
});
