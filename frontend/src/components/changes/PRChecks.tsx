// A pull request's checks as the person's gh reports them (pullRequestChecks), read when the pull request is
// opened and again on request; without a signed-in gh, the command that shows them.
import { useCallback, useEffect, useState } from 'react';
import { toApiError } from '../../protocol/api';
import type { PRChecksResult } from '../../protocol/api.gen';
import { useStore } from '../../store/hooks';

const BUCKET_MARK: Record<string, string> = { pass: '✓', fail: '✗', pending: '…', skipping: '–', cancel: '⊘' };

export function PRChecks({ session }: { session: string }) {
  const store = useStore();
  const [checks, setChecks] = useState<PRChecksResult | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const read = useCallback(() => {
    store.changes.prChecks(session).then(
      (c) => {
        setChecks(c);
        setError(undefined);
      },
      (err) => setError(toApiError(err).message),
    );
  }, [store, session]);
  useEffect(read, [read]);
  return (
    <div className="pr-checks small" data-testid="pr-checks">
      <div>
        <strong>Checks</strong>{' '}
        <button type="button" className="link small" onClick={read} data-testid="pr-checks-refresh">
          Read again
        </button>
      </div>
      {error !== undefined && <div className="row-error">{error}</div>}
      {checks !== undefined && checks.commands.length > 0 && (
        <>
          <div>{checks.reason}; see them with:</div>
          <pre className="small">{checks.commands.join('\n')}</pre>
        </>
      )}
      {checks !== undefined && checks.commands.length === 0 && checks.checks.length === 0 && <div className="muted">No checks reported yet.</div>}
      {checks !== undefined && checks.checks.length > 0 && (
        <ul className="pr-check-list">
          {checks.checks.map((c) => (
            <li key={c.name} className={`pr-check ${c.bucket}`} data-testid="pr-check">
              <span aria-hidden="true">{BUCKET_MARK[c.bucket] ?? '?'}</span>{' '}
              {c.link !== undefined ? (
                <a href={c.link} target="_blank" rel="noreferrer">
                  {c.name}
                </a>
              ) : (
                c.name
              )}{' '}
              <span className="muted">{c.state.toLowerCase()}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
