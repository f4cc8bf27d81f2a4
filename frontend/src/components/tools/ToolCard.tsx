// Picks the card for a tool call by the tool's name.
import { memo } from 'react';
import { isFileTool } from '../../store/files';
import type { ToolItem } from '../../store/types';
import { AgentCard } from './AgentCard';
import { BashCard } from './BashCard';
import { CollapsedToolCard, LOOKUP_TOOLS } from './CollapsedToolCard';
import { FileChangeCard } from './FileChangeCard';
import { GenericToolCard } from './GenericToolCard';
import { ToolHeader } from './ToolHeader';

const PLAN_TOOLS = ['TodoWrite', 'TaskCreate', 'TaskUpdate'];

export const ToolCard = memo(function ToolCard({ item }: { item: ToolItem }) {
  const name = item.name;
  if (name === 'Bash') return <BashCard item={item} />;
  if (isFileTool(name)) return <FileChangeCard item={item} tool={name} />;
  if (name === 'Task' || name === 'Agent') return <AgentCard item={item} />;
  if (LOOKUP_TOOLS.includes(name)) return <CollapsedToolCard item={item} />;
  if (PLAN_TOOLS.includes(name)) {
    // The checklist itself is shown beside the conversation once it has items; a failed update says why here.
    const detail = item.status === 'completed' ? 'updated' : item.status === 'running' ? 'updating' : 'not updated';
    return (
      <div className="tool-card tool-plan" data-testid="tool-card" data-tool={name}>
        <ToolHeader item={item} title="Checklist" detail={detail} />
        {item.status === 'failed' && <div className="tool-error plain">{item.error}</div>}
      </div>
    );
  }
  return <GenericToolCard item={item} />;
});
