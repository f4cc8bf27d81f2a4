// The transcript, virtualized: only the rows on screen are mounted, so a 10,000-message session opens at its
// tail at once and scrolls smoothly. Older history pages load when the top is reached and are prepended
// without moving what is on screen (firstItemIndex).
import { useCallback, useMemo, useRef } from 'react';
import { type ItemProps, Virtuoso } from 'react-virtuoso';
import { indexBusy } from '../../protocol/hostState';
import { useConsole, useStore } from '../../store/hooks';
import { indexLabel } from '../sidebar/IndexStatus';
import type { ItemKey, SessionState } from '../../store/types';
import { lookupItem } from './lookup';
import { useFollowTail } from './followTail';
import { countNewMessages, jumpLabel } from './newMessages';
import { FindBar } from './FindBar';
import { highlightWords } from './findHighlight';
import { useOpenAtTail } from './openAtTail';
import { type FoundRow, useRevealRow } from './revealRow';
import { Row } from './Row';

/** Virtuoso counts prepended rows down from here; it only has to stay positive. */
const FIRST_INDEX = 10_000_000;

/** A typical row's height (a prompt, a reply, a tool card, a turn's end) before it is measured. Without it
 * Virtuoso measures the first row alone and sizes every other by it; a session's first row is a one-line notice,
 * so the tail was first placed with rows a quarter of their height and four times too many were rendered there. */
const ROW_HEIGHT_GUESS = 120;

interface HeaderContext {
  loading: boolean;
  exhausted: boolean;
  /** Stored history was loaded above the live part. */
  hasHistory: boolean;
  error?: string;
  retry: () => void;
  /** The row a search hit or the find bar sent the list to, marked, with its words. */
  found?: FoundRow;
}

function HistoryHeader({ context }: { context?: HeaderContext }) {
  if (context === undefined) return null;
  if (context.error !== undefined) {
    return (
      <div className="history-status error" role="alert">
        Could not load older messages: {context.error}{' '}
        <button type="button" className="link" onClick={context.retry}>
          Retry
        </button>
      </div>
    );
  }
  if (context.loading) return <div className="history-status">Loading older messages…</div>;
  if (!context.exhausted) return <div className="history-status muted">Scroll up for older messages</div>;
  return context.hasHistory ? <div className="history-status muted">Beginning of the session</div> : <div className="transcript-footer" />;
}

/** A stored session whose first page is on its way: while the index builds, it is being read from its transcript. */
function NotReady({ id }: { id: string }) {
  const index = useConsole((s) => s.index);
  if (!indexBusy(index)) return <div className="conversation empty muted">Loading the session…</div>;
  return (
    <div className="conversation empty muted" role="status" data-testid="conversation-reading">
      <p>Reading this session from its transcript…</p>
      <p>{index.first === id ? 'Baton indexes it ahead of the other sessions.' : indexLabel(index)}</p>
    </div>
  );
}

function Footer() {
  return <div className="transcript-footer" />;
}

/** A row's box: named by its key, and marked when it is the one found. */
function Item({ item, context, ...props }: ItemProps<ItemKey> & { context?: HeaderContext }) {
  const found = context?.found;
  const mark = found !== undefined && found.key === item;
  return (
    <div
      {...props}
      data-row={item}
      data-found={mark ? 'true' : undefined}
      className={mark ? 'row-found' : undefined}
      ref={
        mark
          ? (el) => {
              if (el !== null) highlightWords(el, found.words);
            }
          : undefined
      }
    />
  );
}

const components = { Header: HistoryHeader, Footer, Item };

export function Conversation({ session }: { session: SessionState }) {
  const store = useStore();
  const historyRows = session.history.transcript.rows;
  const liveRows = session.transcript.rows;
  const keys = useMemo<ItemKey[]>(() => (historyRows.length === 0 ? liveRows : [...historyRows, ...liveRows]), [historyRows, liveRows]);
  const history = session.history;
  const id = session.id;
  const loadOlder = useCallback(() => {
    void store.loadHistory(id);
  }, [store, id]);
  const context = useMemo<HeaderContext>(
    () => ({
      loading: history.loading,
      exhausted: history.exhausted,
      hasHistory: history.total > 0,
      ...(history.error !== undefined ? { error: history.error } : {}),
      retry: loadOlder,
    }),
    [history.loading, history.exhausted, history.total, history.error, loadOlder],
  );
  const ready = session.live || history.exhausted || history.events.length > 0 || history.error !== undefined;
  if (!ready) return <NotReady id={id} />;
  if (keys.length === 0 && history.exhausted) {
    return (
      <div className="conversation empty" data-testid="conversation-empty">
        <p className="muted">Write a prompt below to begin. Enter sends, Shift+Enter adds a line.</p>
      </div>
    );
  }
  const startReached = () => {
    if (!history.exhausted && !history.loading) loadOlder();
  };
  const isMessage = (key: ItemKey) => {
    const type = lookupItem(session, key)?.type;
    return type === 'user' || type === 'assistant';
  };
  return (
    <Transcript key={id} session={session} keys={keys} prepended={historyRows.length} context={context} startReached={startReached} isMessage={isMessage} />
  );
}

interface TranscriptProps {
  session: SessionState;
  keys: ItemKey[];
  /** Rows of stored history above the live part. */
  prepended: number;
  context: HeaderContext;
  startReached: () => void;
  /** Whether the row is a message the Latest button counts. */
  isMessage: (key: ItemKey) => boolean;
}

/** One session's list, mounted afresh for each session so each opens at its own tail. */
function Transcript({ session, keys, prepended, context: header, startReached, isMessage }: TranscriptProps) {
  const opening = useOpenAtTail(keys);
  // The last row there was when the person left the bottom: what came after it is new.
  const leftAt = useRef<ItemKey | undefined>(undefined);
  const keysNow = useRef(keys);
  keysNow.current = keys;
  const follow = useFollowTail(opening.handle, () => {
    leftAt.current = keysNow.current[keysNow.current.length - 1];
  });
  const fresh = follow.following ? 0 : countNewMessages(keys, leftAt.current, isMessage);
  const scrollerEl = useRef<HTMLElement | null>(null);
  const scroller = useCallback(
    (el: HTMLElement | Window | null) => {
      scrollerEl.current = el instanceof HTMLElement ? el : null;
      opening.scroller(el);
      follow.scroller(el);
    },
    [opening.scroller, follow.scroller],
  );
  const found = useRevealRow(session, keys, opening.handle, scrollerEl, opening.shown, follow.leave);
  const context = useMemo<HeaderContext>(() => (found === undefined ? header : { ...header, found }), [header, found]);
  return (
    <div className="conversation" data-testid="conversation">
      <FindBar session={session.id} />
      <Virtuoso<ItemKey, HeaderContext>
        ref={opening.attach}
        scrollerRef={scroller}
        className={opening.shown ? 'transcript' : 'transcript opening'}
        data={keys}
        context={context}
        components={components}
        firstItemIndex={FIRST_INDEX - prepended}
        defaultItemHeight={ROW_HEIGHT_GUESS}
        computeItemKey={(_, key) => key}
        itemContent={(_, key) => <Row itemKey={key} />}
        followOutput={() => (follow.follows() ? 'auto' : false)}
        totalListHeightChanged={follow.grew}
        itemsRendered={opening.itemsRendered}
        startReached={startReached}
        increaseViewportBy={{ top: 600, bottom: 300 }}
      />
      {opening.shown && !follow.following && (
        <button type="button" className="jump-latest" data-testid="jump-latest" onClick={follow.jump}>
          ↓ {jumpLabel(fresh)}
        </button>
      )}
    </div>
  );
}
