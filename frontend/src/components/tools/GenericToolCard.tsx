// Any other tool (MCP tools included): its name, its input as JSON, its output.
import { prettyJson } from '../../lib/format';
import type { ToolItem } from '../../store/types';
import { Output } from './Output';
import { ToolHeader } from './ToolHeader';

export function GenericToolCard({ item }: { item: ToolItem }) {
  return (
    <div className="tool-card tool-generic" data-testid="tool-card" data-tool={item.name}>
      <ToolHeader item={item} title={item.name} />
      <details>
        <summary className="small muted">input</summary>
        <pre className="raw">{prettyJson(item.input)}</pre>
      </details>
      {item.output !== undefined && item.output !== '' && <Output text={item.output} />}
      {item.status === 'failed' && <div className="tool-error plain">{item.error}</div>}
    </div>
  );
}
