// The new-session dialog's folder: typed with completion from the host's file system (folders only), picked
// from the folders of recent sessions, or chosen with the native picker in the window.
import { useEffect, useRef, useState } from 'react';
import { type PathEntry, toApiError } from '../../protocol/api';
import { useStore } from '../../store/hooks';
import { projectName } from '../../store/sidebar';

const COMPLETE_DELAY_MS = 120;

function withSeparator(path: string): string {
  const sep = path.includes('\\') && !path.includes('/') ? '\\' : '/';
  return path.endsWith('/') || path.endsWith('\\') ? path : path + sep;
}

/** Completions for what is typed; stale answers (the text moved on) are dropped. */
function useCompletions(typed: string, enabled: boolean): { entries: PathEntry[]; note: string | undefined } {
  const store = useStore();
  const [state, setState] = useState<{ for: string; entries: PathEntry[]; note: string | undefined }>({ for: '', entries: [], note: undefined });
  useEffect(() => {
    if (!enabled || typed.trim() === '') {
      setState({ for: typed, entries: [], note: undefined });
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      store.lookups.completePath(typed).then(
        (r) => {
          if (live) setState({ for: typed, entries: r.entries, note: r.truncated ? 'More folders match: keep typing.' : undefined });
        },
        (err: unknown) => {
          if (live) setState({ for: typed, entries: [], note: toApiError(err).message });
        },
      );
    }, COMPLETE_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [store, typed, enabled]);
  return state.for === typed ? state : { entries: [], note: undefined };
}

export function FolderField({
  cwd,
  recent,
  onChange,
  onPick,
}: {
  cwd: string;
  recent: readonly string[];
  onChange: (cwd: string) => void;
  onPick: (() => void) | undefined;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const { entries, note } = useCompletions(cwd, open);
  // An exact match alone is no suggestion.
  const suggestions = entries.filter((e) => e.path !== cwd.replace(/[\\/]+$/, '') || entries.length > 1);
  const showList = open && suggestions.length > 0;
  const accept = (entry: PathEntry) => {
    onChange(withSeparator(entry.path));
    setActive(-1);
    input.current?.focus();
  };
  return (
    <div className="field folder-field">
      <label htmlFor="new-session-folder">Folder</label>
      <span className="folder-row">
        <span className="combo">
          <input
            id="new-session-folder"
            ref={input}
            autoFocus
            type="text"
            role="combobox"
            value={cwd}
            onChange={(e) => {
              onChange(e.target.value);
              setOpen(true);
              setActive(-1);
            }}
            onFocus={() => setOpen(true)}
            onBlur={() => setOpen(false)}
            onKeyDown={(e) => {
              if (!showList) return;
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                const n = suggestions.length;
                setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : (a - 1 + n) % n));
              } else if ((e.key === 'Enter' || e.key === 'Tab') && (active >= 0 || (e.key === 'Tab' && suggestions.length === 1))) {
                const pick = suggestions[Math.max(0, active)];
                if (pick !== undefined) {
                  e.preventDefault();
                  accept(pick);
                }
              } else if (e.key === 'Escape') {
                e.preventDefault();
                e.stopPropagation();
                setOpen(false);
              }
            }}
            placeholder="/path/to/your/project"
            aria-label="Folder"
            aria-autocomplete="list"
            aria-expanded={showList}
            aria-controls="folder-completions"
            data-testid="new-session-folder"
            spellCheck={false}
            autoComplete="off"
          />
          {showList && (
            <ul className="completions" id="folder-completions" role="listbox" data-testid="folder-completions">
              {suggestions.map((entry, i) => (
                <li
                  key={entry.path}
                  role="option"
                  aria-selected={i === active}
                  className={i === active ? 'active' : undefined}
                  // mousedown, not click: the input keeps its focus and the list is not closed by the blur first.
                  onMouseDown={(e) => {
                    e.preventDefault();
                    accept(entry);
                  }}
                  title={entry.path}
                >
                  {entry.name}
                </li>
              ))}
            </ul>
          )}
        </span>
        {onPick !== undefined && (
          <button type="button" onClick={onPick}>
            Choose…
          </button>
        )}
      </span>
      {open && note !== undefined && suggestions.length === 0 && <span className="muted small">{note}</span>}
      {recent.length > 0 && (
        <div className="recent-folders" data-testid="recent-folders">
          <span className="muted small">Recent</span>
          {recent.map((folder) => (
            <button
              key={folder}
              type="button"
              className={`chip${folder === cwd ? ' chosen' : ''}`}
              title={folder}
              onClick={() => {
                onChange(folder);
                setOpen(false);
              }}
              data-testid="recent-folder"
            >
              {projectName(folder)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
