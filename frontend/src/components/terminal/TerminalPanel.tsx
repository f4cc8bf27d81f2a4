// A session's terminals under its conversation: tabs, a shell per tab in the session's folder, and Claude Code's
// own TUI on the session. The tabs are the host's (terminalList), so a reload finds them again.
import { useCallback, useEffect, useState } from 'react';
import type { TerminalInfo } from '../../protocol/api.gen';
import { toApiError } from '../../protocol/api';
import { rememberedTab, rememberTab } from '../../store/panelMemory';
import { useStore } from '../../store/hooks';
import { usePanelOpen } from './useTerminals';
import { XtermView } from './XtermView';
import './terminal.css';

// The first size a terminal opens at; the screen fits it to the panel at once.
const COLS = 100;
const ROWS = 24;
/** The title the host gives a terminal running Claude Code's TUI (console.TerminalClaudeCode). */
const CLAUDE_CODE = 'Claude Code';

export function TerminalPanel({ session }: { session: string }) {
  const open = usePanelOpen(session);
  if (!open) return null;
  return <TerminalTabs session={session} />;
}

function TerminalTabs({ session }: { session: string }) {
  const store = useStore();
  const terminals = store.terminals;
  const [tabs, setTabs] = useState<TerminalInfo[] | undefined>(undefined);
  const [active, setActiveState] = useState<string | undefined>(undefined);
  // The tab in front is remembered, so a reload brings the same one forward.
  const setActive = useCallback(
    (id: string | undefined) => {
      setActiveState(id);
      rememberTab(session, id);
    },
    [session],
  );
  const fail = useCallback((err: unknown) => store.toast('error', toApiError(err).message), [store]);

  const openShell = useCallback(
    (claude: boolean) => {
      const opened = claude ? terminals.openClaudeCode(session, COLS, ROWS) : terminals.open(session, COLS, ROWS);
      opened.then((info) => {
        setTabs((t) => [...(t ?? []), info]);
        setActive(info.terminal);
      }, fail);
    },
    [terminals, session, fail, setActive],
  );

  useEffect(() => {
    let alive = true;
    terminals.list(session).then((list) => {
      if (!alive) return;
      setTabs(list);
      const kept = rememberedTab(session);
      setActive(list.find((t) => t.terminal === kept)?.terminal ?? list[0]?.terminal);
      if (list.length === 0) openShell(false);
    }, fail);
    return () => {
      alive = false;
    };
  }, [terminals, session, openShell, fail, setActive]);

  const close = (id: string) => {
    void terminals.close(id).catch(() => undefined);
    setTabs((t) => {
      const rest = (t ?? []).filter((x) => x.terminal !== id);
      if (active === id) setActive(rest[0]?.terminal);
      return rest;
    });
  };

  return (
    <section className="terminal-panel" aria-label="Terminal" data-testid="terminal-panel">
      <div className="terminal-tabs" role="tablist">
        {(tabs ?? []).map((t) => (
          <span key={t.terminal} className={t.terminal === active ? 'terminal-tab active' : 'terminal-tab'}>
            <button type="button" role="tab" aria-selected={t.terminal === active} onClick={() => setActive(t.terminal)}>
              {t.title}
            </button>
            <button type="button" className="terminal-tab-close" aria-label={`Close ${t.title}`} onClick={() => close(t.terminal)}>
              ×
            </button>
          </span>
        ))}
        <button type="button" onClick={() => openShell(false)} title="Another shell in this session's folder">
          + Shell
        </button>
        <button type="button" onClick={() => openShell(true)} title="Put this session to sleep and continue it in Claude Code's own TUI">
          Open in Claude Code
        </button>
        <span className="spacer" />
        <button type="button" onClick={() => terminals.togglePanel(session, false)} title="Hide the terminals (they keep running)">
          Hide
        </button>
      </div>
      {active !== undefined && (
        <XtermView
          key={active}
          terminals={terminals}
          id={active}
          // Claude Code's TUI wrote to the transcript: the conversation is read again from it.
          onExit={tabs?.find((t) => t.terminal === active)?.title === CLAUDE_CODE ? () => store.reread(session) : undefined}
        />
      )}
    </section>
  );
}
