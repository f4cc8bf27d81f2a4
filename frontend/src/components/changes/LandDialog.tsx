// Landing a worktree session: the strategy, the commit message for uncommitted work, and what stopped it (a dirty
// main checkout, another branch there, a conflict — which can be handed to Claude in the session). Also opens a
// pull request instead, through the person's gh or with the exact commands to run.
import { useState } from 'react';
import { toApiError } from '../../protocol/api';
import type { LandMethod, LandResult, PRResult } from '../../protocol/api.gen';
import { conflictPrompt } from '../../store/changes';
import { useStore } from '../../store/hooks';
import { PRChecks } from './PRChecks';
import { Modal } from '../dialogs/Modal';

const COMMIT_PROMPT = 'Please commit all of your changes on this branch with git, with a clear commit message that describes them.';

export function LandDialog({
  session,
  base,
  branch,
  onClose,
  onLanded,
}: {
  session: string;
  base: string;
  branch: string;
  onClose: () => void;
  onLanded: () => void;
}) {
  const store = useStore();
  const [method, setMethod] = useState<LandMethod>('merge');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<LandResult | undefined>(undefined);
  const [pr, setPr] = useState<PRResult | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await what();
    } catch (err) {
      setError(toApiError(err).message);
    } finally {
      setBusy(false);
    }
  };
  const land = () =>
    run(async () => {
      const r = await store.changes.land(session, method, message);
      setResult(r);
      if (r.outcome === 'landed') onLanded();
    });
  const openPr = () => run(async () => setPr(await store.changes.pullRequest(session, message)));
  const askForCommit = () => {
    void store.sendPrompt(session, COMMIT_PROMPT);
    onClose();
  };
  const handToClaude = () => {
    if (result === undefined) return;
    void store.sendPrompt(session, conflictPrompt(base, result.conflicts));
    onClose();
  };
  return (
    <Modal title={`Land ${branch} in ${base}`} onClose={onClose}>
      <form
        className="land-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void land();
        }}
      >
        <fieldset className="field-row">
          {(['merge', 'squash', 'rebase'] as const).map((m) => (
            <label key={m}>
              <input type="radio" name="land-method" value={m} checked={method === m} onChange={() => setMethod(m)} data-testid={`land-${m}`} /> {m}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>
            Commit message <span className="muted small">(commits uncommitted work first; a squash’s message)</span>
          </span>
          <textarea rows={3} value={message} onChange={(e) => setMessage(e.target.value)} data-testid="land-message" />
        </label>
        <button type="button" className="link small" onClick={askForCommit} title="Claude commits the work with a message it writes; land afterwards">
          Ask Claude to commit with a message it drafts
        </button>
        {result !== undefined && (
          <div className={result.outcome === 'landed' ? 'land-ok' : 'row-error'} role="status" data-testid="land-result" data-outcome={result.outcome}>
            <div className="plain">{result.message}</div>
            {result.conflicts.length > 0 && (
              <ul className="small" data-testid="land-conflicts">
                {result.conflicts.map((c) => (
                  <li key={c.path}>
                    <code>{c.path}</code> — {c.kind}
                  </li>
                ))}
              </ul>
            )}
            {result.dirtyFiles.length > 0 && <div className="small">Uncommitted in the main checkout: {result.dirtyFiles.join(', ')}</div>}
            {result.outcome === 'conflict' && (
              <button type="button" onClick={handToClaude} data-testid="land-hand-to-claude">
                Ask Claude to resolve
              </button>
            )}
          </div>
        )}
        {pr !== undefined && (
          <div className="land-ok" role="status" data-testid="pr-result">
            {pr.url !== undefined ? (
              <div>
                Opened <code>{pr.url}</code>
              </div>
            ) : (
              <>
                <div>
                  Pushed to {pr.remote}; {pr.reason}, so open the pull request with:
                </div>
                <pre className="small">{pr.commands.join('\n')}</pre>
              </>
            )}
            {pr.pushed && <PRChecks session={session} />}
          </div>
        )}
        {error !== undefined && (
          <div className="row-error" role="alert" data-testid="land-error">
            {error}
          </div>
        )}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>
            Close
          </button>
          <button type="button" disabled={busy} onClick={() => void openPr()} data-testid="land-pr">
            Open pull request
          </button>
          <button type="submit" className="primary" disabled={busy} data-testid="land-submit">
            {busy ? 'Working…' : 'Land'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
