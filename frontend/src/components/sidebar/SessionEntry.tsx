// One session in the sidebar: its title (renamable in place), live and fork marks, where and when, and a menu to
// pin, rename or archive it. The one the filter's ↑/↓ are on is marked active.
import { useEffect, useRef, useState } from 'react';
import { toApiError } from '../../protocol/api';
import { relativeTime } from '../../lib/format';
import { useStore } from '../../store/hooks';
import { changeCounts, projectName, type SidebarEntry, shownBranch } from '../../store/sidebar';
import { moveAmongButtons } from '../permissions/cardKeys';
import { BackgroundBadge } from './BackgroundBadge';

function EntryMenu({ entry, onRename, onClose }: { entry: SidebarEntry; onRename: () => void; onClose: () => void }) {
  const store = useStore();
  const ref = useRef<HTMLDivElement>(null);
  // Focus goes to the first item once, when the menu opens: a re-render (the sidebar refreshed, a new onClose)
  // must not pull it back from where the arrows moved it.
  useEffect(() => {
    ref.current?.querySelector('button')?.focus();
  }, []);
  useEffect(() => {
    const away = (e: MouseEvent) => {
      const menu = ref.current;
      if (menu === null || menu.contains(e.target as Node)) return;
      // Its own toggle closes it by toggling.
      if (menu.parentElement?.querySelector('.entry-more')?.contains(e.target as Node) === true) return;
      onClose();
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [onClose]);
  const act = (fn: () => void) => () => {
    onClose();
    fn();
  };
  return (
    <div
      className="entry-menu"
      role="menu"
      ref={ref}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        } else if (moveAmongButtons(e, e.currentTarget)) {
          e.preventDefault();
        }
      }}
    >
      <button
        type="button"
        role="menuitem"
        data-testid="entry-pin"
        onClick={act(() => void store.setSessionFlags(entry.session, { pinned: entry.pinned !== true }))}
      >
        {entry.pinned === true ? 'Unpin' : 'Pin to top'}
      </button>
      <button type="button" role="menuitem" data-testid="entry-rename" onClick={act(onRename)}>
        Rename…
      </button>
      {!entry.live && (
        <button
          type="button"
          role="menuitem"
          data-testid="entry-archive"
          onClick={act(() => void store.setSessionFlags(entry.session, { archived: entry.archived !== true }))}
        >
          {entry.archived === true ? 'Restore from archive' : 'Archive'}
        </button>
      )}
    </div>
  );
}

function RenameField({ entry, onDone }: { entry: SidebarEntry; onDone: () => void }) {
  const store = useStore();
  const [title, setTitle] = useState(entry.title);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const next = title.trim();
    if (next === '' || next === entry.title) {
      onDone();
      return;
    }
    setBusy(true);
    try {
      await store.renameSession(entry.session, next);
      onDone();
    } catch (err) {
      store.toast('error', toApiError(err).message);
      setBusy(false);
    }
  };
  return (
    <form
      className="entry-rename"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <input
        autoFocus
        value={title}
        maxLength={200}
        disabled={busy}
        aria-label="Session title"
        data-testid="entry-rename-input"
        onChange={(e) => setTitle(e.target.value)}
        onFocus={(e) => e.currentTarget.select()}
        onBlur={() => {
          if (!busy) void save();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onDone();
          }
        }}
      />
    </form>
  );
}

/** The id of an entry's button, for the filter's aria-activedescendant. */
export function entryId(session: string): string {
  return `session-entry-${session}`;
}

export function SessionEntry({
  entry,
  selected,
  active = false,
  showProject,
  onSelect,
}: {
  entry: SidebarEntry;
  selected: boolean;
  /** The filter's ↑/↓ are on it: Enter in the filter opens it. */
  active?: boolean;
  showProject: boolean;
  onSelect: () => void;
}) {
  const [menu, setMenu] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (active) button.current?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const branch = shownBranch(entry.gitBranch);
  const meta = [showProject ? projectName(entry.cwd) : undefined, relativeTime(entry.lastModified), branch].filter((x) => x !== undefined);
  return (
    <li className={`entry${selected ? ' selected' : ''}${menu ? ' menu-open' : ''}`}>
      {renaming ? (
        <RenameField entry={entry} onDone={() => setRenaming(false)} />
      ) : (
        <button
          ref={button}
          id={entryId(entry.session)}
          type="button"
          className={`session-entry${selected ? ' selected' : ''}${active ? ' active' : ''}`}
          onClick={onSelect}
          data-active={active ? 'true' : undefined}
          aria-current={selected ? 'true' : undefined}
          data-testid="session-entry"
          data-session={entry.session}
          title={entry.title}
        >
          <span className="entry-title">
            {entry.live &&
              (entry.asleep ? (
                <span className="dot live asleep" title="live, asleep" role="img" aria-label="asleep" />
              ) : (
                <span className="dot live" title="live" role="img" aria-label="live" />
              ))}
            {entry.pinned === true && <span className="pin" role="img" aria-label="pinned" title="Pinned" />}
            <span className="entry-title-text" data-testid="entry-title">
              {entry.title}
            </span>
          </span>
          <span className="entry-meta muted small">
            {entry.forkOf !== undefined && (
              <span className="badge" title={`Forked from session ${entry.forkOf}`} data-testid="mark-fork">
                fork
              </span>
            )}
            {meta.join(' · ')}
          </span>
          {/* One column for the marks: several at once stack rather than draw over each other. */}
          <span className="entry-marks">
            <BackgroundBadge session={entry.session} />
            {changeCounts(entry.changes) !== '' && entry.changes !== undefined && (
              <span
                className="mark counts small"
                title={`${entry.changes.files} file${entry.changes.files === 1 ? '' : 's'} changed`}
                data-testid="entry-changes"
              >
                {changeCounts(entry.changes)}
              </span>
            )}
            {entry.waiting ? (
              <span className="mark warn" title="Waiting for your answer" data-testid="mark-permission">
                needs you
              </span>
            ) : (
              entry.busy && (
                <span className="mark busy" title="Claude is working" data-testid="mark-busy">
                  working
                </span>
              )
            )}
            {entry.landable === true && (
              <span className="mark ok" title="Idle, with work its base lacks: open it and Land" data-testid="mark-landable">
                ready to land
              </span>
            )}
            {entry.finished && (
              <span className="mark ok" title="Finished while you were away" data-testid="mark-finished">
                done
              </span>
            )}
          </span>
        </button>
      )}
      {!renaming && (
        <button
          type="button"
          className="entry-more"
          aria-label={`Actions for ${entry.title}`}
          aria-haspopup="menu"
          aria-expanded={menu}
          title="Pin, rename or archive"
          data-testid="entry-actions"
          onClick={() => setMenu((m) => !m)}
        >
          ⋯
        </button>
      )}
      {menu && <EntryMenu entry={entry} onRename={() => setRenaming(true)} onClose={() => setMenu(false)} />}
    </li>
  );
}
