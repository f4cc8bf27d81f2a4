// The top line of every tool card: what ran, on what, and how it ended (running, waiting for permission,
// done, failed or denied).
import type { ReactNode } from 'react';
import { useSession } from '../../store/hooks';
import type { ToolItem } from '../../store/types';
import { lookupItem } from '../conversation/lookup';
import { TOOL_KIND_FACTS } from '../../lib/toolKinds';
import { useConversation } from '../conversation/actions';
import { SendToBackground } from './SendToBackground';

/** What a call the transcript leaves open reads: it never finished, and never will. */
export const SESSION_ENDED = 'The session ended before this finished';

/** Where the call's permission request stands: none asked, waiting, or the verdict. */
export function usePermissionState(item: ToolItem): 'none' | 'waiting' | 'allowed' | 'denied' {
  const { sessionId } = useConversation();
  const session = useSession(sessionId);
  if (item.requestId === undefined) return 'none';
  const key = session?.transcript.ids.get(`perm:${item.requestId}`);
  const perm = key !== undefined ? lookupItem(session, key) : undefined;
  if (perm?.type !== 'permission') return 'none';
  if (perm.settled === undefined) return item.status === 'running' ? 'waiting' : 'none';
  return perm.settled.verdict === 'deny' ? 'denied' : 'allowed';
}

export function StatusPill({ item, label }: { item: ToolItem; label?: string }) {
  const permission = usePermissionState(item);
  if (permission === 'waiting') {
    // Claude's questions and plans wait for an answer, not for a permission.
    const asks = TOOL_KIND_FACTS[item.toolKind].asksPerson;
    return <span className="pill warn">{asks ? 'waiting for your answer' : 'waiting for permission'}</span>;
  }
  // Denied live by the verdict, and in history (no permission events there) by the refused call's own mark.
  if ((permission === 'denied' || item.denied === true) && item.status !== 'completed')
    return (
      <span className="pill bad" data-testid="tool-denied">
        denied
      </span>
    );
  switch (item.status) {
    case 'running':
      return <span className="pill running">running{item.elapsedSeconds !== undefined ? ` ${Math.round(item.elapsedSeconds)} s` : ''}</span>;
    case 'completed':
      return <span className="pill ok">{label ?? 'done'}</span>;
    case 'failed':
      return <span className="pill bad">{label ?? 'failed'}</span>;
    case 'canceled':
      return (
        <span className="pill ended" data-testid="tool-canceled">
          canceled
        </span>
      );
    case 'interrupted':
      return (
        <span className="pill ended" data-testid="tool-interrupted">
          interrupted
        </span>
      );
    case 'ended':
      return (
        <span className="pill ended" data-testid="tool-ended" title={SESSION_ENDED}>
          ended
        </span>
      );
  }
}

export function ToolHeader({ item, title, detail, pill }: { item: ToolItem; title: string; detail?: ReactNode; pill?: ReactNode }) {
  return (
    <div className="tool-header">
      <span className="tool-name">{title}</span>
      {detail !== undefined && <span className="tool-detail">{detail}</span>}
      <span className="spacer" />
      <SendToBackground item={item} />
      {pill ?? <StatusPill item={item} />}
    </div>
  );
}
