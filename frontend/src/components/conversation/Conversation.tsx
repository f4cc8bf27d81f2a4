// The transcript, virtualized: only the rows on screen are mounted, so a 10,000-message session opens at its
// tail at once and scrolls smoothly. Older history pages load when the top is reached and are prepended
// without moving what is on screen (firstItemIndex).
import { useCallback, useMemo, useRef, useState } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { useStore } from '../../store/hooks';
import type { ItemKey, SessionState } from '../../store/types';
import { Row } from './Row';

/** Virtuoso counts prepended rows down from here; it only has to stay positive. */
const FIRST_INDEX = 10_000_000;

interface HeaderContext {
  loading: boolean;
  exhausted: boolean;
  /** Stored history was loaded above the live part. */
  hasHistory: boolean;
  error?: string;
  retry: () => void;
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

function Footer() {
  return <div className="transcript-footer" />;
}

const components = { Header: HistoryHeader, Footer };

export function Conversation({ session }: { session: SessionState }) {
  const store = useStore();
  const ref = useRef<VirtuosoHandle>(null);
  const [atBottom, setAtBottom] = useState(true);
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
  if (!ready) return <div className="conversation empty muted">Loading the session…</div>;
  if (keys.length === 0 && history.exhausted) {
    return (
      <div className="conversation empty" data-testid="conversation-empty">
        <p className="muted">Write a prompt below to begin. Enter sends, Shift+Enter adds a line.</p>
      </div>
    );
  }
  return (
    <div className="conversation" data-testid="conversation">
      <Virtuoso<ItemKey, HeaderContext>
        key={id}
        ref={ref}
        className="transcript"
        data={keys}
        context={context}
        components={components}
        firstItemIndex={FIRST_INDEX - historyRows.length}
        initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
        computeItemKey={(_, key) => key}
        itemContent={(_, key) => <Row itemKey={key} />}
        followOutput={(bottom) => (bottom ? 'auto' : false)}
        atBottomStateChange={setAtBottom}
        atBottomThreshold={48}
        startReached={() => {
          if (!history.exhausted && !history.loading) loadOlder();
        }}
        increaseViewportBy={{ top: 600, bottom: 300 }}
      />
      {!atBottom && (
        <button type="button" className="jump-latest" onClick={() => ref.current?.scrollToIndex({ index: 'LAST', align: 'end' })}>
          ↓ Latest
        </button>
      )}
    </div>
  );
}
