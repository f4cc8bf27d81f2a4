// The console: the provisioning screen while Claude Code is being installed, then the sidebar and the
// selected session (or a welcome). Shortcuts and dialogs live here.
import { useCallback, useMemo, useState } from 'react';
import { NewSessionDialog, type NewSessionRequest } from './components/dialogs/NewSessionDialog';
import { toApiError } from './protocol/api';
import { SessionView } from './components/session/SessionView';
import { ProvisioningScreen, provisioningBlocks } from './components/shell/ProvisioningScreen';
import { ShortcutsHelp } from './components/shell/ShortcutsHelp';
import { Toasts } from './components/shell/Toasts';
import { type ShortcutHandlers, useShortcuts } from './components/shell/useShortcuts';
import { FILTER_INPUT_ID, Sidebar } from './components/sidebar/Sidebar';
import { useConsole, useSelectedSession, useStore } from './store/hooks';
import { filterEntries, sidebarEntries } from './store/sidebar';

function Welcome({ onNewSession }: { onNewSession: () => void }) {
  const loaded = useConsole((s) => s.loaded);
  const connection = useConsole((s) => s.connection);
  return (
    <main className="welcome" data-testid="welcome">
      <h1>Baton</h1>
      <p className="muted">Run Claude Code sessions: watch them work, answer their questions, pick up where you left off.</p>
      {!loaded && connection !== 'open' ? (
        <p className="muted">Connecting to Baton…</p>
      ) : (
        <button type="button" className="primary big" onClick={onNewSession}>
          Start a new session
        </button>
      )}
      <p className="muted small">Alt+N new session · Ctrl+K filter · F1 shortcuts</p>
    </main>
  );
}

export function App() {
  const store = useStore();
  const provisioning = useConsole((s) => s.provisioning);
  const session = useSelectedSession();
  const [newSession, setNewSession] = useState<NewSessionRequest | undefined>(undefined);
  const [help, setHelp] = useState(false);

  // One click: in the window the native folder picker opens at once and the session starts in the chosen
  // folder; the browser (no picker) asks for a path. "Options…" always opens the full form.
  const startNew = useCallback(async () => {
    if (store.getState().capabilities?.folderPicker !== true) {
      setNewSession({});
      return;
    }
    const cwd = await store.pickFolder();
    if (cwd === null) return;
    try {
      await store.startSession({ cwd });
    } catch (err) {
      setNewSession({ cwd, error: toApiError(err).message });
    }
  }, [store]);

  const handlers = useMemo<ShortcutHandlers>(
    () => ({
      newSession: () => void startNew(),
      focusFilter: () => document.getElementById(FILTER_INPUT_ID)?.focus(),
      focusComposer: () => document.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')?.focus(),
      cancelTurn: () => {
        const s = store.getState();
        const current = s.selected !== undefined ? s.sessions[s.selected] : undefined;
        if (current?.runningTurn !== undefined) void store.cancelTurn(current.id);
      },
      moveSelection: (delta) => {
        const s = store.getState();
        const entries = filterEntries(sidebarEntries(s), { text: '', project: '' });
        if (entries.length === 0) return;
        const at = entries.findIndex((e) => e.session === s.selected);
        const next = entries[Math.max(0, Math.min(entries.length - 1, at < 0 ? 0 : at + delta))];
        if (next !== undefined) store.select(next.session, next);
      },
      help: () => setHelp(true),
    }),
    [store, startNew],
  );
  useShortcuts(handlers);

  if (provisioningBlocks(provisioning)) {
    return (
      <>
        <ProvisioningScreen provisioning={provisioning} />
        <Toasts />
      </>
    );
  }
  return (
    <div className="app">
      <Sidebar onNewSession={() => void startNew()} onOptions={() => setNewSession({})} />
      {session !== undefined ? <SessionView session={session} /> : <Welcome onNewSession={() => void startNew()} />}
      {newSession !== undefined && <NewSessionDialog {...newSession} onClose={() => setNewSession(undefined)} />}
      {help && <ShortcutsHelp onClose={() => setHelp(false)} />}
      <Toasts />
    </div>
  );
}
