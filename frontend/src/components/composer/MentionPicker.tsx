// The @-mention picker: the session folder's files and folders best matching what follows the "@" (ranked by
// the host, app/filefind). ↑/↓ move, Enter or Tab insert, Esc closes; a click inserts too.
import { useEffect, useRef } from 'react';
import type { FileMatch } from '../../protocol/api.gen';

export interface MentionView {
  matches: readonly FileMatch[];
  selected: number;
  /** Why nothing is listed (no match, the folder could not be read), when nothing is. */
  note?: string;
  /** The folder is still being listed: the matches are what is listed so far. */
  partial?: boolean;
}

export function MentionPicker({ view, onPick }: { view: MentionView; onPick: (m: FileMatch) => void }) {
  const list = useRef<HTMLUListElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the selected row scrolls into view when the selection moves.
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [view.selected]);
  if (view.matches.length === 0) {
    return view.note === undefined ? null : (
      <div className="command-hints mention-note muted small" data-testid="mention-note">
        {view.note}
      </div>
    );
  }
  return (
    <ul
      ref={list}
      className="command-hints mention-picker"
      role="listbox"
      id="mention-picker"
      aria-label="Files and folders"
      aria-busy={view.partial === true}
      data-testid="mention-picker"
    >
      {view.matches.map((m, i) => (
        <li
          key={`${m.dir ? 'd' : 'f'}:${m.path}`}
          role="option"
          id={`mention-${i}`}
          aria-selected={i === view.selected}
          className={i === view.selected ? 'selected' : undefined}
        >
          <button
            type="button"
            className="command-hint"
            tabIndex={-1}
            data-testid="mention-option"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onPick(m)}
          >
            <span className="mention-kind" aria-hidden="true">
              {m.dir ? '▸' : '·'}
            </span>{' '}
            <code>{m.dir ? `${m.path}/` : m.path}</code>
          </button>
        </li>
      ))}
      {view.partial === true && (
        <li role="none" className="mention-partial muted small" data-testid="mention-partial">
          Still listing the folder’s files…
        </li>
      )}
    </ul>
  );
}
