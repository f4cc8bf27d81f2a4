// The @-mention picker's state: which "@" word the caret is in, the host's matches for it (the newest asked
// wins; an older answer arriving late is dropped), the selection, and closing with Esc until the word changes.
// A first listing still being made answers with what it has; the whole answer that follows keeps the selection
// on the same file, so a row chosen with ↓ is not swapped under the person's Enter.
import { useEffect, useRef, useState } from 'react';
import { toApiError } from '../../protocol/api';
import type { FileMatch } from '../../protocol/api.gen';
import { useStore } from '../../store/hooks';
import type { MentionView } from './MentionPicker';
import { insertMention, type MentionToken, mentionAt } from './mentions';

const LIMIT = 50;

export interface Mentions {
  token?: MentionToken;
  view: MentionView;
  /** ↑/↓/Enter/Tab/Esc while the picker shows: true when the key was the picker's. */
  onKey(key: string): boolean;
  pick(m: FileMatch): void;
}

export function useMentions(cwd: string, text: string, caret: number, apply: (text: string, caret: number) => void): Mentions {
  const store = useStore();
  const found = mentionAt(text, caret);
  const [dismissed, setDismissed] = useState<number | undefined>(undefined);
  const token = found !== undefined && dismissed !== found.start ? found : undefined;
  const [result, setResult] = useState<Answer>({ matches: [], query: '', partial: false });
  const [selected, setSelected] = useState(0);
  const asked = useRef(0);
  // What the picker shows now, read when an answer arrives (the effect's closure holds the first render's).
  const shown = useRef({ result, selected });
  shown.current = { result, selected };
  const query = token?.query;
  const outside = found === undefined;
  useEffect(() => {
    if (outside) setDismissed(undefined);
  }, [outside]);

  // The folder is listed as soon as the composer shows, so the first "@" finds the listing ready.
  useEffect(() => {
    if (cwd !== '') void store.lookups.findFiles(cwd, '', 1).catch(() => undefined);
  }, [cwd, store]);

  useEffect(() => {
    if (query === undefined || cwd === '') return;
    const n = ++asked.current;
    // A first listing still being made answers at once with what it has (partial); the whole one follows.
    const ask = (complete: boolean) =>
      store.lookups.findFiles(cwd, query, LIMIT, complete).then(
        (r) => {
          if (n !== asked.current) return;
          const before = shown.current;
          setResult({ matches: r.matches, query, partial: r.partial, ...(r.matches.length === 0 ? { note: emptyNote(query, r.partial) } : {}) });
          setSelected(before.result.query === query ? sameMatch(before.result.matches[before.selected], r.matches) : 0);
          if (r.partial) void ask(true);
        },
        (err: unknown) => {
          if (n === asked.current) setResult({ matches: [], query, partial: false, note: toApiError(err).message });
        },
      );
    void ask(false);
  }, [cwd, query, store]);

  const open = token !== undefined && result.matches.length > 0;
  const pick = (m: FileMatch) => {
    if (token === undefined) return;
    const next = insertMention(text, token, m.path, m.dir);
    apply(next.text, next.caret);
  };
  const view: MentionView =
    token === undefined
      ? { matches: [], selected: 0 }
      : { matches: result.matches, selected, partial: result.partial, ...(result.note !== undefined ? { note: result.note } : {}) };
  return {
    ...(token !== undefined ? { token } : {}),
    view,
    pick,
    onKey(key) {
      if (!open || token === undefined) return false;
      const count = result.matches.length;
      switch (key) {
        case 'ArrowDown':
          setSelected((selected + 1) % count);
          return true;
        case 'ArrowUp':
          setSelected((selected - 1 + count) % count);
          return true;
        case 'Enter':
        case 'Tab': {
          const m = result.matches[Math.min(selected, count - 1)];
          if (m !== undefined) pick(m);
          return true;
        }
        case 'Escape':
          setDismissed(token.start);
          return true;
        default:
          return false;
      }
    },
  };
}

interface Answer {
  matches: FileMatch[];
  note?: string;
  query: string;
  /** The folder was still being listed: more matches may come. */
  partial: boolean;
}

/** Where the match selected before is in a newer answer to the same query (the first row when it is gone). */
function sameMatch(before: FileMatch | undefined, matches: readonly FileMatch[]): number {
  const at = before === undefined ? -1 : matches.findIndex((m) => m.path === before.path && m.dir === before.dir);
  return Math.max(0, at);
}

/** What the picker says when nothing matches: nothing yet while the folder is still being listed. */
function emptyNote(query: string, partial: boolean): string {
  return partial ? 'Listing the folder’s files…' : `No file or folder matches “${query}”.`;
}
