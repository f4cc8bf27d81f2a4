// The theme on the document's root: the OS's while Settings say "system" (and as it changes), Settings' own
// choice otherwise. app.css keeps one dark palette, read from data-theme.
import { act } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../src/protocol/api';
import { settle } from './fakeTransport';
import { renderConsole } from './render';

/** A stand-in for the OS's colour scheme: matchMedia whose answer the test sets, telling its listeners. */
function fakeOsScheme(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return dark;
    },
    addEventListener: (_: string, f: () => void) => listeners.add(f),
    removeEventListener: (_: string, f: () => void) => listeners.delete(f),
  };
  window.matchMedia = (() => query) as unknown as typeof window.matchMedia;
  return (next: boolean) => {
    dark = next;
    for (const f of listeners) f();
  };
}

const settings = (theme: Settings['theme']): Settings => ({
  defaultModel: '',
  defaultPermissionMode: 'default',
  theme,
  notifications: false,
  sessionIdleSeconds: 600,
  worktrees: { startInWorktree: false, branchPrefix: 'baton/' },
});

afterEach(() => {
  delete document.documentElement.dataset['theme'];
});

describe('the theme', () => {
  it('follows the OS under "system", as the OS changes', async () => {
    const setOs = fakeOsScheme(true);
    await renderConsole((t) => t.on('getSettings', () => settings('system')));
    expect(document.documentElement.dataset['theme']).toBe('dark');
    act(() => setOs(false));
    expect(document.documentElement.dataset['theme']).toBe('light');
  });

  it('keeps the one Settings chose whatever the OS says', async () => {
    const setOs = fakeOsScheme(true);
    await renderConsole((t) => t.on('getSettings', () => settings('light')));
    await act(() => settle());
    expect(document.documentElement.dataset['theme']).toBe('light');
    act(() => setOs(true));
    expect(document.documentElement.dataset['theme']).toBe('light');
  });
});
