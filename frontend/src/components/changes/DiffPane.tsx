// One changed file's diff: unified or split, syntax highlighted, virtualised (only the rows on screen are drawn and
// highlighted, so a 5,000-line diff opens fast), with a revert button per hunk and review comments on lines.
import { memo, useEffect, useMemo, useState } from 'react';
import { Virtuoso } from 'react-virtuoso';
import { highlight, languageFor } from '../../lib/highlight';
import { toApiError } from '../../protocol/api';
import type { DiffLine, FileChange, FileDiff } from '../../protocol/api.gen';
import { commentKey, type ReviewComment } from '../../store/changes';
import { useStore } from '../../store/hooks';
import { type CommentTarget, commentTarget, type DiffLayout, type DiffRow, diffRows, rowTargets } from './diffRows';

interface Props {
  session: string;
  file: FileChange;
  /** Changes when the session's changes may have: read the diff again. */
  version: number;
  comments: readonly ReviewComment[];
  onComment: (c: ReviewComment) => void;
  onChanged: () => void;
}

export function DiffPane({ session, file, version, comments, onComment, onChanged }: Props) {
  const store = useStore();
  const [diff, setDiff] = useState<FileDiff | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [layout, setLayout] = useState<DiffLayout>('unified');
  const [commenting, setCommenting] = useState<Commenting | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version asks for the same file's diff again.
  useEffect(() => {
    let live = true;
    store.changes.diff(session, file).then(
      (d) => {
        if (!live) return;
        setDiff(d);
        setError(undefined);
      },
      (err) => {
        if (live) setError(toApiError(err).message);
      },
    );
    return () => {
      live = false;
    };
  }, [store, session, file.path, file.oldPath, version]);
  const rows = useMemo(() => (diff === undefined ? [] : diffRows(diff, layout)), [diff, layout]);
  const language = useMemo(() => languageFor(file.path), [file.path]);
  const revertHunk = (hunk: number) => {
    const h = diff?.hunks[hunk];
    if (h === undefined) return;
    store.changes.revertHunk(session, file, h).then(onChanged, (err) => store.toast('error', toApiError(err).message));
  };
  // Keyed by file, side and line (commentKey): a deleted and an added line of one number are two places.
  const byPlace = useMemo(() => new Map(comments.filter((c) => c.path === file.path).map((c) => [commentKey(c), c.text])), [comments, file.path]);
  return (
    <div className="diff-pane" data-testid="diff-pane">
      <div className="diff-pane-bar">
        <code className="diff-pane-path">{file.path}</code>
        <span className="spacer" />
        <button type="button" onClick={() => setLayout(layout === 'unified' ? 'split' : 'unified')} data-testid="diff-layout">
          {layout === 'unified' ? 'Split' : 'Unified'}
        </button>
      </div>
      {error !== undefined && (
        <div className="row-error" role="alert">
          {error}
        </div>
      )}
      {diff?.binary === true && <div className="muted small">A binary file: no lines to show.</div>}
      {diff?.truncated === true && <div className="muted small">The diff is long; its first lines are shown.</div>}
      {diff !== undefined && rows.length > 0 && (
        <div className={`diff-rows ${layout}`}>
          <Virtuoso<DiffRow>
            data={rows}
            defaultItemHeight={18}
            increaseViewportBy={400}
            itemContent={(i, row) => (
              <RowView
                row={row}
                index={i}
                language={language}
                path={file.path}
                comments={byPlace}
                commenting={commenting}
                onRevert={revertHunk}
                onStartComment={setCommenting}
                onComment={(at, text) => {
                  setCommenting(undefined);
                  if (text.trim() !== '') onComment({ path: file.path, side: at.side, line: at.line, text });
                }}
              />
            )}
          />
        </div>
      )}
    </div>
  );
}

/** The comment being typed: on which row, at which place. */
interface Commenting {
  index: number;
  at: CommentTarget;
}

interface RowProps {
  row: DiffRow;
  index: number;
  language: string | undefined;
  path: string;
  comments: Map<string, string>;
  commenting: Commenting | undefined;
  onRevert: (hunk: number) => void;
  onStartComment: (c: Commenting | undefined) => void;
  onComment: (at: CommentTarget, text: string) => void;
}

const RowView = memo(function RowView({ row, index, language, path, comments, commenting, onRevert, onStartComment, onComment }: RowProps) {
  if (row.kind === 'hunk') {
    return (
      <div className="diff-row hunk">
        <span className="text">{row.text}</span>
        <button type="button" className="link small" onClick={() => onRevert(row.hunk)} data-testid="revert-hunk">
          Revert hunk
        </button>
      </div>
    );
  }
  const start = (line: DiffLine | undefined) => {
    if (line !== undefined) onStartComment({ index, at: commentTarget(line) });
  };
  const typing = commenting?.index === index && commenting.at.line > 0 ? commenting.at : undefined;
  return (
    <div className="diff-row-wrap">
      {row.kind === 'line' ? (
        <div className={`diff-row ${row.line.kind}`}>
          <LineNo line={row.line.old} onClick={() => start(row.line)} />
          <LineNo line={row.line.new} onClick={() => start(row.line)} />
          <Code line={row.line} language={language} />
        </div>
      ) : (
        <div className="diff-row pair">
          <Side line={row.left} which="old" language={language} onClick={() => start(row.left?.kind === 'deleted' ? row.left : row.right)} />
          <Side line={row.right} which="new" language={language} onClick={() => start(row.right)} />
        </div>
      )}
      {rowTargets(row).map((at) => {
        const comment = comments.get(commentKey({ path, ...at }));
        return comment === undefined ? null : (
          <div key={`${at.side}${at.line}`} className="diff-comment small" data-testid="diff-comment">
            💬 {comment}
          </div>
        );
      })}
      {typing !== undefined && <CommentBox onDone={(text) => onComment(typing, text)} onCancel={() => onStartComment(undefined)} />}
    </div>
  );
});

function LineNo({ line, onClick }: { line: number; onClick: () => void }) {
  return (
    <button type="button" className="no" onClick={onClick} title="Comment on this line" data-testid="diff-line-no">
      {line > 0 ? line : ''}
    </button>
  );
}

function Code({ line, language }: { line: DiffLine; language: string | undefined }) {
  const mark = line.kind === 'added' ? '+' : line.kind === 'deleted' ? '−' : ' ';
  return (
    <>
      <span className="mark">{mark}</span>
      {/* highlight() escapes the text; highlight.js's own markup is the only HTML in it. */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: escaped by highlight() */}
      <span className="text hljs" dangerouslySetInnerHTML={{ __html: highlight(line.text, language) }} />
    </>
  );
}

function Side({ line, which, language, onClick }: { line?: DiffLine | undefined; which: 'old' | 'new'; language: string | undefined; onClick: () => void }) {
  if (line === undefined) return <div className="diff-side empty" />;
  const kind = line.kind === 'context' ? 'context' : line.kind;
  return (
    <div className={`diff-side ${kind}`}>
      <LineNo line={which === 'old' ? line.old : line.new} onClick={onClick} />
      <Code line={line} language={language} />
    </div>
  );
}

function CommentBox({ onDone, onCancel }: { onDone: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState('');
  return (
    <form
      className="diff-comment-box"
      onSubmit={(e) => {
        e.preventDefault();
        onDone(text);
      }}
    >
      <textarea
        rows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="A comment for Claude on this line"
        data-testid="diff-comment-input"
        autoFocus
      />
      <div className="dialog-buttons">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" data-testid="diff-comment-add">
          Add comment
        </button>
      </div>
    </form>
  );
}
