// Permission requests waiting for an answer, pinned above the composer so they are never scrolled away.
import type { SessionState } from '../../store/types';
import { lookupItem } from '../conversation/lookup';
import { PermissionCard } from '../permissions/PermissionCard';

export function PermissionDock({ session }: { session: SessionState }) {
  if (session.pending.length === 0) return null;
  return (
    <div className="permission-dock" aria-live="polite">
      {session.pending.map((requestId) => {
        const key = session.transcript.ids.get(`perm:${requestId}`);
        const item = key !== undefined ? lookupItem(session, key) : undefined;
        if (item?.type !== 'permission') return null;
        const toolKey = session.transcript.ids.get(`tool:${item.toolUseId}`);
        const tool = toolKey !== undefined ? lookupItem(session, toolKey) : undefined;
        const before = tool?.type === 'tool' ? tool.before : undefined;
        return <PermissionCard key={requestId} sessionId={session.id} item={item} {...(before !== undefined ? { before } : {})} />;
      })}
    </div>
  );
}
