// A command hook from the settings ran: one collapsed line (its event, name and outcome), the output inside.
import { memo } from 'react';
import type { HookItem } from '../../store/types';
import { AnsiText } from '../tools/AnsiText';

export const HookRow = memo(function HookRow({ item }: { item: HookItem }) {
  const failed = item.outcome !== 'success';
  const label = `Hook ${item.name}${item.name === item.hookEvent ? '' : ` (${item.hookEvent})`} ${failed ? item.outcome : 'ran'}`;
  if (item.output === undefined) {
    return (
      <div className={`row row-notice row-hook${failed ? ' bad' : ''}`} data-testid="hook-row">
        {label}
      </div>
    );
  }
  return (
    <details className={`row row-notice row-hook${failed ? ' bad' : ''}`} data-testid="hook-row">
      <summary>{label}</summary>
      <pre className="hook-output">
        <AnsiText text={item.output} />
      </pre>
    </details>
  );
});
