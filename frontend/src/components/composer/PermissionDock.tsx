// Permission requests waiting for an answer, pinned above the composer so they are never scrolled away. Tab in
// the composer takes the focus to the first of them, where its answer keys work.
import { useEffect } from 'react';
import type { SessionState } from '../../store/types';
import { focusWaitingCard } from '../permissions/cardKeys';
import { lookupItem } from '../conversation/lookup';
import { PermissionCard } from '../permissions/PermissionCard';
import { PlanCard } from '../permissions/PlanCard';
import { QuestionCard } from '../permissions/QuestionCard';

/** Whether a key is the one that goes to the waiting card: Tab (nothing else held) in the composer. */
export function goesToCard(e: KeyboardEvent): boolean {
  if (e.key !== 'Tab' || e.shiftKey || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return false;
  return e.target instanceof HTMLElement && e.target.dataset['testid'] === 'composer-input';
}

export function PermissionDock({ session }: { session: SessionState }) {
  const waiting = session.pending.length > 0;
  useEffect(() => {
    if (!waiting) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (goesToCard(e) && focusWaitingCard()) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [waiting]);
  if (!waiting) return null;
  return (
    <div className="permission-dock" aria-live="polite">
      {session.pending.map((requestId, index) => {
        const key = session.transcript.ids.get(`perm:${requestId}`);
        const item = key !== undefined ? lookupItem(session, key) : undefined;
        if (item?.type !== 'permission') return null;
        // Claude's questions and plans are asked of the person, not permissions for a tool.
        if (item.toolKind === 'question') return <QuestionCard key={requestId} sessionId={session.id} item={item} />;
        const toolKey = session.transcript.ids.get(`tool:${item.toolUseId}`);
        const tool = toolKey !== undefined ? lookupItem(session, toolKey) : undefined;
        if (item.toolKind === 'plan_exit') {
          return <PlanCard key={requestId} sessionId={session.id} item={item} {...(tool?.type === 'tool' ? { callInput: tool.input } : {})} />;
        }
        const before = tool?.type === 'tool' ? tool.before : undefined;
        return <PermissionCard key={requestId} sessionId={session.id} item={item} keys={index === 0} {...(before !== undefined ? { before } : {})} />;
      })}
    </div>
  );
}
