// Tools that look things up (Read, Glob, Grep, LS, WebFetch, WebSearch): one line, output on request.
import type { Json } from '../../protocol/events';
import { stringField } from '../../store/files';
import type { ToolItem } from '../../store/types';
import { StatusPill } from './ToolHeader';

export const LOOKUP_TOOLS = ['Read', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'NotebookRead', 'ToolSearch'];

export function lookupSummary(name: string, input: Json): string {
  const path = stringField(input, 'file_path') ?? stringField(input, 'path');
  switch (name) {
    case 'Read':
      return path ?? '';
    case 'Glob':
    case 'Grep': {
      const pattern = stringField(input, 'pattern') ?? '';
      return path !== undefined ? `${pattern} in ${path}` : pattern;
    }
    case 'WebFetch':
      return stringField(input, 'url') ?? '';
    case 'WebSearch':
      return `“${stringField(input, 'query') ?? ''}”`;
    default:
      return path ?? stringField(input, 'query') ?? '';
  }
}

export function CollapsedToolCard({ item }: { item: ToolItem }) {
  const text = item.status === 'failed' ? (item.error ?? '') : (item.output ?? '');
  const lines = text === '' ? 0 : text.split('\n').length;
  return (
    <details className="tool-card tool-lookup" data-testid="tool-card" data-tool={item.name}>
      <summary className="tool-header">
        <span className="tool-name">{item.name}</span>
        <span className="tool-detail">{lookupSummary(item.name, item.input)}</span>
        <span className="spacer" />
        {lines > 0 && <span className="muted small">{lines} lines</span>}
        <StatusPill item={item} />
      </summary>
      {text !== '' && <pre className={`tool-output${item.status === 'failed' ? ' failed' : ''}`}>{text}</pre>}
    </details>
  );
}
