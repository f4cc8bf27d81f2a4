// Bypass mode runs every tool without asking; the person confirms it first. Where Claude Code refuses it
// (as root without IS_SANDBOX=1 it exits), the refusal is shown here with what to do.
import { useState } from 'react';
import { toApiError } from '../../protocol/api';
import { Modal } from './Modal';

export const BYPASS_EXPLANATION =
  'Claude Code refuses bypass mode when it runs as root (or through sudo) unless the environment sets IS_SANDBOX=1, which says the machine is a disposable sandbox. Run Baton as an ordinary user, or set IS_SANDBOX=1 only inside a sandbox.';

export function BypassDialog({ onConfirm, onClose }: { onConfirm: () => Promise<unknown>; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  return (
    <Modal title="Run every tool without asking?" onClose={onClose}>
      <p>
        In <strong>bypass permissions</strong> mode Claude Code runs commands, edits and deletes files, and fetches from the network without asking you first.
        Use it only in a folder and on a machine you can afford to lose.
      </p>
      {error !== undefined && (
        <div className="row-error" role="alert" data-testid="bypass-refused">
          <strong>Claude Code refused bypass mode</strong>
          <div className="plain">{error}</div>
          <div className="small">{BYPASS_EXPLANATION}</div>
        </div>
      )}
      <div className="dialog-buttons">
        <button type="button" onClick={onClose}>
          {error !== undefined ? 'Close' : 'Cancel'}
        </button>
        {error === undefined && (
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              onConfirm()
                .then(onClose)
                .catch((err: unknown) => setError(toApiError(err).message))
                .finally(() => setBusy(false));
            }}
          >
            {busy ? 'Switching…' : 'Bypass permissions'}
          </button>
        )}
      </div>
    </Modal>
  );
}
