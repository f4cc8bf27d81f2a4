// The session header's "Terminal" button; Ctrl+` toggles the panel too.
import { useEffect } from 'react';
import { useStore } from '../../store/hooks';
import { usePanelOpen } from './useTerminals';

export function isTerminalShortcut(e: KeyboardEvent): boolean {
  return e.ctrlKey && !e.altKey && !e.metaKey && (e.key === '`' || e.code === 'Backquote');
}

export function TerminalButton({ session, live }: { session: string; live: boolean }) {
  const terminals = useStore().terminals;
  const open = usePanelOpen(session);
  useEffect(() => {
    if (!live) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isTerminalShortcut(e)) return;
      e.preventDefault();
      terminals.togglePanel(session);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [terminals, session, live]);
  if (!live) return null;
  return (
    <button type="button" aria-pressed={open} onClick={() => terminals.togglePanel(session)} title="A shell in this session's folder (Ctrl+`)">
      Terminal
    </button>
  );
}
