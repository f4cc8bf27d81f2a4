// A Task/Agent call: the subagent's brief, then everything it did nested inside, then its result.
import { useState } from 'react';
import { stringField } from '../../store/files';
import type { ToolItem } from '../../store/types';
import { useNestedRows } from '../conversation/nestedRows';
import { Output } from './Output';
import { ToolHeader } from './ToolHeader';

export function AgentCard({ item }: { item: ToolItem }) {
  const [open, setOpen] = useState(item.status === 'running');
  const NestedRows = useNestedRows();
  const description = stringField(item.input, 'description') ?? '';
  const prompt = stringField(item.input, 'prompt');
  return (
    <div className="tool-card tool-agent" data-testid="tool-card" data-tool={item.name}>
      <ToolHeader item={item} title={item.title} detail={description} />
      {item.summary !== undefined && <div className="muted small">{item.summary}</div>}
      <button type="button" className="link small" onClick={() => setOpen(!open)} aria-expanded={open}>
        {open ? 'Hide' : 'Show'} what it did ({item.children.length})
      </button>
      {open && (
        <div className="nested">
          {prompt !== undefined && <div className="plain muted small nested-prompt">{prompt}</div>}
          <NestedRows keys={item.children} />
        </div>
      )}
      {item.output !== undefined && item.output !== '' && <Output text={item.output} />}
      {item.status === 'failed' && <div className="tool-error plain">{item.error}</div>}
    </div>
  );
}
