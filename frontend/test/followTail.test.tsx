// Following a transcript's tail (components/conversation/followTail.ts): the person's moves decide it. Scrolling
// up stops it; reaching the bottom resumes it only when the person was moving down, not when a scroll to the end
// asked for before their PageUp lands after it (issue 28, seen under load as a reply pulling the view down).
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useFollowTail } from '../src/components/conversation/followTail';

/** A scroller whose position the test sets; 1000 px of rows, 400 shown. */
function scroller(scrollTop: number) {
  const el = document.createElement('div');
  Object.defineProperty(el, 'scrollHeight', { value: 1000 });
  Object.defineProperty(el, 'clientHeight', { value: 400 });
  el.scrollTop = scrollTop;
  return el;
}

function moveTo(el: HTMLElement, top: number) {
  el.scrollTop = top;
  el.dispatchEvent(new Event('scroll'));
}

describe('useFollowTail', () => {
  it('stops on an up key and is not resumed by a scroll to the end the person did not make', () => {
    const { result } = renderHook(() => useFollowTail({ current: null }, () => undefined));
    const el = scroller(600);
    act(() => result.current.scroller(el));
    act(() => {
      el.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageUp' }));
    });
    expect(result.current.following).toBe(false);
    act(() => moveTo(el, 600)); // the earlier scroll to the end lands
    expect(result.current.following).toBe(false);
    act(() => moveTo(el, 250)); // PageUp's own scroll
    expect(result.current.following).toBe(false);
  });

  it('resumes once the person scrolls down to the bottom again', () => {
    const { result } = renderHook(() => useFollowTail({ current: null }, () => undefined));
    const el = scroller(600);
    act(() => result.current.scroller(el));
    act(() => {
      el.dispatchEvent(new WheelEvent('wheel', { deltaY: -100 }));
      moveTo(el, 500);
    });
    expect(result.current.following).toBe(false);
    act(() => {
      el.dispatchEvent(new WheelEvent('wheel', { deltaY: 100 }));
      moveTo(el, 600);
    });
    expect(result.current.following).toBe(true);
  });
});
