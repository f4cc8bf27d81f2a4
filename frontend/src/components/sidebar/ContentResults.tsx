// The sidebar's second list while filtering: sessions whose content (prompts, replies, thinking, tool calls and
// their output, subagents, turns before a compaction) holds every word typed, with the matching text highlighted.
// Titles stay the first list's; a click opens the session. A range keeps the hits of the last days only.
import { useEffect, useState } from 'react';
import type { SearchHit } from '../../protocol/api';
import { useStore } from '../../store/hooks';
import { revealPosition } from '../../store/reveal';
import { projectName } from '../../store/sidebar';
import { sinceDay } from '../usage/usageTable';

/** The shortest word the index finds (a trigram). */
const MIN_CHARS = 3;

const RANGES: Array<[number | undefined, string]> = [
  [undefined, 'Any time'],
  [1, 'Today'],
  [7, 'Last 7 days'],
  [30, 'Last 30 days'],
  [365, 'Last year'],
];

export function ContentResults({ text, project }: { text: string; project: string }) {
  const store = useStore();
  const query = text.trim();
  const [days, setDays] = useState<number | undefined>();
  const asked = `${days ?? ''}:${query}`;
  const [found, setFound] = useState<{ asked: string; hits: SearchHit[]; error?: string }>({ asked: '', hits: [] });
  useEffect(() => {
    if (query.length < MIN_CHARS) return;
    let current = true; // a later query's answer replaces this one's, whichever arrives first
    const key = `${days ?? ''}:${query}`;
    store.lookups.searchSessions(query, project, sinceDay(days)).then(
      (res) => current && setFound({ asked: key, hits: res.hits }),
      (err: unknown) => current && setFound({ asked: key, hits: [], error: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      current = false;
    };
  }, [store, query, project, days]);
  // A past session opens from what the sidebar knows of it, else from the hit; at the hit, paging back to it.
  const open = (h: SearchHit) => {
    const known = store.getState().sidebar.items.find((x) => x.session === h.session);
    store.select(h.session, known ?? { session: h.session, title: h.title, cwd: h.cwd, lastModified: 0, live: false, pinned: false, archived: false });
    void revealPosition(store, { session: h.session, position: h.position, ...(h.uuid !== undefined ? { uuid: h.uuid } : {}), words: query.split(/\s+/) });
  };
  if (query.length < MIN_CHARS) return null;
  const ready = found.asked === asked;
  return (
    <section className="content-results" aria-label="Found in sessions" data-testid="content-results">
      <div className="content-results-head muted small">
        <span>{!ready ? 'Searching…' : (found.error ?? (found.hits.length === 0 ? 'No message holds that.' : 'In messages'))}</span>
        <select
          aria-label="When"
          value={days ?? ''}
          onChange={(e) => setDays(e.target.value === '' ? undefined : Number(e.target.value))}
          data-testid="content-range"
        >
          {RANGES.map(([d, label]) => (
            <option key={label} value={d ?? ''}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <ul>
        {(ready ? found.hits : []).map((h) => (
          <li key={`${h.session}:${h.position}`}>
            <button type="button" className="content-hit" data-testid="content-hit" title={h.cwd} onClick={() => open(h)}>
              <span className="content-hit-title">{h.title !== '' ? h.title : projectName(h.cwd)}</span>
              <span className="muted small"> · {h.subagent === true ? `agent ${h.role}` : h.role}</span>
              <Snippet hit={h} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The snippet with its matches marked. */
function Snippet({ hit }: { hit: SearchHit }) {
  const bytes = new TextEncoder().encode(hit.snippet);
  const decode = (from: number, to: number) => new TextDecoder().decode(bytes.slice(from, to));
  const parts: Array<{ text: string; mark: boolean }> = [];
  let at = 0;
  for (const m of hit.marks) {
    if (m.start < at) continue;
    parts.push({ text: decode(at, m.start), mark: false }, { text: decode(m.start, m.end), mark: true });
    at = m.end;
  }
  parts.push({ text: decode(at, bytes.length), mark: false });
  return (
    <span className="content-hit-snippet" data-testid="content-hit-snippet">
      {parts.map((p, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder.
        p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
      )}
    </span>
  );
}
