// Every recent session across projects, grouped by project (or by date) in collapsible groups with counts,
// pinned ones on top and archived ones out of the way; live ones marked, background ones that wait for a
// permission or have finished flagged; filter by text and by project (↑/↓ in the filter pick the entry Enter opens).
// Resizable and hideable.
import { useMemo, useState } from 'react';
import { useConsole, useStore } from '../../store/hooks';
import { ContentResults } from './ContentResults';
import { IndexStatus } from './IndexStatus';
import { archivedCount, filterEntries, groupEntries, type GroupBy, projectName, projects, type SidebarGroup, sidebarEntries } from '../../store/sidebar';
import { IdleSetting } from '../session/SleepState';
import { ConnectionStatus } from '../shell/ConnectionStatus';
import { setSidebarPrefs, toggleCollapsed, useSidebarPrefs } from './prefs';
import { sessionPicked, showSidebar, useSidebarLayout } from './narrow';
import { entryId, SessionEntry } from './SessionEntry';
import { SidebarResizer } from './SidebarResizer';

export const FILTER_INPUT_ID = 'session-filter';

function Group({
  group,
  collapsed,
  selected,
  active,
  groupBy,
}: {
  group: SidebarGroup;
  collapsed: boolean;
  selected: string | undefined;
  active: string | undefined;
  groupBy: GroupBy;
}) {
  const store = useStore();
  return (
    <li className="group" data-testid="session-group" data-group={group.key}>
      <button
        type="button"
        className="group-head"
        aria-expanded={!collapsed}
        title={group.hint ?? group.label}
        onClick={() => toggleCollapsed(group.key)}
        data-testid="group-head"
      >
        <span className={`caret-icon${collapsed ? ' closed' : ''}`} aria-hidden="true" />
        <span className="group-label">{group.label}</span>
        <span className="group-count" data-testid="group-count">
          {group.entries.length}
        </span>
      </button>
      {!collapsed && (
        <ul className="group-entries">
          {group.entries.map((entry) => (
            <SessionEntry
              key={entry.session}
              entry={entry}
              selected={entry.session === selected}
              active={entry.session === active}
              showProject={groupBy === 'date' || group.key === 'pinned' || group.key === 'archived'}
              onSelect={() => {
                store.select(entry.session, entry);
                sessionPicked();
              }}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

export function Sidebar({ onNewSession, onSettings, onUsage }: { onNewSession: () => void; onSettings: () => void; onUsage: () => void }) {
  const store = useStore();
  const prefs = useSidebarPrefs();
  const layout = useSidebarLayout();
  const sidebar = useConsole((s) => s.sidebar);
  const marks = useConsole((s) => s.marks);
  const changes = useConsole((s) => s.changes);
  const selected = useConsole((s) => s.selected);
  // A string, so streaming (which changes sessions every frame) does not re-render the list.
  const sessionsSig = useConsole((s) =>
    Object.values(s.sessions)
      .map((x) => `${x.id}|${x.live ? 1 : 0}${x.sleep ?? ''}|${x.title ?? ''}|${x.turnOrder.length}|${x.pending.length}|${x.runningTurn ?? ''}`)
      .join('\n'),
  );
  const [text, setText] = useState('');
  const [project, setProject] = useState('');
  // Which of the entries shown Enter in the filter opens (↑/↓ move it), marked while the filter has the focus.
  const [active, setActive] = useState(0);
  const [filtering, setFiltering] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the slices of the store the entries are made of; they are read whole.
  const entries = useMemo(() => sidebarEntries(store.getState()), [store, sidebar, marks, changes, sessionsSig]);
  const shown = useMemo(() => filterEntries(entries, { text, project }), [entries, text, project]);
  const searching = text.trim() !== '';
  // While searching, archived sessions are found too: a search is how people look for an old one.
  const groups = useMemo(
    () => groupEntries(shown, prefs.groupBy, Date.now(), prefs.showArchived || searching),
    [shown, prefs.groupBy, prefs.showArchived, searching],
  );
  const collapsed = (key: string) => !searching && prefs.collapsed.includes(key);
  const hits = groups.flatMap((g) => (collapsed(g.key) ? [] : g.entries));
  const hit = hits[Math.min(active, hits.length - 1)];
  const activeSession = filtering ? hit?.session : undefined;
  const allProjects = useMemo(() => projects(entries), [entries]);
  const archived = archivedCount(entries);
  const visible = groups.reduce((n, g) => n + g.entries.length, 0);
  if (!layout.shown) return null;
  return (
    <nav className="sidebar" aria-label="Sessions" data-testid="sidebar">
      <div className="sidebar-top">
        <div className="brand-row">
          <div className="brand">Baton</div>
          <button
            type="button"
            className="icon-button"
            onClick={() => showSidebar(false)}
            title="Hide the sidebar (Ctrl+B)"
            aria-label="Hide the sidebar"
            data-testid="sidebar-hide"
          >
            «
          </button>
        </div>
        <button type="button" className="primary" onClick={onNewSession} title="New session (Alt+N)" data-testid="new-session">
          + New session
        </button>
        <input
          id={FILTER_INPUT_ID}
          type="search"
          placeholder="Filter sessions (Ctrl+K)"
          aria-label="Filter sessions"
          value={text}
          aria-controls="session-list"
          aria-activedescendant={activeSession !== undefined ? entryId(activeSession) : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onFocus={() => setFiltering(true)}
          onBlur={() => setFiltering(false)}
          onKeyDown={(e) => {
            if (e.nativeEvent.isComposing) return;
            if (e.key === 'Escape') {
              e.stopPropagation();
              setText('');
              e.currentTarget.blur();
            } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && hits.length > 0) {
              e.preventDefault();
              const at = Math.min(active, hits.length - 1);
              setActive((at + (e.key === 'ArrowDown' ? 1 : hits.length - 1)) % hits.length);
            } else if (e.key === 'Enter') {
              // Enter opens the session the arrows are on, the first one found unless moved (Ctrl+K, type, Enter).
              if (hit === undefined) return;
              e.preventDefault();
              store.select(hit.session, hit);
              sessionPicked();
              setText('');
              setActive(0);
            }
          }}
        />
        <div className="sidebar-controls">
          <select aria-label="Filter by project" value={project} onChange={(e) => setProject(e.target.value)}>
            <option value="">All projects</option>
            {allProjects.map((p) => (
              <option key={p} value={p} title={p}>
                {projectName(p)}
              </option>
            ))}
          </select>
          <div className="segmented" role="group" aria-label="Group sessions by">
            {(['project', 'date'] as const).map((by) => (
              <button
                key={by}
                type="button"
                aria-pressed={prefs.groupBy === by}
                onClick={() => setSidebarPrefs({ groupBy: by })}
                data-testid={`group-by-${by}`}
              >
                {by === 'project' ? 'Project' : 'Date'}
              </button>
            ))}
          </div>
        </div>
        <IndexStatus />
      </div>
      <ul className="session-list" id="session-list" data-testid="session-list">
        {groups.map((group) => (
          <Group key={group.key} group={group} collapsed={collapsed(group.key)} selected={selected} active={activeSession} groupBy={prefs.groupBy} />
        ))}
        {visible === 0 && (
          <li className="muted small empty-list">
            {sidebar.loading && sidebar.items.length === 0 ? 'Loading sessions…' : entries.length === 0 ? 'No sessions yet.' : 'No session matches.'}
          </li>
        )}
        {archived > 0 && !searching && (
          <li className="archived-toggle">
            <button type="button" className="link small" onClick={() => setSidebarPrefs({ showArchived: !prefs.showArchived })} data-testid="show-archived">
              {prefs.showArchived ? `Hide archived (${archived})` : `Show archived (${archived})`}
            </button>
          </li>
        )}
      </ul>
      <ContentResults text={text} project={project} />
      {sidebar.error !== undefined && <div className="small error-text">Could not list sessions: {sidebar.error}</div>}
      <div className="sidebar-settings">
        <IdleSetting />
        <button type="button" className="link small" onClick={onUsage} data-testid="open-usage">
          Usage…
        </button>
        <button type="button" className="link small" onClick={onSettings} data-testid="open-settings">
          Settings…
        </button>
      </div>
      <ConnectionStatus />
      <SidebarResizer width={prefs.width} />
    </nav>
  );
}

/** Shown in place of the sidebar while it is hidden. */
export function ShowSidebarButton() {
  const { shown } = useSidebarLayout();
  if (shown) return null;
  return (
    <button
      type="button"
      className="icon-button show-sidebar"
      onClick={() => showSidebar(true)}
      title="Show the sidebar (Ctrl+B)"
      aria-label="Show the sidebar"
      data-testid="sidebar-show"
    >
      »
    </button>
  );
}
