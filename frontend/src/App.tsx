// The console: the provisioning screen while Claude Code is being installed, then the sidebar and the
// selected session (or a welcome). Shortcuts and dialogs live here.
import { type CSSProperties, useCallback, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { NewSessionDialog, type NewSessionRequest } from './components/dialogs/NewSessionDialog';
import { SessionView } from './components/session/SessionView';
import { ProvisioningScreen, provisioningBlocks } from './components/shell/ProvisioningScreen';
import { ShortcutsHelp } from './components/shell/ShortcutsHelp';
import { Toasts } from './components/shell/Toasts';
import { type ShortcutHandlers, useShortcuts } from './components/shell/useShortcuts';
import { ConnectionBanner } from './components/shell/ConnectionBanner';
import { SettingsDialog } from './components/dialogs/SettingsDialog';
import { UsageDialog } from './components/usage/UsageDialog';
import { useTheme } from './components/shell/useTheme';
import { sessionPicked, showSidebar, sidebarShown, useSidebarLayout } from './components/sidebar/narrow';
import { sidebarPrefs, useSidebarPrefs } from './components/sidebar/prefs';
import { FILTER_INPUT_ID, ShowSidebarButton, Sidebar } from './components/sidebar/Sidebar';
import { useConsole, useSelectedSession, useStore } from './store/hooks';
import { groupEntries, sidebarEntries } from './store/sidebar';

function Welcome({ onNewSession }: { onNewSession: () => void }) {
  const loaded = useConsole((s) => s.loaded);
  const connection = useConsole((s) => s.connection);
  return (
    <main className="welcome" data-testid="welcome">
      <h1>Baton</h1>
      <p className="muted">Run Claude Code sessions: watch them work, answer their questions, pick up where you left off.</p>
      {connection === 'refused' ? (
        <p data-testid="access-refused">
          This page has no access to this Baton: open the address that <code>baton serve</code> printed (it carries this launch's token).
        </p>
      ) : !loaded && connection !== 'open' ? (
        <p className="muted">Connecting to Baton…</p>
      ) : (
        <button type="button" className="primary big" onClick={onNewSession}>
          Start a new session
        </button>
      )}
      <p className="muted small">Alt+N new session · Ctrl+K filter · Ctrl+B sidebar · F1 shortcuts</p>
    </main>
  );
}

export function App() {
  const store = useStore();
  const provisioning = useConsole((s) => s.provisioning);
  const session = useSelectedSession();
  const prefs = useSidebarPrefs();
  const sidebar = useSidebarLayout();
  const [newSession, setNewSession] = useState<NewSessionRequest | undefined>(undefined);
  const [help, setHelp] = useState(false);
  const [settings, setSettings] = useState(false);
  const [usage, setUsage] = useState(false);
  useTheme();

  // "+ New session", Alt+N and the welcome's button all open the one dialog: recent folders, path completion
  // (and the native picker in the window), model, permission mode and an optional first prompt.
  const startNew = useCallback(() => setNewSession({}), []);

  const handlers = useMemo<ShortcutHandlers>(
    () => ({
      newSession: startNew,
      focusFilter: () => {
        // Rendered at once (not in a later frame), so the keys typed right after Ctrl+K all reach the filter.
        if (!sidebarShown()) flushSync(() => showSidebar(true));
        document.getElementById(FILTER_INPUT_ID)?.focus();
      },
      focusComposer: () => document.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')?.focus(),
      cancelTurn: () => {
        const s = store.getState();
        const current = s.selected !== undefined ? s.sessions[s.selected] : undefined;
        if (current?.runningTurn !== undefined) void store.cancelTurn(current.id);
      },
      moveSelection: (delta) => {
        // The order the sidebar shows: its groups, skipping collapsed ones.
        const s = store.getState();
        const p = sidebarPrefs();
        const entries = groupEntries(sidebarEntries(s), p.groupBy, Date.now(), p.showArchived)
          .filter((g) => !p.collapsed.includes(g.key))
          .flatMap((g) => g.entries);
        if (entries.length === 0) return;
        const at = entries.findIndex((e) => e.session === s.selected);
        const next = entries[Math.max(0, Math.min(entries.length - 1, at < 0 ? 0 : at + delta))];
        if (next !== undefined) store.select(next.session, next);
        sessionPicked();
      },
      toggleSidebar: () => showSidebar(!sidebarShown()),
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
  const layout = { '--sidebar-width': `${prefs.width}px` } as CSSProperties;
  return (
    <div className={`app${sidebar.narrow ? ' narrow' : ''}${sidebar.shown ? '' : ' sidebar-hidden'}`} style={layout}>
      <ConnectionBanner />
      <Sidebar onNewSession={startNew} onSettings={() => setSettings(true)} onUsage={() => setUsage(true)} />
      {sidebar.narrow && sidebar.shown && (
        // A click beside the overlaid sidebar closes it (Esc and » do too); not a control of its own for keys.
        // biome-ignore lint/a11y/useKeyWithClickEvents: the sidebar's « button and Ctrl+B close it by keyboard.
        // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop, not a control.
        <div className="sidebar-backdrop" data-testid="sidebar-backdrop" onClick={() => showSidebar(false)} />
      )}
      <ShowSidebarButton />
      {session !== undefined ? <SessionView session={session} /> : <Welcome onNewSession={startNew} />}
      {newSession !== undefined && <NewSessionDialog {...newSession} onClose={() => setNewSession(undefined)} />}
      {help && <ShortcutsHelp onClose={() => setHelp(false)} />}
      {settings && <SettingsDialog onClose={() => setSettings(false)} />}
      {usage && <UsageDialog onClose={() => setUsage(false)} />}
      <Toasts />
    </div>
  );
}
