// The session's total tokens and cost in its header, from the index (refreshed when a turn ends); a dollar figure
// estimated from list prices is marked "~" and says so on hover.
import { useEffect, useState } from 'react';
import type { UsageResult } from '../../protocol/api.gen';
import { useStore } from '../../store/hooks';
import { costText, tokensText, totalTokens } from '../usage/usageTable';

export function SessionCost({ session, runningTurn }: { session: string; runningTurn?: string | undefined }) {
  const store = useStore();
  const [report, setReport] = useState<UsageResult | undefined>();
  useEffect(() => {
    if (runningTurn !== undefined) return; // counted again once the turn has ended
    let live = true;
    store.lookups.sessionUsage(session).then(
      (r) => {
        if (live) setReport(r);
      },
      () => {
        if (live) setReport(undefined); // no index (or not yet): no figure rather than a wrong one
      },
    );
    return () => {
      live = false;
    };
  }, [store, session, runningTurn]);
  const total = report?.total;
  if (report === undefined || total === undefined || totalTokens(total) === 0) return null;
  const estimated = total.estimatedUsd > 0;
  const hint = `${tokensText(total.inputTokens)} in · ${tokensText(total.outputTokens)} out · ${tokensText(total.cacheReadTokens)} cache read · ${tokensText(total.cacheWriteTokens)} cache written${
    estimated ? ` · “~” is an estimate from list prices of ${report.pricesDate}` : ''
  }`;
  return (
    <span className="badge session-cost" title={hint} data-testid="session-cost">
      {tokensText(totalTokens(total))} tokens · {costText(total)}
      {estimated && <span className="muted"> (estimate)</span>}
    </span>
  );
}
