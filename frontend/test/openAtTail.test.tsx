// Opening a transcript at its tail (components/conversation/openAtTail.ts): when the list counts as showing its
// tail, when it is sent there again, and that the hook scrolls the list it is given and shows it only there.
import { act, renderHook } from '@testing-library/react';
import type { ListItem, VirtuosoHandle } from 'react-virtuoso';
import { describe, expect, it, vi } from 'vitest';
import { atTail, type OpeningView, openingStep, useOpenAtTail } from '../src/components/conversation/openAtTail';

const KEYS = ['l1', 'l2', 'l3'];
const LAST = 'l3';

function view(over: Partial<OpeningView> = {}): OpeningView {
  // At its bottom: 2000 px of rows, 700 px shown, scrolled to 1300.
  return { rendered: ['l2', 'l3'], scrollTop: 1300, scrollHeight: 2000, clientHeight: 700, ...over };
}

describe('atTail', () => {
  it('holds for a list at its bottom with the last row rendered, sub-pixel rounding allowed', () => {
    expect(atTail(view(), LAST)).toBe(true);
    expect(atTail(view({ scrollTop: 1298.5 }), LAST)).toBe(true);
  });

  it('does not hold for a list just mounted: at its bottom, but no row rendered yet', () => {
    expect(atTail(view({ rendered: [], scrollTop: 0, scrollHeight: 700 }), LAST)).toBe(false);
  });

  it('does not hold at a bottom guessed from unmeasured rows, before the last row is rendered', () => {
    expect(atTail(view({ rendered: ['l1', 'l2'] }), LAST)).toBe(false);
  });

  it('does not hold short of the bottom, or for a list not laid out', () => {
    expect(atTail(view({ scrollTop: 1059 }), LAST)).toBe(false);
    expect(atTail(view({ clientHeight: 0, scrollHeight: 0, scrollTop: 0 }), LAST)).toBe(false);
  });

  it('holds for an empty list', () => {
    expect(atTail(view({ rendered: [] }), undefined)).toBe(true);
  });
});

describe('openingStep', () => {
  it('shows the list at its tail', () => {
    expect(openingStep(view(), undefined, LAST)).toBe('show');
  });

  it('waits while the list moves, and sends it to its tail again once it stands still short of it', () => {
    const rendered = ['l2', 'l3'];
    const short = view({ rendered, scrollTop: 1059 });
    expect(openingStep(short, undefined, LAST)).toBe('wait');
    expect(openingStep(short, view({ rendered, scrollTop: 900 }), LAST)).toBe('wait');
    expect(openingStep(short, view({ rendered, scrollTop: 1059, scrollHeight: 1900 }), LAST)).toBe('wait');
    expect(openingStep(short, { ...short }, LAST)).toBe('scroll');
  });
});

/** A scroller whose geometry the test sets (happy-dom lays nothing out). */
function scrollerAt(geometry: { scrollTop: number; scrollHeight: number; clientHeight: number }): HTMLElement {
  const el = document.createElement('div');
  Object.defineProperty(el, 'scrollHeight', { get: () => geometry.scrollHeight });
  Object.defineProperty(el, 'clientHeight', { get: () => geometry.clientHeight });
  Object.defineProperty(el, 'scrollTop', { get: () => geometry.scrollTop, set: (v: number) => (geometry.scrollTop = v) });
  return el;
}

const rendered = (keys: string[]): ListItem<string>[] =>
  keys.map((data, i) => ({ type: undefined, index: i, originalIndex: i, offset: i * 100, size: 100, data }) as ListItem<string>);

const frame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

function fakeHandle() {
  const scrollToIndex = vi.fn();
  return { handle: { scrollToIndex } as unknown as VirtuosoHandle, scrollToIndex };
}

describe('useOpenAtTail', () => {
  it('scrolls the list to its last row as soon as the list exists, however late it mounts', () => {
    const { result } = renderHook(() => useOpenAtTail(KEYS));
    expect(result.current.shown).toBe(false);
    const { handle, scrollToIndex } = fakeHandle();
    act(() => result.current.attach(handle));
    expect(scrollToIndex).toHaveBeenCalledWith({ index: 'LAST', align: 'end' });
    expect(result.current.handle.current).toBe(handle);
  });

  it('shows the list only once it is at its bottom with the last row rendered', async () => {
    const geometry = { scrollTop: 0, scrollHeight: 700, clientHeight: 700 };
    const { result } = renderHook(() => useOpenAtTail(KEYS));
    act(() => result.current.scroller(scrollerAt(geometry)));
    await frame();
    await frame();
    expect(result.current.shown).toBe(false);
    act(() => result.current.itemsRendered(rendered(['l2', 'l3'])));
    geometry.scrollHeight = 2000;
    geometry.scrollTop = 1300;
    await frame();
    await frame();
    expect(result.current.shown).toBe(true);
  });

  it('sends a list that stands still short of its tail there again', async () => {
    const geometry = { scrollTop: 1059, scrollHeight: 2000, clientHeight: 700 };
    const { result } = renderHook(() => useOpenAtTail(KEYS));
    const { handle, scrollToIndex } = fakeHandle();
    act(() => {
      result.current.attach(handle);
      result.current.scroller(scrollerAt(geometry));
      result.current.itemsRendered(rendered(['l2', 'l3']));
    });
    expect(scrollToIndex).toHaveBeenCalledTimes(1);
    await frame();
    await frame();
    await frame();
    expect(scrollToIndex.mock.calls.length).toBeGreaterThan(1);
    expect(result.current.shown).toBe(false);
  });

  it('shows an empty list at once and scrolls nothing', () => {
    const { result } = renderHook(() => useOpenAtTail([]));
    expect(result.current.shown).toBe(true);
    const { handle, scrollToIndex } = fakeHandle();
    act(() => result.current.attach(handle));
    expect(scrollToIndex).not.toHaveBeenCalled();
  });

  it('scrolls to the tail for the first handle only: Virtuoso hands a new one at each render (issue 28)', () => {
    const { result } = renderHook(() => useOpenAtTail(KEYS));
    const first = fakeHandle();
    const again = fakeHandle();
    act(() => result.current.attach(first.handle));
    act(() => {
      result.current.attach(null);
      result.current.attach(again.handle);
    });
    expect(first.scrollToIndex).toHaveBeenCalledTimes(1);
    expect(again.scrollToIndex).not.toHaveBeenCalled();
    expect(result.current.handle.current).toBe(again.handle);
  });
});
