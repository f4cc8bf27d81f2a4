// One transcript row: selects its own item from the store (so it re-renders only when that item changes) and
// picks the component for its type. Nested rows (a subagent's work) use the same component.
import { memo } from 'react';
import { assertNever } from '../../lib/assertNever';
import { useConsole } from '../../store/hooks';
import type { ItemKey, PermissionItem } from '../../store/types';
import { interactiveSettlement } from '../permissions/interactive';
import { TOOL_KIND_FACTS } from '../../lib/toolKinds';
import { settlementText } from '../permissions/settlement';
import { ToolCard } from '../tools/ToolCard';
import { useConversation } from './actions';
import { CommandRow } from './CommandRow';
import { CompactedRow, SummaryRow } from './CompactionRows';
import { HookRow } from './HookRow';
import { lookupItem } from './lookup';
import { NestedRowsContext } from './nestedRows';
import { AssistantRow, ErrorRow, NoticeRow, ThinkingRow, TurnEndRow, UnknownRow, UserRow } from './MessageRows';

function PermissionRow({ item }: { item: PermissionItem }) {
  const interactive = TOOL_KIND_FACTS[item.toolKind].asksPerson;
  if (item.settled === undefined) {
    return (
      <div className="row row-permission pending" data-testid="permission-row">
        {item.toolKind === 'question' ? (
          <>Claude asks you a question — answer it below</>
        ) : item.toolKind === 'plan_exit' ? (
          <>Claude has a plan — review it below</>
        ) : (
          <>
            Claude asks to use <strong>{item.toolName}</strong> — waiting for your answer below
          </>
        )}
      </div>
    );
  }
  if (interactive) {
    return (
      <div className={`row row-permission ${item.settled.verdict === 'deny' ? 'bad' : 'ok'}`} data-testid="permission-row">
        <strong>{item.toolKind === 'question' ? 'Question' : 'Plan'}</strong>: {interactiveSettlement(item.toolKind, item.settled)}
      </div>
    );
  }
  return (
    <div className={`row row-permission ${item.settled.verdict === 'deny' ? 'bad' : 'ok'}`} data-testid="permission-row">
      <strong>{item.toolName}</strong>: {settlementText(item.settled)}
      {item.settled.message !== undefined && <span className="muted"> — “{item.settled.message}”</span>}
    </div>
  );
}

export const Row = memo(function Row({ itemKey, nested = false }: { itemKey: ItemKey; nested?: boolean }) {
  const { sessionId } = useConversation();
  const item = useConsole((s) => lookupItem(s.sessions[sessionId], itemKey));
  if (item === undefined) return <div className="row row-missing" />;
  switch (item.type) {
    case 'user':
      return <UserRow item={item} nested={nested} />;
    case 'assistant':
      return <AssistantRow item={item} nested={nested} />;
    case 'thinking':
      return <ThinkingRow item={item} />;
    case 'tool':
      return (
        <div className="row row-tool">
          <NestedRowsContext.Provider value={NestedRows}>
            <ToolCard item={item} />
          </NestedRowsContext.Provider>
        </div>
      );
    case 'permission':
      return <PermissionRow item={item} />;
    case 'turnEnd':
      return <TurnEndRow item={item} />;
    case 'error':
      return <ErrorRow item={item} />;
    case 'unknown':
      return <UnknownRow item={item} />;
    case 'notice':
      return <NoticeRow item={item} />;
    case 'hook':
      return <HookRow item={item} />;
    case 'compacted':
      return <CompactedRow item={item} />;
    case 'summary':
      return <SummaryRow item={item} />;
    case 'command':
      return <CommandRow item={item} />;
    default:
      return assertNever(item);
  }
});

export function NestedRows({ keys }: { keys: readonly ItemKey[] }) {
  return (
    <>
      {keys.map((key) => (
        <Row key={key} itemKey={key} nested />
      ))}
    </>
  );
}
