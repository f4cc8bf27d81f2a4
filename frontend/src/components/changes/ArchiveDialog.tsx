// Archiving a worktree session: removes its worktree (optionally its branch). Asked first without force, so when
// work would be lost the dialog lists exactly what, and only an explicit second confirmation removes it.
import { useState } from 'react';
import { toApiError } from '../../protocol/api';
import type { ArchiveResult } from '../../protocol/api.gen';
import { useStore } from '../../store/hooks';
import { Modal } from '../dialogs/Modal';

export function ArchiveDialog({ session, path, onClose, onArchived }: { session: string; path: string; onClose: () => void; onArchived: () => void }) {
  const store = useStore();
  const [deleteBranch, setDeleteBranch] = useState(false);
  const [refused, setRefused] = useState<ArchiveResult | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const archive = async (force: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      const r = await store.changes.archive(session, deleteBranch, force);
      if (r.archived) {
        store.toast('info', r.message);
        onArchived();
        onClose();
      } else setRefused(r);
    } catch (err) {
      setError(toApiError(err).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title="Archive the worktree" onClose={onClose}>
      <div className="archive-dialog">
        <p className="small">
          Removes <code>{path}</code>.
        </p>
        <label>
          <input type="checkbox" checked={deleteBranch} onChange={(e) => setDeleteBranch(e.target.checked)} data-testid="archive-delete-branch" /> Delete its
          branch too
        </label>
        {refused !== undefined && (
          <div className="row-error" role="alert" data-testid="archive-would-lose">
            <div className="plain">{refused.message}</div>
            {refused.uncommitted.length > 0 && (
              <ul className="small">
                {refused.uncommitted.map((f) => (
                  <li key={f}>
                    <code>{f}</code> (uncommitted)
                  </li>
                ))}
              </ul>
            )}
            {refused.unlanded.length > 0 && (
              <ul className="small">
                {refused.unlanded.map((c) => (
                  <li key={c.hash}>
                    <code>{c.hash.slice(0, 8)}</code> {c.subject} (not landed)
                  </li>
                ))}
              </ul>
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
          {refused === undefined ? (
            <button type="button" className="primary" disabled={busy} onClick={() => void archive(false)} data-testid="archive-submit">
              Archive
            </button>
          ) : (
            <button type="button" className="danger" disabled={busy} onClick={() => void archive(true)} data-testid="archive-force">
              Archive and lose this work
            </button>
          )}
        </div>
      </div>
    </Modal>
  );
}
