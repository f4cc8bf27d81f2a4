// A unified diff of two texts, with line numbers from the file, computed by jsdiff. Long diffs show their
// first lines until the person asks for all of them.
import { structuredPatch } from 'diff';
import { memo, useMemo, useState } from 'react';

interface Line {
  kind: 'add' | 'del' | 'ctx' | 'hunk';
  text: string;
  oldNo?: number;
  newNo?: number;
}

const PREVIEW_LINES = 120;

export function diffLines(before: string, after: string): { lines: Line[]; added: number; removed: number } {
  const patch = structuredPatch('a', 'b', before, after, '', '', { context: 3 });
  const lines: Line[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    lines.push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    for (const raw of hunk.lines) {
      const mark = raw.charAt(0);
      const text = raw.slice(1);
      if (mark === '+') {
        lines.push({ kind: 'add', text, newNo: newNo++ });
        added++;
      } else if (mark === '-') {
        lines.push({ kind: 'del', text, oldNo: oldNo++ });
        removed++;
      } else if (mark === ' ') {
        lines.push({ kind: 'ctx', text, oldNo: oldNo++, newNo: newNo++ });
      }
    }
  }
  return { lines, added, removed };
}

export const DiffView = memo(function DiffView({ before, after }: { before: string; after: string }) {
  const { lines, added, removed } = useMemo(() => diffLines(before, after), [before, after]);
  const [all, setAll] = useState(false);
  const shown = all ? lines : lines.slice(0, PREVIEW_LINES);
  if (lines.length === 0) return <div className="muted small">No changes to the text.</div>;
  return (
    <div className="diff" data-testid="diff">
      <div className="diff-stats small">
        <span className="add">+{added}</span> <span className="del">−{removed}</span>
      </div>
      <pre className="diff-body">
        {shown.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines have no identity but their place in it.
          <div key={i} className={`diff-line ${line.kind}`}>
            <span className="no">{line.oldNo ?? ''}</span>
            <span className="no">{line.newNo ?? ''}</span>
            <span className="mark">{line.kind === 'add' ? '+' : line.kind === 'del' ? '−' : line.kind === 'hunk' ? '' : ' '}</span>
            <span className="text">{line.text}</span>
          </div>
        ))}
      </pre>
      {!all && lines.length > PREVIEW_LINES && (
        <button type="button" className="link" onClick={() => setAll(true)}>
          Show all {lines.length} lines
        </button>
      )}
    </div>
  );
});
