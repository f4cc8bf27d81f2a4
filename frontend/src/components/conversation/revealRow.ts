// Scrolling a transcript to the row a reveal request names (a search hit, a find bar's match), once the list is
// shown and the row is loaded: it stops following the tail, centers the row and marks it. Virtuoso places the
// row from guessed heights and corrects while rows are measured; a list that stands still with the row off
// screen (a busy machine outlasted its corrections) is sent there again, until a deadline.
import { type RefObject, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { VirtuosoHandle } from 'react-virtuoso';
import { useStore } from '../../store/hooks';
import type { ItemKey, SessionState } from '../../store/types';
import { clearHighlight } from './findHighlight';
import { rowAtPosition } from './foundRow';

/** How long the row is sent back into view if it is not there. */
const SETTLE_MS = 3000;

export interface FoundRow {
  key: ItemKey;
  words: readonly string[];
}

function rowInView(scroller: HTMLElement | null, key: ItemKey): boolean {
  if (scroller === null) return false;
  const el = scroller.querySelector(`[data-row="${CSS.escape(key)}"]`);
  if (el === null) return false;
  const a = el.getBoundingClientRect();
  const b = scroller.getBoundingClientRect();
  return a.bottom > b.top && a.top < b.bottom;
}

export function useRevealRow(
  session: SessionState,
  keys: readonly ItemKey[],
  handle: RefObject<VirtuosoHandle | null>,
  scroller: RefObject<HTMLElement | null>,
  shown: boolean,
  leave: () => void,
): FoundRow | undefined {
  const store = useStore();
  const target = useSyncExternalStore(store.reveal.subscribe, store.reveal.current);
  const mine = target?.session === session.id ? target : undefined;
  const [found, setFound] = useState<{ nonce: number; key: ItemKey } | undefined>();
  const handled = useRef(0);
  const leaveNow = useRef(leave);
  leaveNow.current = leave;

  const keysNow = useRef(keys);
  keysNow.current = keys;

  useEffect(() => {
    if (mine === undefined || !shown || handled.current === mine.nonce) return;
    const key = rowAtPosition(session, mine.position, mine.uuid);
    if (key === undefined || !keys.includes(key)) return; // not loaded yet: a later render has it
    handled.current = mine.nonce;
    leaveNow.current();
    setFound({ nonce: mine.nonce, key });
  }, [mine, shown, keys, session]);

  useEffect(() => {
    if (found === undefined) return undefined;
    const scrollThere = () => {
      const index = keysNow.current.indexOf(found.key);
      if (index >= 0) handle.current?.scrollToIndex({ index, align: 'center' });
    };
    scrollThere();
    let frame = 0;
    let last = -1;
    const deadline = Date.now() + SETTLE_MS;
    const look = () => {
      const el = scroller.current;
      if (rowInView(el, found.key) || Date.now() > deadline) return;
      const top = el?.scrollTop ?? 0;
      if (top === last) scrollThere();
      last = top;
      frame = requestAnimationFrame(look);
    };
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
  }, [found, handle, scroller]);

  useEffect(() => {
    if (mine === undefined) clearHighlight();
  }, [mine]);
  // A request this list showed is done with when it goes (another session shown): coming back opens at the tail.
  useEffect(
    () => () => {
      clearHighlight();
      const now = store.reveal.current();
      if (now !== undefined && now.nonce === handled.current) store.reveal.clear(now.session);
    },
    [store],
  );
  const nonce = mine?.nonce;
  const words = mine?.words;
  return useMemo(() => (found !== undefined && found.nonce === nonce && words !== undefined ? { key: found.key, words } : undefined), [found, nonce, words]);
}
