// Sessions that run in a git worktree of their own (issue 27) belong with their repository in the sidebar: a
// worktree at <repo>/.claude/worktrees/<name> (Claude Code's convention, Baton's default) groups under <repo>, and
// within a repository's group sessions on one branch sit together.
import type { SessionInfo } from '../protocol/api';

const WORKTREES = /[\\/]\.claude[\\/]worktrees[\\/][^\\/]+(?:[\\/].*)?$/;

/** The repository a session's folder belongs to: the main checkout of a worktree under .claude/worktrees. */
export function repositoryOf(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  const m = WORKTREES.exec(cwd);
  return m === null ? cwd : cwd.slice(0, m.index);
}

/** Whether a folder is a worktree under <repo>/.claude/worktrees (Baton's default and Claude Code's convention). */
export function inWorktreeFolder(cwd: string | undefined): boolean {
  return cwd !== undefined && WORKTREES.test(cwd);
}

/** The entries with each branch's sessions together, branches in the order of their newest session (stable). */
export function byBranch<T extends Pick<SessionInfo, 'gitBranch'>>(entries: readonly T[]): T[] {
  const order = new Map<string, T[]>();
  for (const e of entries) {
    const key = e.gitBranch ?? '';
    const list = order.get(key);
    if (list === undefined) order.set(key, [e]);
    else list.push(e);
  }
  return [...order.values()].flat();
}
