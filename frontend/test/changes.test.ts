import { describe, expect, it } from 'vitest';
import { commentLine, diffRows, rowTargets } from '../src/components/changes/diffRows';
import type { FileDiff } from '../src/protocol/api.gen';
import { commentsPrompt, conflictPrompt, withComment } from '../src/store/changes';
import { groupEntries, type SidebarEntry } from '../src/store/sidebar';
import { repositoryOf } from '../src/store/worktreeGroups';

const diff: FileDiff = {
  path: 'a.go',
  binary: false,
  truncated: false,
  hunks: [
    {
      oldStart: 1,
      oldLines: 3,
      newStart: 1,
      newLines: 4,
      section: 'func main',
      lines: [
        { kind: 'context', text: 'one', old: 1, new: 1, noNewline: false },
        { kind: 'deleted', text: 'two', old: 2, new: 0, noNewline: false },
        { kind: 'added', text: 'TWO', old: 0, new: 2, noNewline: false },
        { kind: 'added', text: 'two and a half', old: 0, new: 3, noNewline: false },
        { kind: 'context', text: 'three', old: 3, new: 4, noNewline: false },
      ],
    },
  ],
};

describe('diff rows', () => {
  it('unified: a header then one row a line', () => {
    const rows = diffRows(diff, 'unified');
    expect(rows[0]).toEqual({ kind: 'hunk', hunk: 0, text: '@@ -1,3 +1,4 @@ func main' });
    expect(rows.slice(1).map((r) => (r.kind === 'line' ? r.line.text : ''))).toEqual(['one', 'two', 'TWO', 'two and a half', 'three']);
  });
  it('split: deletions pair with the additions after them, context on both sides', () => {
    const rows = diffRows(diff, 'split').slice(1);
    expect(rows.map((r) => (r.kind === 'pair' ? [r.left?.text, r.right?.text] : []))).toEqual([
      ['one', 'one'],
      ['two', 'TWO'],
      [undefined, 'two and a half'],
      ['three', 'three'],
    ]);
  });
  it('a comment refers to the new line, or the old one for a deletion', () => {
    const lines = diff.hunks[0]?.lines ?? [];
    expect(lines.map(commentLine)).toEqual([1, 2, 2, 3, 4]);
  });
});

describe('prompts', () => {
  it('sends review comments as one prompt with file:line', () => {
    expect(
      commentsPrompt([
        { path: 'a.go', side: 'new', line: 2, text: 'name it better ' },
        { path: 'b.md', side: 'old', line: 9, text: 'typo' },
      ]),
    ).toBe('Please address these review comments on your changes:\n\n- a.go:2: name it better\n- b.md:9 (a removed line): typo');
  });
  it('keys comments by file, side and line: none overwrites another', () => {
    let cs = withComment([], { path: 'a.go', side: 'old', line: 5, text: 'why remove this?' });
    cs = withComment(cs, { path: 'a.go', side: 'new', line: 5, text: 'and add this?' });
    cs = withComment(cs, { path: 'b.go', side: 'new', line: 5, text: 'other file' });
    expect(cs.map((c) => c.text)).toEqual(['why remove this?', 'and add this?', 'other file']);
    cs = withComment(cs, { path: 'a.go', side: 'new', line: 5, text: 'edited' });
    expect(cs.map((c) => c.text)).toEqual(['why remove this?', 'other file', 'edited']);
    expect(withComment(cs, { path: 'b.go', side: 'new', line: 5, text: ' ' }).map((c) => c.text)).toEqual(['why remove this?', 'edited']);
  });
  it('a split row offers its deletion and its addition as two places', () => {
    const pair = diffRows(diff, 'split')[2];
    expect(pair === undefined ? [] : rowTargets(pair)).toEqual([
      { side: 'old', line: 2 },
      { side: 'new', line: 2 },
    ]);
  });
  it('hands a conflict to Claude with its files', () => {
    expect(conflictPrompt('main', [{ path: 'x.txt', kind: 'both added' }])).toContain('- x.txt (both added)');
  });
});

describe('sidebar grouping of worktree sessions', () => {
  const at = (session: string, cwd: string, gitBranch: string, ago: number): SidebarEntry => ({
    session,
    cwd,
    gitBranch,
    title: session,
    lastModified: 1_000_000 - ago,
    live: false,
    pinned: false,
    archived: false,
    asleep: false,
    waiting: false,
    busy: false,
    finished: false,
  });
  it('groups worktrees under their repository, each branch together, newest branch first', () => {
    const list = [
      at('w1', '/src/app/.claude/worktrees/fix-a', 'baton/fix-a', 1),
      at('m1', '/src/app', 'main', 2),
      at('w2', '/src/app/.claude/worktrees/fix-a/sub', 'baton/fix-a', 3),
      at('m2', '/src/app', 'main', 4),
      at('o1', '/src/other', 'main', 5),
    ];
    const groups = groupEntries(list, 'project', 1_000_000, false);
    expect(groups.map((g) => [g.label, g.hint, g.entries.map((e) => e.session)])).toEqual([
      ['app', '/src/app', ['w1', 'w2', 'm1', 'm2']],
      ['other', '/src/other', ['o1']],
    ]);
    expect(repositoryOf('/src/app/.claude/worktrees/x')).toBe('/src/app');
    expect(repositoryOf('/src/app/claude/worktrees/x')).toBe('/src/app/claude/worktrees/x');
  });
});
