// Rewind to before a prompt: the conversation only, the conversation and the files, or the files only.
// Whenever files are involved the dry run's counts (files, insertions, deletions) are shown before the
// person confirms.
import { useEffect, useState } from 'react';
import { type RewindFilesResult, toApiError } from '../../protocol/api';
import { useStore } from '../../store/hooks';
import { Modal } from './Modal';

type Scope = 'conversation' | 'both' | 'files';

/** What a rewind really changed, for its toast; `copied`: the conversation goes on in a new session. */
export function rewoundText(scope: Scope, restored: number | undefined, copied = false): string {
  const files = restored === 1 ? '1 file restored' : `${restored ?? 0} files restored`;
  const where = copied ? ' It goes on in a new session; the one it came from keeps its whole conversation.' : '';
  if (scope === 'files') return `Rewound the files: ${files}; the conversation is as it was.`;
  if (scope === 'both') return `Rewound the conversation and the files: ${files}.${where}`;
  return `Rewound the conversation only; the files are as they are now.${where}`;
}

export function RewindDialog({ sessionId, uuid, prompt, onClose }: { sessionId: string; uuid: string; prompt: string; onClose: () => void }) {
  const store = useStore();
  const [scope, setScope] = useState<Scope>('both');
  const [dryRun, setDryRun] = useState<RewindFilesResult | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const files = scope !== 'conversation';

  useEffect(() => {
    if (!files || dryRun !== undefined) return;
    let live = true;
    store
      .rewindFiles(sessionId, uuid, true)
      .then((r) => live && setDryRun(r))
      .catch((err: unknown) => live && setError(toApiError(err).message));
    return () => {
      live = false;
    };
  }, [files, dryRun, store, sessionId, uuid]);

  const filesReady = !files || dryRun?.canRewind === true;
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      let restored: number | undefined;
      if (files) {
        const done = await store.rewindFiles(sessionId, uuid, false);
        if (!done.canRewind) throw new Error(done.error ?? 'Claude Code could not rewind the files.');
        restored = done.filesChanged?.length ?? 0;
      }
      // A conversation that could not be rewound says why in its own toast.
      const into = scope === 'files' ? sessionId : await store.rewindConversation(sessionId, uuid, prompt);
      if (into !== undefined) store.toast('info', rewoundText(scope, restored, into !== sessionId));
      onClose();
    } catch (err) {
      setError(toApiError(err).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="Rewind" onClose={onClose}>
      <p className="muted small">To before: “{prompt.length > 120 ? `${prompt.slice(0, 120)}…` : prompt}”</p>
      {scope !== 'files' && (
        <p className="muted small">The prompt and everything after it leave the conversation; its text goes back into the composer to edit.</p>
      )}
      <fieldset className="choices">
        <label>
          <input type="radio" name="scope" checked={scope === 'conversation'} onChange={() => setScope('conversation')} /> The conversation only
        </label>
        <label>
          <input type="radio" name="scope" checked={scope === 'both'} onChange={() => setScope('both')} /> The conversation and the files
        </label>
        <label>
          <input type="radio" name="scope" checked={scope === 'files'} onChange={() => setScope('files')} /> The files only
        </label>
      </fieldset>
      {files && (
        <div className="dry-run" data-testid="rewind-dry-run">
          {dryRun === undefined && error === undefined && <span className="muted">Checking what would change…</span>}
          {dryRun?.canRewind === true && (
            <>
              <div data-testid="rewind-counts">
                {dryRun.filesChanged?.length ?? 0} file{(dryRun.filesChanged?.length ?? 0) === 1 ? '' : 's'} would change:{' '}
                <span className="add">+{dryRun.insertions ?? 0}</span> <span className="del">−{dryRun.deletions ?? 0}</span>
              </div>
              {(dryRun.filesChanged?.length ?? 0) > 0 && (
                <ul className="file-list">
                  {dryRun.filesChanged?.map((f) => (
                    <li key={f}>
                      <code>{f}</code>
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
          {dryRun !== undefined && !dryRun.canRewind && (
            <div className="row-error" role="alert">
              The files cannot be rewound: {dryRun.error ?? 'Claude Code gave no reason.'}
            </div>
          )}
        </div>
      )}
      {error !== undefined && (
        <div className="row-error" role="alert">
          {error}
        </div>
      )}
      <div className="dialog-buttons">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="danger" disabled={busy || !filesReady} onClick={() => void confirm()} data-testid="rewind-confirm">
          {busy ? 'Rewinding…' : 'Rewind'}
        </button>
      </div>
    </Modal>
  );
}
