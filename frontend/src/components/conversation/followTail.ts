// Following the tail of a transcript: new rows and a growing reply keep the view at its bottom until the person
// scrolls up, and only reaching the bottom again resumes it. The person's intent is read from their input (a
// wheel or trackpad turned up, an up key, dragging the scrollbar or a touch), never from where the list happens
// to be: Virtuoso's own at-bottom state counts a view within its threshold as at the bottom, and a reply that
// grew since the last frame as not, so a slow scroll up was pulled back down (issue 28).
import { type RefObject, useCallback, useRef, useState } from 'react';
import type { VirtuosoHandle } from 'react-virtuoso';

/** How far above its bottom (px) the list may be and still count as at it (sub-pixel rounding). */
const BOTTOM_SLACK_PX = 2;

/** Keys that scroll a focused list up. */
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

/** Keys that scroll a focused list down. */
const DOWN_KEYS = new Set(['ArrowDown', 'PageDown', 'End']);

/** Whether a key press scrolls down: a down key, or Space. */
function scrollsDown(e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  return DOWN_KEYS.has(e.key) || (e.key === ' ' && !e.shiftKey);
}

/** Whether a key press scrolls up: an up key, or Shift+Space. */
export function scrollsUp(e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  return UP_KEYS.has(e.key) || (e.key === ' ' && e.shiftKey);
}

/** Whether a scroller's view is at its bottom. */
export function atBottom(el: Pick<HTMLElement, 'scrollTop' | 'scrollHeight' | 'clientHeight'>): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
}

export interface FollowTail {
  /** Whether the view follows the tail (false once the person scrolled up, until they are back at the bottom). */
  following: boolean;
  /** Read by Virtuoso's followOutput: the value now, not the one of the last render. */
  follows: () => boolean;
  /** Virtuoso's scrollerRef (composed with the opening's). */
  scroller: (el: HTMLElement | Window | null) => void;
  /** Virtuoso's totalListHeightChanged: a growing reply is followed. */
  grew: () => void;
  /** Back to the bottom, following again (the Jump to latest button). */
  jump: () => void;
  /** Stops following, as scrolling up does (the view is sent to a search hit). */
  leave: () => void;
}

export function useFollowTail(handle: RefObject<VirtuosoHandle | null>, onLeave: () => void): FollowTail {
  const [following, setFollowing] = useState(true);
  const now = useRef(true);
  const leave = useRef(onLeave);
  leave.current = onLeave;
  const set = useCallback((v: boolean) => {
    if (now.current === v) return;
    now.current = v;
    if (!v) leave.current();
    setFollowing(v);
  }, []);
  const detach = useRef<(() => void) | undefined>(undefined);

  const scroller = useCallback(
    (target: HTMLElement | Window | null) => {
      detach.current?.();
      detach.current = undefined;
      if (!(target instanceof HTMLElement)) return;
      const el = target;
      // A drag of the scrollbar (a press on the scroller itself, not on a row) or a touch: where it leaves the
      // view is where the person put it.
      let dragging = false;
      // Whether the person's last move was up: reaching the bottom then is not theirs (a scroll to the end asked
      // for just before they pressed PageUp lands after it), so it does not resume following.
      let wentUp = false;
      const onWheel = (e: WheelEvent) => {
        if (e.deltaY < 0) up();
        else if (e.deltaY > 0) wentUp = false;
      };
      const onKey = (e: KeyboardEvent) => {
        if (scrollsUp(e)) up();
        else if (scrollsDown(e)) wentUp = false;
      };
      const up = () => {
        wentUp = true;
        set(false);
      };
      const onPress = (e: PointerEvent) => {
        if (e.target === el) {
          dragging = true;
          wentUp = false;
        }
      };
      const onTouch = () => {
        dragging = true;
        wentUp = false;
      };
      const onRelease = () => {
        dragging = false;
      };
      const onScroll = () => {
        if (atBottom(el)) {
          if (!wentUp) set(true);
        } else if (dragging) set(false);
      };
      el.addEventListener('wheel', onWheel, { passive: true });
      el.addEventListener('keydown', onKey);
      el.addEventListener('pointerdown', onPress);
      el.addEventListener('touchstart', onTouch, { passive: true });
      window.addEventListener('pointerup', onRelease);
      window.addEventListener('touchend', onRelease);
      el.addEventListener('scroll', onScroll, { passive: true });
      detach.current = () => {
        el.removeEventListener('wheel', onWheel);
        el.removeEventListener('keydown', onKey);
        el.removeEventListener('pointerdown', onPress);
        el.removeEventListener('touchstart', onTouch);
        window.removeEventListener('pointerup', onRelease);
        window.removeEventListener('touchend', onRelease);
        el.removeEventListener('scroll', onScroll);
      };
    },
    [set],
  );

  const follows = useCallback(() => now.current, []);
  const grew = useCallback(() => {
    if (now.current) handle.current?.scrollToIndex({ index: 'LAST', align: 'end' });
  }, [handle]);
  const jump = useCallback(() => {
    set(true);
    handle.current?.scrollToIndex({ index: 'LAST', align: 'end' });
  }, [handle, set]);

  const leaveTail = useCallback(() => set(false), [set]);

  return { following, follows, scroller, grew, jump, leave: leaveTail };
}
