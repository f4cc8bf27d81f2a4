// The usage view's figures as text: token counts, dollars (an estimate marked "~"), and the CSV export.
import type { UsageResult, UsageRow } from '../../protocol/api.gen';

export function totalTokens(row: UsageRow): number {
  return row.inputTokens + row.outputTokens + row.cacheReadTokens + row.cacheWriteTokens;
}

/** What a row cost (costUsd already holds the estimate for what Claude Code did not report), "~" when any of it is
 * estimated. */
export function costText(row: UsageRow): string {
  const dollars = row.costUsd;
  const text = `$${dollars.toFixed(dollars >= 100 ? 0 : 2)}`;
  return row.estimatedUsd > 0 ? `~${text}` : text;
}

export function tokensText(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(0)} k`;
  return String(n);
}

const CSV_COLUMNS = ['key', 'inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'costUsd', 'estimatedUsd'] as const;

/** The rows as CSV (a header line, then one line a group; keys quoted, as project paths may hold commas). */
export function usageCsv(report: UsageResult): string {
  const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of report.rows) lines.push(CSV_COLUMNS.map((c) => (c === 'key' ? quote(row.key) : String(row[c]))).join(','));
  return `${lines.join('\n')}\n`;
}

/** The start of the first of the last `days` days (local midnight) as the host takes it, RFC 3339; undefined: all. */
export function sinceDay(days: number | undefined, now: Date = new Date()): string | undefined {
  if (days === undefined) return undefined;
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1)).toISOString();
}
