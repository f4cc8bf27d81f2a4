// What the work cost: tokens and dollars of every stored session, by day, week, month, project, model or session,
// as bars and a table, exported as CSV or JSON. Dollars are Claude Code's own where it reported them; elsewhere an
// estimate from the dated price table kept with the pinned SDK, always marked "~" and dated.
import { useEffect, useState } from 'react';
import { toApiError } from '../../protocol/api';
import { USAGE_BY_VALUES, type UsageBy, type UsageResult } from '../../protocol/api.gen';
import { useStore } from '../../store/hooks';
import { Modal } from '../dialogs/Modal';
import { costText, sinceDay, tokensText, totalTokens, usageCsv } from './usageTable';

const BY_LABELS: Record<UsageBy, string> = { day: 'Day', week: 'Week', month: 'Month', project: 'Project', model: 'Model', session: 'Session' };
const RANGES: ReadonlyArray<readonly [number | undefined, string]> = [
  [7, 'Last 7 days'],
  [30, 'Last 30 days'],
  [90, 'Last 90 days'],
  [undefined, 'Everything'],
];

export function UsageDialog({ onClose }: { onClose: () => void }) {
  const store = useStore();
  const [by, setBy] = useState<UsageBy>('day');
  const [days, setDays] = useState<number | undefined>(30);
  const [report, setReport] = useState<UsageResult | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    setError(undefined);
    store.lookups.usageReport(by, sinceDay(days)).then(
      (r) => current && setReport(r),
      (err: unknown) => current && setError(toApiError(err).message),
    );
    return () => {
      current = false;
    };
  }, [store, by, days]);
  return (
    <Modal title="Usage" onClose={onClose}>
      <div className="usage-controls">
        <label>
          By{' '}
          <select value={by} onChange={(e) => setBy(e.target.value as UsageBy)} data-testid="usage-by">
            {USAGE_BY_VALUES.map((b) => (
              <option key={b} value={b}>
                {BY_LABELS[b]}
              </option>
            ))}
          </select>
        </label>
        <select value={days ?? ''} onChange={(e) => setDays(e.target.value === '' ? undefined : Number(e.target.value))} data-testid="usage-range">
          {RANGES.map(([d, label]) => (
            <option key={label} value={d ?? ''}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {error !== undefined && <p className="error">{error}</p>}
      {report === undefined && error === undefined && <p className="muted">Adding up the sessions…</p>}
      {report !== undefined && <UsageReport report={report} />}
    </Modal>
  );
}

function UsageReport({ report }: { report: UsageResult }) {
  if (report.rows.length === 0) return <p className="muted">No usage in this range.</p>;
  const most = Math.max(...report.rows.map(totalTokens), 1);
  return (
    <>
      <table className="usage-table" data-testid="usage-table">
        <thead>
          <tr>
            <th>{BY_LABELS[report.by]}</th>
            <th>Tokens</th>
            <th aria-label="share" />
            <th>Input</th>
            <th>Output</th>
            <th>Cache read</th>
            <th>Cache write</th>
            <th>Cost</th>
          </tr>
        </thead>
        <tbody>
          {report.rows.map((row) => (
            <tr key={row.key} data-testid="usage-row">
              <td className="usage-key" title={row.key}>
                {row.key}
              </td>
              <td>{tokensText(totalTokens(row))}</td>
              <td className="usage-bar-cell">
                <span className="usage-bar" style={{ width: `${(100 * totalTokens(row)) / most}%` }} />
              </td>
              <td>{tokensText(row.inputTokens)}</td>
              <td>{tokensText(row.outputTokens)}</td>
              <td>{tokensText(row.cacheReadTokens)}</td>
              <td>{tokensText(row.cacheWriteTokens)}</td>
              <td>{costText(row)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-testid="usage-total">
            <th>Total</th>
            <td>{tokensText(totalTokens(report.total))}</td>
            <td />
            <td>{tokensText(report.total.inputTokens)}</td>
            <td>{tokensText(report.total.outputTokens)}</td>
            <td>{tokensText(report.total.cacheReadTokens)}</td>
            <td>{tokensText(report.total.cacheWriteTokens)}</td>
            <td>{costText(report.total)}</td>
          </tr>
        </tfoot>
      </table>
      <p className="muted small">
        “~” marks an estimate from list prices of {report.pricesDate} (SDK {report.pricesSdk}); other dollars are what Claude Code reported.
      </p>
      <div className="usage-export">
        <button type="button" onClick={() => download('baton-usage.csv', 'text/csv', usageCsv(report))} data-testid="usage-csv">
          Export CSV
        </button>
        <button type="button" onClick={() => download('baton-usage.json', 'application/json', `${JSON.stringify(report, null, 2)}\n`)}>
          Export JSON
        </button>
      </div>
    </>
  );
}

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}
