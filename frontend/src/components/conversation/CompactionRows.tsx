// A compaction: the "Conversation compacted" divider (what is above it is what the summary replaced), and the
// summary Claude Code wrote, collapsed under it (read on request; it is Claude Code's, not the person's).
import { memo, useState } from 'react';
import type { CompactedItem, SummaryItem } from '../../store/types';
import { Markdown } from './Markdown';

export function compactedText(item: CompactedItem): string {
  const how = item.trigger === 'auto' ? 'automatically' : 'on request';
  // The count is shown in the reader's locale (15,210 / 15.210 / 15 210).
  return item.preTokens > 0 ? `Conversation compacted ${how} (${item.preTokens.toLocaleString()} tokens before)` : `Conversation compacted ${how}`;
}

export const CompactedRow = memo(function CompactedRow({ item }: { item: CompactedItem }) {
  const text = compactedText(item);
  return (
    <div className="row row-divider" role="separator" aria-label={text} data-testid="compacted">
      <span className="divider-text">{text}</span>
    </div>
  );
});

export const SummaryRow = memo(function SummaryRow({ item }: { item: SummaryItem }) {
  // Long summaries are rendered only once opened.
  const [open, setOpen] = useState(false);
  return (
    <details className="row row-notice row-summary" data-testid="compact-summary" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Summary of the earlier conversation</summary>
      {open && (
        <div className="summary-text">
          <Markdown text={item.text} />
        </div>
      )}
    </details>
  );
});
