// A session's git work, as the Changes panel asks for it (app/console's gitwork calls): its changed files, one
// file's diff, reverting, landing, pull requests, archiving. Each method is one call; the panel keeps its own view.
import type * as gen from '../protocol/api.gen';
import type { Transport } from '../transport/transport';

/** One review comment on a diff line: the file, the side (a deleted line is on the old side, any other on the new),
 * the line's number on that side, and the text. */
export interface ReviewComment {
  path: string;
  side: 'old' | 'new';
  line: number;
  text: string;
}

/** What tells review comments apart: file, side and line, so a deleted line 5 and an added line 5 (or line 5 of
 * two files) are two comments, never one overwriting the other. */
export function commentKey(c: Pick<ReviewComment, 'path' | 'side' | 'line'>): string {
  return `${c.side}:${c.line}:${c.path}`;
}

/** Adds a comment, replacing the one at the same place (commentKey); an empty text removes it. */
export function withComment(comments: readonly ReviewComment[], c: ReviewComment): ReviewComment[] {
  const key = commentKey(c);
  const rest = comments.filter((x) => commentKey(x) !== key);
  return c.text.trim() === '' ? rest : [...rest, c];
}

export class ChangesActions {
  constructor(private readonly transport: Transport) {}

  list(session: string, cwd?: string): Promise<gen.ChangesResult> {
    return this.transport.call('sessionChanges', { session, ...(cwd !== undefined ? { cwd } : {}) });
  }

  diff(session: string, file: gen.FileChange, maxLines?: number): Promise<gen.FileDiff> {
    return this.transport.call('fileDiff', { session, ...fileRef(file), ...(maxLines !== undefined ? { maxLines } : {}) });
  }

  async revertFile(session: string, file: gen.FileChange): Promise<void> {
    await this.transport.call('revertFile', { session, ...fileRef(file) });
  }

  async revertHunk(session: string, file: gen.FileChange, hunk: gen.Hunk): Promise<void> {
    await this.transport.call('revertHunk', { session, ...fileRef(file), hunk });
  }

  land(session: string, method: gen.LandMethod, message: string): Promise<gen.LandResult> {
    return this.transport.call('landSession', { session, method, ...(message.trim() !== '' ? { message } : {}) });
  }

  pullRequest(session: string, message: string): Promise<gen.PRResult> {
    return this.transport.call('openPullRequest', { session, ...(message.trim() !== '' ? { message } : {}) });
  }

  prChecks(session: string): Promise<gen.PRChecksResult> {
    return this.transport.call('pullRequestChecks', { session });
  }

  archive(session: string, deleteBranch: boolean, force: boolean): Promise<gen.ArchiveResult> {
    return this.transport.call('archiveWorktree', { session, deleteBranch, force });
  }

  prune(cwd: string): Promise<gen.PruneResult> {
    return this.transport.call('pruneWorktrees', { cwd });
  }
}

function fileRef(f: gen.FileChange): { path: string; oldPath?: string } {
  return { path: f.path, ...(f.oldPath !== undefined ? { oldPath: f.oldPath } : {}) };
}

/** The one prompt review comments are sent as: each as `file:line` and the comment (a deleted line says so, its
 * number being the old file's). */
export function commentsPrompt(comments: readonly ReviewComment[]): string {
  const lines = comments.map((c) => `- ${c.path}:${c.line}${c.side === 'old' ? ' (a removed line)' : ''}: ${c.text.trim()}`);
  return `Please address these review comments on your changes:\n\n${lines.join('\n')}`;
}

/** The prompt that hands a conflicting land to Claude in the session. */
export function conflictPrompt(base: string, conflicts: readonly gen.Conflict[]): string {
  const files = conflicts.map((c) => `- ${c.path} (${c.kind})`).join('\n');
  return `Landing this branch into ${base} conflicts in:\n${files}\n\nPlease merge ${base} into this branch, resolve the conflicts, and commit the result.`;
}

/** What starting in a worktree says: where, on which branch, and the tail of the setup command's output. */
export function worktreeNotice(w: gen.WorktreeStarted): string {
  const made = w.newBranch ? 'new branch' : 'branch';
  const setup = w.setupOutput.trim();
  const tail = setup.length > 400 ? `…${setup.slice(-400)}` : setup;
  return `Started in the worktree ${w.path} (${made} ${w.branch}, base ${w.base})${tail !== '' ? `. Setup said:\n${tail}` : ''}`;
}
