// A new session: a folder (the native picker in the window, a path field in the browser), optionally a model
// and a permission mode. Bypass needs an explicit confirmation here too.
import { useEffect, useState } from 'react';
import { type ModelEntry, type PermissionMode, PERMISSION_MODES } from '../../protocol/events';
import { toApiError } from '../../protocol/api';
import { useConsole, useStore } from '../../store/hooks';
import { modelChoices } from '../composer/ModelPicker';
import { MODE_LABELS } from '../composer/ModePicker';
import { BYPASS_EXPLANATION } from './BypassDialog';
import { Modal } from './Modal';

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
  const [model, setModel] = useState('default');
  const [mode, setMode] = useState<PermissionMode>('default');
  const [bypassOk, setBypassOk] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(initialError);
  const [models, setModels] = useState<ModelEntry[]>([]);
  const [modelsNote, setModelsNote] = useState<string | undefined>('Loading the models your account offers…');

  useEffect(() => {
    let live = true;
    store
      .listModels()
      .then((list) => {
        if (!live) return;
        setModels(list);
        setModelsNote(undefined);
      })
      .catch((err: unknown) => live && setModelsNote(toApiError(err).message));
    return () => {
      live = false;
    };
  }, [store]);
  const described = new Map(models.map((m) => [m.value, m]));

  const start = async () => {
    const folder = cwd.trim();
    if (folder === '' || busy || (mode === 'bypassPermissions' && !bypassOk)) return;
    setBusy(true);
    setError(undefined);
    try {
      await store.startSession({ cwd: folder, ...(model !== 'default' ? { model } : {}), permissionMode: mode });
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
        <label className="field">
          Folder
          <span className="folder-row">
            <input
              autoFocus
              type="text"
              value={cwd}
              onChange={(e) => setCwd(e.target.value)}
              placeholder="/path/to/your/project"
              aria-label="Folder"
              data-testid="new-session-folder"
              spellCheck={false}
            />
            {folderPicker && (
              <button
                type="button"
                onClick={() => {
                  void store.pickFolder().then((path) => {
                    if (path !== null) setCwd(path);
                  });
                }}
              >
                Choose…
              </button>
            )}
          </span>
        </label>
        <div className="field-row">
          <label className="field">
            Model
            <select value={model} onChange={(e) => setModel(e.target.value)} data-testid="new-session-model">
              {modelChoices(
                models.map((m) => m.value),
                model,
              ).map((m) => (
                <option key={m} value={m} title={described.get(m)?.description ?? ''}>
                  {described.get(m)?.displayName ?? m}
                </option>
              ))}
            </select>
            {modelsNote !== undefined && <span className="muted small">{modelsNote}</span>}
          </label>
          <label className="field">
            Permissions
            <select value={mode} onChange={(e) => setMode(e.target.value as PermissionMode)} data-testid="new-session-mode">
              {PERMISSION_MODES.map((m) => (
                <option key={m} value={m}>
                  {MODE_LABELS[m]}
                </option>
              ))}
            </select>
          </label>
        </div>
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
          <button type="submit" className="primary" disabled={busy || cwd.trim() === '' || (mode === 'bypassPermissions' && !bypassOk)} data-testid="new-session-start">
            {busy ? 'Starting…' : 'Start'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
