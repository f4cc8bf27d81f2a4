// Opening a virtualized transcript at its tail. Virtuoso's own way (initialTopMostItemIndex) waits four frames
// before it scrolls, then keeps the list hidden until no row has changed size for 150 ms: about a quarter of a
// second on every open, whatever the length, and under load it could leave the list hidden for good. Instead the
// transcript scrolls to its last row as soon as the list exists (Virtuoso corrects the position while rows are
// measured) and stays hidden only until it is at its bottom with the last row rendered, so nobody sees its first
// rows or a position still being corrected. Virtuoso's atBottomStateChange comes up to 50 ms late (it is
// throttled), so the bottom is read from the scroller, once a frame while opening. Virtuoso stops correcting
// when no row changed size within 150 ms of its scroll, which a busy machine can outlast with the list short of
// its bottom: a list that stands still short of its tail is sent there again.
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { ListItem, VirtuosoHandle } from 'react-virtuoso';
import type { ItemKey } from '../../store/types';

/** Shown anyway after this long, so a list that never reaches its bottom is never left hidden. */
export const OPENING_DEADLINE_MS = 1000;

/** How far above its bottom the list may be and still show its tail (sub-pixel rounding). */
const BOTTOM_SLACK_PX = 2;

/** What the opening list looks like now. */
export interface OpeningView {
  /** Keys of the rows rendered (Virtuoso's itemsRendered), the overscan included. */
  rendered: readonly ItemKey[];
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

/** Whether the list shows its tail: scrolled to its bottom with the last row among those rendered. An empty list
 * shows its tail; a list at its bottom before its last row is rendered (just mounted, or scrolled to a bottom
 * guessed from unmeasured rows) does not. */
export function atTail(view: OpeningView, last: ItemKey | undefined): boolean {
  if (last === undefined) return true;
  if (view.clientHeight <= 0 || !view.rendered.includes(last)) return false;
  return view.scrollHeight - view.scrollTop - view.clientHeight <= BOTTOM_SLACK_PX;
}

function sameView(a: OpeningView, b: OpeningView): boolean {
  return a.scrollTop === b.scrollTop && a.scrollHeight === b.scrollHeight && a.clientHeight === b.clientHeight && a.rendered === b.rendered;
}

/** What to do at a frame while opening: show the list at its tail, send it to its tail again (it stood still
 * short of it since the frame before), or wait for the scroll in progress. */
export function openingStep(view: OpeningView, before: OpeningView | undefined, last: ItemKey | undefined): 'show' | 'scroll' | 'wait' {
  if (atTail(view, last)) return 'show';
  return before !== undefined && sameView(view, before) ? 'scroll' : 'wait';
}

export interface OpenAtTail {
  /** False until the list is at its tail (or the deadline passed): the transcript is hidden meanwhile. */
  shown: boolean;
  /** The ref for the Virtuoso: scrolls to the last row as soon as the list exists. */
  attach: (handle: VirtuosoHandle | null) => void;
  /** Virtuoso's scrollerRef. */
  scroller: (el: HTMLElement | Window | null) => void;
  /** Virtuoso's itemsRendered. */
  itemsRendered: (items: ListItem<ItemKey>[]) => void;
  /** The mounted list, for later scrolls (the Latest button). */
  handle: RefObject<VirtuosoHandle | null>;
}

/** Opening at the tail for one mounted list (mount it with a key per session, so each opens afresh). */
export function useOpenAtTail(keys: readonly ItemKey[]): OpenAtTail {
  const last = keys[keys.length - 1];
  const lastRef = useRef(last);
  lastRef.current = last;
  const [shown, setShown] = useState(last === undefined);
  const rendered = useRef<readonly ItemKey[]>([]);
  const scrollerEl = useRef<HTMLElement | null>(null);
  const handle = useRef<VirtuosoHandle | null>(null);

  // Virtuoso hands its ref a new handle at every render of the list (a null, then the handle): only the first
  // one scrolls, or each re-render (the person scrolling away from the bottom re-renders it) sent the list back
  // to its tail, pinning it there (issue 28).
  const opened = useRef(false);
  const attach = useCallback((h: VirtuosoHandle | null) => {
    handle.current = h;
    if (h === null || opened.current) return;
    opened.current = true;
    if (lastRef.current !== undefined) h.scrollToIndex({ index: 'LAST', align: 'end' });
  }, []);

  const scroller = useCallback((el: HTMLElement | Window | null) => {
    scrollerEl.current = el instanceof HTMLElement ? el : null;
  }, []);

  const itemsRendered = useCallback((items: ListItem<ItemKey>[]) => {
    const keys: ItemKey[] = [];
    for (const item of items) if (item.data !== undefined) keys.push(item.data);
    rendered.current = keys;
  }, []);

  useEffect(() => {
    if (shown) return undefined;
    let frame = 0;
    let before: OpeningView | undefined;
    const look = () => {
      const el = scrollerEl.current;
      const view: OpeningView = {
        rendered: rendered.current,
        scrollTop: el?.scrollTop ?? 0,
        scrollHeight: el?.scrollHeight ?? 0,
        clientHeight: el?.clientHeight ?? 0,
      };
      const step = openingStep(view, before, lastRef.current);
      if (step === 'show') {
        // Now, inside this frame, so the frame that finds the tail is the one that paints it.
        flushSync(() => setShown(true));
        return;
      }
      if (step === 'scroll') handle.current?.scrollToIndex({ index: 'LAST', align: 'end' });
      before = view;
      frame = requestAnimationFrame(look);
    };
    frame = requestAnimationFrame(look);
    const deadline = setTimeout(() => setShown(true), OPENING_DEADLINE_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(deadline);
    };
  }, [shown]);

  return { shown, attach, scroller, itemsRendered, handle };
}
