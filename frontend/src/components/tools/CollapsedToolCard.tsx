// Tools that look things up (kinds read, search, fetch): one line, output on request. The line is the
// catalogue's `detail` (a path, a pattern, a URL, a query).
import type { ToolItem } from '../../store/types';
import { AnsiText } from './AnsiText';
import { StatusPill } from './ToolHeader';

export function CollapsedToolCard({ item }: { item: ToolItem }) {
  const text = item.status === 'failed' ? (item.error ?? '') : (item.output ?? '');
  const lines = text === '' ? 0 : text.split('\n').length;
  return (
    <details className="tool-card tool-lookup" data-testid="tool-card" data-tool={item.name}>
      <summary className="tool-header">
        <span className="tool-name">{item.name}</span>
        <span className="tool-detail">{item.detail ?? ''}</span>
        <span className="spacer" />
        {lines > 0 && <span className="muted small">{lines} lines</span>}
        <StatusPill item={item} />
      </summary>
      {text !== '' && (
        <pre className={`tool-output${item.status === 'failed' ? ' failed' : ''}`}>
          <AnsiText text={text} />
        </pre>
      )}
    </details>
  );
}
