// The session index's state in the sidebar: a quiet line with a progress bar while Baton indexes the stored
// sessions, nothing once it is ready, and what to do when it failed.
import { type IndexState, indexBusy } from '../../protocol/hostState';
import { assertNever } from '../../lib/assertNever';
import { useConsole } from '../../store/hooks';

/** "Indexing sessions… 312 of 1,204" (the numbers in the reader's locale). */
export function indexLabel(index: IndexState): string {
  const counts = index.filesTotal > 0 ? ` ${index.filesDone.toLocaleString()} of ${index.filesTotal.toLocaleString()}` : '';
  switch (index.reason) {
    case undefined:
      return `Indexing sessions…${counts}`;
    case 'mapper':
      return `Indexing sessions again for this version of Baton…${counts}`;
    case 'recovered':
      return `Rebuilding the damaged session index…${counts}`;
    default:
      return assertNever(index.reason);
  }
}

export function IndexStatus() {
  const index = useConsole((s) => s.index);
  if (index.state === 'failed') {
    return (
      <div className="index-status error" role="alert" data-testid="index-status">
        {index.message ?? 'Baton could not index the stored sessions.'}
      </div>
    );
  }
  if (!indexBusy(index)) return null;
  // Bytes measure the work better than files: one transcript can be a thousand times another.
  const max = index.bytesTotal > 0 ? index.bytesTotal : index.filesTotal;
  const value = index.bytesTotal > 0 ? index.bytesDone : index.filesDone;
  return (
    <div className="index-status muted" role="status" data-testid="index-status">
      <span>{indexLabel(index)}</span>
      <progress aria-label="Indexing progress" max={Math.max(max, 1)} value={Math.min(value, max)} />
    </div>
  );
}
