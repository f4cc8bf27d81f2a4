// A new session: a folder (typed with completion from the host, picked from recent sessions' folders, or the
// native picker in the window), optionally a model, a permission mode, a first prompt and a worktree of its own
// (Settings choose the model, mode and worktree it opens with). Bypass needs an explicit confirmation here too.
import { useMemo, useState } from 'react';
import type { PermissionMode } from '../../protocol/events';
import { toApiError } from '../../protocol/api';
import { useConsole, useStore } from '../../store/hooks';
import { BYPASS_EXPLANATION } from './BypassDialog';
import { Modal } from './Modal';
import { recentFolders } from '../../store/sidebar';
import { FolderField } from './FolderField';
import { ModeField, ModelField } from './NewSessionFields';
import { useAccountModels } from './useAccountModels';
import { NO_WORKTREE, WorktreeFields, worktreeParams } from '../changes/WorktreeFields';

const LAST_FOLDER = 'baton.lastFolder';

function lastFolder(): string {
  try {
    return localStorage.getItem(LAST_FOLDER) ?? '';
  } catch {
    return '';
  }
}

/** What the dialog opens with: a folder already picked, and why starting there failed. */
export interface NewSessionRequest {
  cwd?: string;
  error?: string;
}

export function NewSessionDialog({ cwd: initialCwd, error: initialError, onClose }: NewSessionRequest & { onClose: () => void }) {
  const store = useStore();
  const folderPicker = useConsole((s) => s.capabilities?.folderPicker === true);
  const [cwd, setCwd] = useState(() => initialCwd ?? lastFolder());
  // Settings' defaults for a new session (bypass is never a default: it is confirmed each time).
  const [model, setModel] = useState(() => store.getState().settings?.defaultModel ?? 'default');
  const [mode, setMode] = useState<PermissionMode>(() => store.getState().settings?.defaultPermissionMode ?? 'default');
  const [bypassOk, setBypassOk] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(initialError);
  const [prompt, setPrompt] = useState('');
  const [worktree, setWorktree] = useState(() => ({ ...NO_WORKTREE, on: store.getState().settings?.worktrees.startInWorktree === true }));
  const prefix = useConsole((s) => s.settings?.worktrees.branchPrefix ?? 'baton/');
  const items = useConsole((s) => s.sidebar.items);
  const recent = useMemo(() => recentFolders(items), [items]);
  const { models, note: modelsNote } = useAccountModels(store);
  const pick = () => {
    void store.pickFolder().then((path) => {
      if (path !== null) setCwd(path);
    });
  };

  const start = async () => {
    // A completion leaves a trailing separator; the folder is the same without it.
    const folder = cwd.trim().replace(/(.)[\\/]+$/, '$1');
    if (folder === '' || busy || (mode === 'bypassPermissions' && !bypassOk)) return;
    setBusy(true);
    setError(undefined);
    try {
      const wt = worktreeParams(worktree, prompt);
      const session = await store.startSession({
        cwd: folder,
        ...(model !== 'default' ? { model } : {}),
        permissionMode: mode,
        ...(wt !== undefined ? { worktree: wt } : {}),
      });
      if (session !== undefined && prompt.trim() !== '') void store.sendPrompt(session, prompt);
      try {
        localStorage.setItem(LAST_FOLDER, folder);
      } catch {
        // private mode: not remembered, nothing else lost
      }
      onClose();
    } catch (err) {
      setError(toApiError(err).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="New session" onClose={onClose}>
      <form
        className="new-session"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <FolderField cwd={cwd} recent={recent} onChange={setCwd} onPick={folderPicker ? pick : undefined} />
        <div className="field-row">
          <ModelField model={model} models={models} note={modelsNote} onChange={setModel} />
          <ModeField mode={mode} onChange={setMode} />
        </div>
        <label className="field">
          <span>
            First prompt <span className="muted small">(optional)</span>
          </span>
          <textarea
            rows={3}
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                void start();
              }
            }}
            placeholder="What should Claude do? (Ctrl+Enter starts)"
            data-testid="new-session-prompt"
          />
        </label>
        <WorktreeFields choice={worktree} prefix={prefix} onChange={setWorktree} />
        {mode === 'bypassPermissions' && (
          <label className="confirm-bypass">
            <input type="checkbox" checked={bypassOk} onChange={(e) => setBypassOk(e.target.checked)} /> I understand that Claude Code will run every tool
            without asking.
          </label>
        )}
        {error !== undefined && (
          <div className="row-error" role="alert" data-testid="new-session-error">
            <div className="plain">{error}</div>
            {mode === 'bypassPermissions' && <div className="small">{BYPASS_EXPLANATION}</div>}
          </div>
        )}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="primary"
            disabled={busy || cwd.trim() === '' || (mode === 'bypassPermissions' && !bypassOk)}
            data-testid="new-session-start"
          >
            {busy ? 'Starting…' : 'Start'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
