// A file's diff as the rows the Changes panel draws: unified (one line a row) or split (the old side beside the
// new, a hunk's deletions paired with the additions that follow them). Pure, so it is cheap to test and memoise.
import { assertNever } from '../../lib/assertNever';
import type { DiffLine, FileDiff } from '../../protocol/api.gen';

export type DiffRow =
  | { kind: 'hunk'; hunk: number; text: string }
  | { kind: 'line'; hunk: number; line: DiffLine }
  | { kind: 'pair'; hunk: number; left?: DiffLine; right?: DiffLine };

export type DiffLayout = 'unified' | 'split';

function hunkHeader(h: FileDiff['hunks'][number]): string {
  const section = h.section !== '' ? ` ${h.section}` : '';
  return `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${section}`;
}

export function diffRows(d: FileDiff, layout: DiffLayout): DiffRow[] {
  const rows: DiffRow[] = [];
  d.hunks.forEach((h, hunk) => {
    rows.push({ kind: 'hunk', hunk, text: hunkHeader(h) });
    if (layout === 'unified') {
      for (const line of h.lines) rows.push({ kind: 'line', hunk, line });
      return;
    }
    let dels: DiffLine[] = [];
    let adds: DiffLine[] = [];
    const flush = () => {
      for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
        const left = dels[i];
        const right = adds[i];
        rows.push({ kind: 'pair', hunk, ...(left !== undefined ? { left } : {}), ...(right !== undefined ? { right } : {}) });
      }
      dels = [];
      adds = [];
    };
    for (const line of h.lines) {
      switch (line.kind) {
        case 'deleted':
          if (adds.length > 0) flush();
          dels.push(line);
          break;
        case 'added':
          adds.push(line);
          break;
        case 'context':
          flush();
          rows.push({ kind: 'pair', hunk, left: line, right: line });
          break;
        default:
          assertNever(line.kind);
      }
    }
    flush();
  });
  return rows;
}

/** Which side of the diff a comment is on: the new file's lines, or (a deleted line) the old file's. */
export type CommentSide = 'old' | 'new';

/** Where a comment on a diff line is: a deleted line by its number in the old file, any other in the new. */
export interface CommentTarget {
  side: CommentSide;
  line: number;
}

export function commentTarget(line: DiffLine): CommentTarget {
  return line.kind === 'deleted' ? { side: 'old', line: line.old } : { side: 'new', line: line.new };
}

/** The line a comment on this diff line refers to: its number in the new file, else (a deletion) in the old. */
export function commentLine(line: DiffLine): number {
  return commentTarget(line).line;
}

/** The places a row can be commented on, left to right: a split row's deletion and addition are two. */
export function rowTargets(row: DiffRow): CommentTarget[] {
  switch (row.kind) {
    case 'hunk':
      return [];
    case 'line':
      return [commentTarget(row.line)];
    case 'pair': {
      const out: CommentTarget[] = [];
      if (row.left !== undefined && row.left.kind === 'deleted') out.push(commentTarget(row.left));
      if (row.right !== undefined) out.push(commentTarget(row.right));
      return out;
    }
    default:
      return assertNever(row);
  }
}
