// One session on screen: header, conversation, checklist, composer, and the rewind dialog its rows open.
import { useMemo, useState } from 'react';
import { useConsole, useStore } from '../../store/hooks';
import { ChangesPanel } from '../changes/ChangesPanel';
import { useRememberedPanel } from './useRememberedPanel';
import { plainLine } from '../../store/sidebar';
import type { SessionState } from '../../store/types';
import { Composer } from '../composer/Composer';
import { type ConversationActions, ConversationContext } from '../conversation/actions';
import { Conversation } from '../conversation/Conversation';
import { RewindDialog } from '../dialogs/RewindDialog';
import { TerminalPanel } from '../terminal/TerminalPanel';
import { PlanPanel } from './PlanPanel';
import { SessionHeader } from './SessionHeader';

export function SessionView({ session }: { session: SessionState }) {
  const store = useStore();
  const [changes, setChanges] = useRememberedPanel(session.id, 'changes');
  const [rewind, setRewind] = useState<{ uuid: string; prompt: string } | undefined>(undefined);
  const listed = useConsole((s) => s.sidebar.items.find((i) => i.session === session.id));
  const forkName = session.forkedFrom !== undefined ? session.title : undefined;
  const title = forkName ?? (listed?.title || undefined) ?? session.title ?? firstPrompt(session) ?? 'New session';
  const id = session.id;
  const actions = useMemo<ConversationActions>(
    () => ({
      sessionId: id,
      editable: true,
      rewind: (uuid, prompt) => setRewind({ uuid, prompt }),
      fork: (uuid) => void store.fork(id, uuid),
    }),
    [id, store],
  );
  return (
    <ConversationContext.Provider value={actions}>
      <section className="session-view" aria-label={title}>
        <SessionHeader
          session={session}
          title={title}
          forkOf={listed?.forkOf ?? session.forkedFrom}
          extra={
            <button
              type="button"
              aria-pressed={changes}
              onClick={() => setChanges(!changes)}
              title="The files this session changed"
              data-testid="toggle-changes"
            >
              Changes
            </button>
          }
        />
        <div className="session-body">
          <Conversation session={session} />
          {changes && <ChangesPanel key={session.id} session={session} />}
          <PlanPanel session={session.id} items={session.plan} />
        </div>
        <TerminalPanel session={session.id} />
        <Composer key={session.id} session={session} />
        {rewind !== undefined && <RewindDialog sessionId={id} uuid={rewind.uuid} prompt={rewind.prompt} onClose={() => setRewind(undefined)} />}
      </section>
    </ConversationContext.Provider>
  );
}

function firstPrompt(s: SessionState): string | undefined {
  for (const id of s.turnOrder) {
    const p = s.turns.get(id)?.prompt;
    if (p === undefined || p === '') continue;
    const line = plainLine(p);
    return line.length > 80 ? `${line.slice(0, 80)}…` : line;
  }
  return undefined;
}
