// Any other tool (MCP tools included): its name, its input as JSON, its output.
import { prettyJson } from '../../lib/format';
import type { ToolItem } from '../../store/types';
import { Output } from './Output';
import { ToolHeader } from './ToolHeader';

export function GenericToolCard({ item }: { item: ToolItem }) {
  // A question answered on its card here has its answer in the permission row below: shown once (issue 28).
  const answeredBelow = item.toolKind === 'question' && item.requestId !== undefined && item.status === 'completed';
  const output = answeredBelow ? undefined : item.output;
  return (
    <div className="tool-card tool-generic" data-testid="tool-card" data-tool={item.name}>
      <ToolHeader item={item} title={item.name} />
      <details>
        <summary className="small muted">input</summary>
        <pre className="raw">{prettyJson(item.input)}</pre>
      </details>
      {output !== undefined && output !== '' && <Output text={output} />}
      {item.status === 'failed' && <div className="tool-error plain">{item.error}</div>}
    </div>
  );
}
