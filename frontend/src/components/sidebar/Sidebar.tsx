// Every recent session across projects, newest first: live ones marked, background ones that wait for a
// permission or have finished flagged; filter by text and by project.
import { useMemo, useState } from 'react';
import { relativeTime } from '../../lib/format';
import { useConsole, useStore } from '../../store/hooks';
import { filterEntries, projectName, projects, type SidebarEntry, sidebarEntries } from '../../store/sidebar';
import { ConnectionStatus } from '../shell/ConnectionStatus';
import { BackgroundBadge } from './BackgroundBadge';

export const FILTER_INPUT_ID = 'session-filter';

function EntryRow({ entry, selected, onSelect }: { entry: SidebarEntry; selected: boolean; onSelect: () => void }) {
  return (
    <li>
      <button
        type="button"
        className={`session-entry${selected ? ' selected' : ''}`}
        onClick={onSelect}
        aria-current={selected ? 'true' : undefined}
        data-testid="session-entry"
        data-session={entry.session}
      >
        <span className="entry-title">
          {entry.live && <span className="dot live" title="live" aria-label="live" />}
          {entry.title}
        </span>
        <span className="entry-meta muted small">
          {projectName(entry.cwd)} · {relativeTime(entry.lastModified)}
          {entry.gitBranch !== undefined && entry.gitBranch !== '' ? ` · ${entry.gitBranch}` : ''}
        </span>
        <BackgroundBadge session={entry.session} />
        {entry.waiting && (
          <span className="mark warn" title="Waiting for your permission" data-testid="mark-permission">
            needs you
          </span>
        )}
        {entry.finished && (
          <span className="mark ok" title="Finished while you were away" data-testid="mark-finished">
            done
          </span>
        )}
      </button>
    </li>
  );
}

export function Sidebar({ onNewSession, onOptions }: { onNewSession: () => void; onOptions: () => void }) {
  const store = useStore();
  const sidebar = useConsole((s) => s.sidebar);
  const marks = useConsole((s) => s.marks);
  const selected = useConsole((s) => s.selected);
  // A string, so streaming (which changes sessions every frame) does not re-render the list.
  const sessionsSig = useConsole((s) => Object.values(s.sessions).map((x) => `${x.id}|${x.live ? 1 : 0}|${x.title ?? ''}|${x.turnOrder.length}`).join('\n'));
  const [text, setText] = useState('');
  const [project, setProject] = useState('');
  const entries = useMemo(() => sidebarEntries(store.getState()), [store, sidebar, marks, sessionsSig]);
  const shown = useMemo(() => filterEntries(entries, { text, project }), [entries, text, project]);
  const allProjects = useMemo(() => projects(entries), [entries]);
  return (
    <nav className="sidebar" aria-label="Sessions">
      <div className="sidebar-top">
        <div className="brand">Baton</div>
        <div className="new-row">
          <button type="button" className="primary" onClick={onNewSession} title="New session (Alt+N)" data-testid="new-session">
            + New session
          </button>
          <button type="button" onClick={onOptions} title="New session with a model and permission mode" data-testid="new-session-options">
            Options…
          </button>
        </div>
        <input
          id={FILTER_INPUT_ID}
          type="search"
          placeholder="Filter sessions (Ctrl+K)"
          aria-label="Filter sessions"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              setText('');
              e.currentTarget.blur();
            }
          }}
        />
        <select aria-label="Filter by project" value={project} onChange={(e) => setProject(e.target.value)}>
          <option value="">All projects</option>
          {allProjects.map((p) => (
            <option key={p} value={p} title={p}>
              {projectName(p)}
            </option>
          ))}
        </select>
      </div>
      <ul className="session-list" data-testid="session-list">
        {shown.map((entry) => (
          <EntryRow key={entry.session} entry={entry} selected={entry.session === selected} onSelect={() => store.select(entry.session, entry)} />
        ))}
        {shown.length === 0 && (
          <li className="muted small empty-list">
            {sidebar.loading ? 'Loading sessions…' : entries.length === 0 ? 'No sessions yet.' : 'No session matches.'}
          </li>
        )}
      </ul>
      {sidebar.error !== undefined && <div className="small error-text">Could not list sessions: {sidebar.error}</div>}
      <ConnectionStatus />
    </nav>
  );
}
