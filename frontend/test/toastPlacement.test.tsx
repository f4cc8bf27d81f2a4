// Toasts sit above the composer, never over it: at 900×700 the worktree's notice covered the prompt and Send
// (issue 28, item 10), and older notices stayed up while newer ones came. The composer's top is stubbed (jsdom lays
// nothing out).
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INFO_TOAST_MS, Toasts } from '../src/components/shell/Toasts';
import { clearanceAbove, TOAST_GAP } from '../src/components/shell/useComposerClearance';
import { StoreProvider } from '../src/store/hooks';
import { ConsoleStore } from '../src/store/store';
import { FakeTransport } from './fakeTransport';

const { innerHeight } = window;

afterEach(() => {
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: innerHeight });
  document.body.innerHTML = '';
});

/** A composer area whose top edge is at `top` px in a window `height` px tall. */
function composerAt(top: number, height: number): HTMLElement {
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: height });
  const area = document.createElement('div');
  area.className = 'composer-area';
  area.getBoundingClientRect = () => ({ top, bottom: height, left: 0, right: 900, width: 900, height: height - top, x: 0, y: top, toJSON: () => ({}) });
  document.body.append(area);
  return area;
}

describe('toast placement', () => {
  it('puts the toasts above the composer of a 900×700 window', () => {
    composerAt(540, 700);
    const store = new ConsoleStore(new FakeTransport(), { schedule: (flush) => flush(), isForeground: () => true });
    render(
      <StoreProvider store={store}>
        <Toasts />
      </StoreProvider>,
    );
    act(() => store.toast('info', 'Started in the worktree /p/.claude/worktrees/a (new branch baton/a, base main)'));
    const toasts = screen.getByTestId('toasts');
    // 160 px of composer, and half a gap above it.
    expect(toasts.style.bottom).toBe(`${160 + TOAST_GAP / 2}px`);
  });

  it('lets each notice go 6 s after it came, however many came after it', () => {
    vi.useFakeTimers();
    try {
      const store = new ConsoleStore(new FakeTransport(), { schedule: (flush) => flush(), isForeground: () => true });
      render(
        <StoreProvider store={store}>
          <Toasts />
        </StoreProvider>,
      );
      act(() => store.toast('info', 'first'));
      act(() => vi.advanceTimersByTime(INFO_TOAST_MS - 1000));
      act(() => store.toast('info', 'second'));
      act(() => vi.advanceTimersByTime(1000));
      expect(screen.getAllByTestId('toast').map((t) => t.textContent)).toEqual(['second×']);
      act(() => vi.advanceTimersByTime(INFO_TOAST_MS));
      expect(screen.queryByTestId('toast')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the window-edge gap without a composer, and never less', () => {
    expect(clearanceAbove(undefined, 700)).toBe(TOAST_GAP);
    expect(clearanceAbove(700, 700)).toBe(TOAST_GAP);
    expect(clearanceAbove(400, 700)).toBe(300 + TOAST_GAP / 2);
  });
});
