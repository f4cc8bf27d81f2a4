// Picks the card for a tool call by its kind (the sidecar's tool catalogue names it).
import { memo } from 'react';
import { assertNever } from '../../lib/assertNever';
import type { ToolItem } from '../../store/types';
import { AgentCard } from './AgentCard';
import { BashCard } from './BashCard';
import { CollapsedToolCard } from './CollapsedToolCard';
import { FileChangeCard } from './FileChangeCard';
import { GenericToolCard } from './GenericToolCard';
import { PlanExitCard } from './PlanExitCard';
import { SESSION_ENDED, ToolHeader } from './ToolHeader';
import { Thumbnails } from '../conversation/Thumbnails';

export const ToolCard = memo(function ToolCard({ item }: { item: ToolItem }) {
  const ended = item.status === 'ended';
  const images = item.images !== undefined && item.images.length > 0 ? item.images : undefined;
  if (!ended && images === undefined) return <KindCard item={item} />;
  // Under every kind's card alike: why it has no result, and the images it returned.
  return (
    <>
      <KindCard item={item} />
      {ended && (
        <div className="tool-note small muted" data-testid="tool-ended-note">
          {SESSION_ENDED}
        </div>
      )}
      {images !== undefined && <Thumbnails images={images} of={`${item.name}’s result`} />}
    </>
  );
});

function KindCard({ item }: { item: ToolItem }) {
  const kind = item.toolKind;
  switch (kind) {
    case 'shell':
      return <BashCard item={item} />;
    case 'write':
    case 'edit':
      return <FileChangeCard item={item} kind={kind} />;
    case 'agent':
      return <AgentCard item={item} />;
    case 'read':
    case 'search':
    case 'fetch':
      return <CollapsedToolCard item={item} />;
    case 'plan':
      return <PlanToolCard item={item} />;
    case 'plan_exit':
      return <PlanExitCard item={item} />;
    case 'question':
    case 'mcp':
    case 'other':
      return <GenericToolCard item={item} />;
    default:
      return assertNever(kind);
  }
}

function PlanToolCard({ item }: { item: ToolItem }) {
  // The checklist itself is shown beside the conversation once it has items; a failed update says why here.
  const state = item.status === 'completed' ? 'updated' : item.status === 'running' ? 'updating' : 'not updated';
  const detail = item.repeats !== undefined && item.repeats > 1 ? `${state} ×${item.repeats}` : state;
  return (
    <div className="tool-card tool-plan" data-testid="tool-card" data-tool={item.name}>
      <ToolHeader item={item} title="Checklist" detail={detail} />
      {item.status === 'failed' && <div className="tool-error plain">{item.error}</div>}
    </div>
  );
}
