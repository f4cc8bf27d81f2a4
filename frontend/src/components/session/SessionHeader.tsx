// The session's title line: where it runs, whether it is live (or a fork, or asleep), and closing it; below it,
// the work the session does in the background (tasks, the goal), when there is any.
import type { ReactNode } from 'react';
import { useConsole, useStore } from '../../store/hooks';
import { projectName } from '../../store/sidebar';
import type { SessionState } from '../../store/types';
import { TerminalButton } from '../terminal/TerminalButton';
import { BackgroundWork } from './BackgroundWork';
import { SessionCost } from './SessionCost';
import { SleepBadge } from './SleepState';

export function SessionHeader({
  session,
  title,
  forkOf,
  extra,
}: {
  session: SessionState;
  title: string;
  forkOf?: string | undefined;
  /** The session view's own buttons (the Changes toggle), before Fork. */
  extra?: ReactNode;
}) {
  const store = useStore();
  return (
    <>
      <header className="session-header">
        <div className="session-title">
          <h1 title={title}>{title}</h1>
          <div className="muted small">
            <span title={session.cwd}>{projectName(session.cwd)}</span> · <code>{session.cwd}</code>
          </div>
        </div>
        <span className="spacer" />
        {forkOf !== undefined && <ForkOrigin parent={forkOf} />}
        <SessionCost session={session.id} runningTurn={session.runningTurn} />
        <SleepBadge session={session} />
        {session.live ? (
          <span className="badge live" data-testid="session-live">
            live
          </span>
        ) : (
          <span className="badge">{session.closed !== undefined ? 'closed' : 'past session'}</span>
        )}
        <TerminalButton session={session.id} live={session.live} />
        {extra}
        <button type="button" onClick={() => void store.fork(session.id)} title="Start a new session that continues this one">
          Fork
        </button>
        {session.live && (
          <button type="button" onClick={() => void store.closeSession(session.id)} title="End this session (it can be resumed later)">
            Close
          </button>
        )}
      </header>
      <BackgroundWork session={session} />
    </>
  );
}

/** Where a fork came from: the parent's title, a click away. */
function ForkOrigin({ parent }: { parent: string }) {
  const store = useStore();
  const info = useConsole((s) => s.sidebar.items.find((i) => i.session === parent));
  const known = useConsole((s) => s.sessions[parent]?.title);
  const title = (info?.title !== undefined && info.title !== '' ? info.title : known) ?? `session ${parent.slice(0, 8)}`;
  return (
    <button
      type="button"
      className="badge fork-origin"
      title={`Forked from ${title} (${parent})`}
      onClick={() => store.select(parent, info)}
      data-testid="session-fork"
    >
      forked from {title.length > 40 ? `${title.slice(0, 39)}…` : title}
    </button>
  );
}
