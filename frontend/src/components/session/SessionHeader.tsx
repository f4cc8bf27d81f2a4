// The session's title line: where it runs, whether it is live, and closing it; below it, the work the session
// does in the background (tasks, the goal), when there is any.
import { useStore } from '../../store/hooks';
import { projectName } from '../../store/sidebar';
import type { SessionState } from '../../store/types';
import { BackgroundWork } from './BackgroundWork';

export function SessionHeader({ session, title }: { session: SessionState; title: string }) {
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
        {session.live ? (
          <span className="badge live" data-testid="session-live">
            live
          </span>
        ) : (
          <span className="badge">{session.closed !== undefined ? 'closed' : 'past session'}</span>
        )}
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
