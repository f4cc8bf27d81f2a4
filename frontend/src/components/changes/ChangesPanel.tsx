// The session's Changes panel: the files it changed (in its worktree against its base, else its folder against
// HEAD) with +/- counts, live as Claude works; the selected file's diff; revert; review comments sent to Claude as
// one prompt; and, for a worktree session, Land and Archive.
import { useCallback, useEffect, useRef, useState } from 'react';
import { toApiError } from '../../protocol/api';
import type { ChangesResult, FileChange } from '../../protocol/api.gen';
import { commentsPrompt, type ReviewComment, withComment } from '../../store/changes';
import { useConsole, useStore } from '../../store/hooks';
import type { SessionState } from '../../store/types';
import '../../styles/changes.css';
import { ArchiveDialog } from './ArchiveDialog';
import { DiffPane } from './DiffPane';
import { FileList } from './FileList';
import { LandDialog } from './LandDialog';

/** As the host pushes changes, the list is read again at most this often (each read runs git in the session's folder). */
const LIVE_REFRESH_MS = 800;

export function ChangesPanel({ session }: { session: SessionState }) {
  const store = useStore();
  const [changes, setChanges] = useState<ChangesResult | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState<FileChange | undefined>(undefined);
  const [version, setVersion] = useState(0);
  const [comments, setComments] = useState<ReviewComment[]>([]);
  const [dialog, setDialog] = useState<'land' | 'archive' | undefined>(undefined);
  const id = session.id;
  const cwd = session.cwd;
  const reload = useCallback(() => {
    store.changes.list(id, cwd === '' ? undefined : cwd).then(
      (c) => {
        setChanges(c);
        setError(undefined);
        setVersion((v) => v + 1);
        setSelected((s) => (s === undefined ? undefined : c.files.find((f) => f.path === s.path)));
      },
      (err) => setError(toApiError(err).message),
    );
  }, [store, id, cwd]);
  // The host watches the session's folder and pushes its counts after each change, Claude's or anyone's.
  const pushed = useConsole((s) => s.changes[id]);
  useLiveRefresh(pushed, reload);

  const send = () => {
    if (comments.length === 0) return;
    void store.sendPrompt(id, commentsPrompt(comments)).then((ok) => ok && setComments([]));
  };
  const revertFile = (f: FileChange) => {
    store.changes.revertFile(id, f).then(reload, (err) => store.toast('error', toApiError(err).message));
  };
  const wt = changes?.worktree;
  const added = changes?.files.reduce((n, f) => n + f.added, 0) ?? 0;
  const deleted = changes?.files.reduce((n, f) => n + f.deleted, 0) ?? 0;
  return (
    <aside className="changes-panel" aria-label="Changes" data-testid="changes-panel">
      <div className="changes-bar">
        <strong>Changes</strong>
        {changes !== undefined && (
          <span className="small muted" data-testid="changes-summary">
            {changes.files.length} files <span className="add">+{added}</span> <span className="del">−{deleted}</span> against{' '}
            <code>{wt !== undefined ? `${wt.base} (${wt.branch})` : changes.base}</code>
          </span>
        )}
        <span className="spacer" />
        <button type="button" onClick={reload} title="Read the changes again">
          ↻
        </button>
        {comments.length > 0 && (
          <button type="button" className="primary" onClick={send} data-testid="send-comments">
            Send {comments.length} comment{comments.length === 1 ? '' : 's'}
          </button>
        )}
        {wt !== undefined && (
          <>
            <button type="button" onClick={() => setDialog('land')} data-testid="changes-land">
              Land…
            </button>
            <button type="button" onClick={() => setDialog('archive')} data-testid="changes-archive">
              Archive…
            </button>
          </>
        )}
      </div>
      {error !== undefined && (
        <div className="row-error" role="alert" data-testid="changes-error">
          {error}
        </div>
      )}
      {changes?.missing === true && (
        <div className="row-error" role="alert" data-testid="changes-missing">
          The worktree <code>{changes.folder}</code> was deleted. Archive it to prune git’s record of it.
        </div>
      )}
      {changes !== undefined && !changes.missing && changes.files.length === 0 && <div className="muted small">No changes yet.</div>}
      {changes !== undefined && changes.files.length > 0 && (
        <div className="changes-split">
          <FileList files={changes.files} selected={selected?.path} onSelect={setSelected} onRevert={revertFile} />
          {selected !== undefined && (
            <DiffPane
              session={id}
              file={selected}
              version={version}
              comments={comments}
              onComment={(c) => setComments((cs) => withComment(cs, c))}
              onChanged={reload}
            />
          )}
        </div>
      )}
      {dialog === 'land' && wt !== undefined && (
        <LandDialog session={id} base={wt.base} branch={wt.branch} onClose={() => setDialog(undefined)} onLanded={reload} />
      )}
      {dialog === 'archive' && wt !== undefined && <ArchiveDialog session={id} path={wt.path} onClose={() => setDialog(undefined)} onArchived={reload} />}
    </aside>
  );
}

/** Reads the changes when the panel opens, then again as the host pushes the session's changes, at most every
 * LIVE_REFRESH_MS and never two reads at once. */
function useLiveRefresh(pushed: unknown, reload: () => void) {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(reload);
  latest.current = reload;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each push is what asks for a new read.
  useEffect(() => {
    if (timer.current !== undefined) return;
    const wait = Math.max(0, last.current + LIVE_REFRESH_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = undefined;
      last.current = Date.now();
      latest.current();
    }, wait);
  }, [pushed]);
  useEffect(
    () => () => {
      if (timer.current !== undefined) clearTimeout(timer.current);
    },
    [],
  );
}
