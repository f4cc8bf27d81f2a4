// Ctrl+F in a session: finds the words in its whole history through Baton's index (not only the rows loaded or
// on screen), says which match of how many is shown, and steps through them, the transcript paging its history
// back to each. Matches are in the order of the history; the newest is shown first, and Enter goes up to older
// ones (as a terminal's find does: the person is at the tail).
import { useEffect, useRef, useState } from 'react';
import type { SearchHit } from '../../protocol/api';
import { useStore } from '../../store/hooks';
import { revealPosition } from '../../store/reveal';

/** The shortest word the index finds (a trigram). */
const MIN_CHARS = 3;
/** The most matches asked for: a count at it reads "1000+". */
const FIND_LIMIT = 1000;
/** Typing settles this long before the index is asked. */
const TYPING_MS = 150;

interface Found {
  asked: string;
  hits: SearchHit[];
  error?: string;
}

function countLabel(query: string, found: Found | undefined, at: number): string {
  if (query.length < MIN_CHARS) return query === '' ? '' : `Type ${MIN_CHARS} characters`;
  if (found === undefined || found.asked !== query) return 'Searching…';
  if (found.error !== undefined) return found.error;
  const m = found.hits.length;
  return m === 0 ? 'No matches' : `${at + 1} of ${m}${m >= FIND_LIMIT ? '+' : ''}`;
}

export function FindBar({ session }: { session: string }) {
  const store = useStore();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [found, setFound] = useState<Found | undefined>();
  const [at, setAt] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const query = text.trim();

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== 'f') return;
      e.preventDefault(); // the browser's own find sees only the rows on screen
      setOpen(true);
      requestAnimationFrame(() => input.current?.select());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const show = (hits: readonly SearchHit[], i: number) => {
    const h = hits[i];
    if (h === undefined) return;
    setAt(i);
    void revealPosition(store, { session, position: h.position, ...(h.uuid !== undefined ? { uuid: h.uuid } : {}), words: query.split(/\s+/) });
  };
  const showNow = useRef(show);
  showNow.current = show;

  useEffect(() => {
    if (!open || query.length < MIN_CHARS) return undefined;
    let current = true; // a later query's answer replaces this one's
    const timer = setTimeout(() => {
      store.lookups.searchSessions(query, undefined, undefined, session, FIND_LIMIT).then(
        (res) => {
          if (!current) return;
          setFound({ asked: query, hits: res.hits });
          showNow.current(res.hits, res.hits.length - 1);
        },
        (err: unknown) => current && setFound({ asked: query, hits: [], error: err instanceof Error ? err.message : String(err) }),
      );
    }, TYPING_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [store, open, query, session]);

  if (!open) return null;
  const hits = found?.asked === query ? found.hits : [];
  const step = (delta: number) => {
    if (hits.length > 0) show(hits, (at + delta + hits.length) % hits.length);
  };
  const close = () => {
    setOpen(false);
    setText('');
    setFound(undefined);
    store.reveal.clear(session);
  };
  return (
    <div role="search" className="find-bar" data-testid="find-bar">
      <input
        ref={input}
        type="search"
        aria-label="Find in this session"
        placeholder="Find in this session"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            close();
          } else if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
            e.preventDefault();
            step(e.shiftKey ? 1 : -1);
          }
        }}
        autoFocus
        data-testid="find-input"
      />
      <span className="find-count muted small" role="status" data-testid="find-count">
        {countLabel(query, found, at)}
      </span>
      <button type="button" className="icon-button" onClick={() => step(-1)} disabled={hits.length === 0} title="Older match (Enter)" aria-label="Older match">
        ↑
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={() => step(1)}
        disabled={hits.length === 0}
        title="Newer match (Shift+Enter)"
        aria-label="Newer match"
      >
        ↓
      </button>
      <button type="button" className="icon-button" onClick={close} title="Close (Escape)" aria-label="Close find" data-testid="find-close">
        ×
      </button>
    </div>
  );
}
