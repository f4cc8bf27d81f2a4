// Window-wide keyboard shortcuts. Keys typed into a field belong to the field, except the few that work
// everywhere (Ctrl+K, Ctrl+B, Alt+N, Alt+arrows, F1).
import { useEffect } from 'react';

export interface ShortcutHandlers {
  newSession(): void;
  focusFilter(): void;
  focusComposer(): void;
  cancelTurn(): void;
  moveSelection(delta: number): void;
  toggleSidebar(): void;
  help(): void;
}

function inField(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

function inDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('[role="dialog"]') !== null;
}

export function handleShortcut(e: KeyboardEvent, h: ShortcutHandlers): boolean {
  const mod = e.ctrlKey || e.metaKey;
  if (mod && !e.altKey && e.key.toLowerCase() === 'k') {
    h.focusFilter();
    return true;
  }
  if (mod && !e.altKey && e.key.toLowerCase() === 'b') {
    h.toggleSidebar();
    return true;
  }
  if (mod && !e.altKey && e.key.toLowerCase() === 'l') {
    h.focusComposer();
    return true;
  }
  if (e.altKey && !mod && (e.key.toLowerCase() === 'n' || e.code === 'KeyN')) {
    h.newSession();
    return true;
  }
  if (e.altKey && !mod && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
    h.moveSelection(e.key === 'ArrowUp' ? -1 : 1);
    return true;
  }
  if (e.key === 'F1' || (e.key === '?' && !inField(e.target))) {
    h.help();
    return true;
  }
  if (e.key === 'Escape' && !inField(e.target) && !inDialog(e.target)) {
    h.cancelTurn();
    return true;
  }
  return false;
}

export function useShortcuts(handlers: ShortcutHandlers): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      if (handleShortcut(e, handlers)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [handlers]);
}
