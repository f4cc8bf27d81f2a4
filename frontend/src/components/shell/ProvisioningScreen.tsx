// First launch: Baton fetches the pinned claude executable. A real progress bar (bytes, rate, source); a
// failure offers Retry and the actionable hints provisioning gave.
import { formatBytes } from '../../lib/format';
import type { ProvisionState } from '../../protocol/hostState';
import { useStore } from '../../store/hooks';

/** States that take the whole window; anything else (ready, unknown) shows the console. */
export function provisioningBlocks(p: ProvisionState): boolean {
  return p.state === 'downloading' || p.state === 'failed';
}

export function ProvisioningScreen({ provisioning }: { provisioning: ProvisionState }) {
  const store = useStore();
  const { bytes, total, rate, source } = provisioning;
  const fraction = bytes !== undefined && total !== undefined && total > 0 ? Math.min(1, bytes / total) : undefined;
  return (
    <main className="provisioning" data-testid="provisioning">
      <h1>Setting up Claude Code</h1>
      {provisioning.state === 'failed' ? (
        <div className="row-error" role="alert">
          <strong>Could not install Claude Code</strong>
          <div className="plain">{provisioning.message ?? 'No details were given.'}</div>
          {(provisioning.hints?.length ?? 0) > 0 && (
            <ul className="hints">
              {provisioning.hints?.map((h) => (
                <li key={h}>{h}</li>
              ))}
            </ul>
          )}
          <button type="button" className="primary" onClick={() => void store.retryProvision()}>
            Retry
          </button>
        </div>
      ) : (
        <>
          <p className="muted">Baton is fetching the Claude Code executable it was built for, and checks it before use.</p>
          <div
            className="progress"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            {...(fraction !== undefined ? { 'aria-valuenow': Math.round(fraction * 100) } : {})}
          >
            <div
              className={`progress-fill${fraction === undefined ? ' indeterminate' : ''}`}
              style={fraction !== undefined ? { width: `${(fraction * 100).toFixed(1)}%` } : {}}
            />
          </div>
          <div className="small">
            {formatBytes(bytes)}
            {total !== undefined ? ` of ${formatBytes(total)}` : ''}
            {rate !== undefined ? ` · ${formatBytes(rate)}/s` : ''}
            {source !== undefined ? ` · from ${source}` : ''}
          </div>
        </>
      )}
    </main>
  );
}
