// The console's calls for a session's git work (app/gitwork): starting it in a worktree, its changes and their
// diffs, reverting, landing, pull requests and cleaning up. console.ts spreads these into the one contract.
import { z } from 'zod';
import { type ConsoleCall, count, emptySchema } from './consoleShared.js';

export const worktreeStartSchema = z
  .strictObject({
    prompt: z.string().optional(),
    branch: z.string().optional(),
    base: z.string().optional(),
  })
  .describe('starts the session in a new git worktree: on branch (existing or new; default one named from prompt) off base (default the current branch)');
export const worktreeInfoSchema = z
  .strictObject({ repo: z.string(), path: z.string(), branch: z.string(), base: z.string() })
  .describe('is a session’s own worktree: the main checkout, its folder, its branch and the base it lands into');
export const worktreeStartedSchema = worktreeInfoSchema
  .extend({ newBranch: z.boolean(), copied: z.array(z.string()), setupOutput: z.string() })
  .describe('is a new session’s worktree, whether its branch is new, the files copied in (.worktreeinclude) and the setup command’s output');
export const startResultSchema = z
  .strictObject({ session: z.string(), cwd: z.string().optional(), worktree: worktreeStartedSchema.optional() })
  .describe('names the session started; in a worktree, the folder it runs in and the worktree made for it');
export const changesParamsSchema = z
  .strictObject({ session: z.string(), cwd: z.string().optional() })
  .describe('names a session; cwd is the folder of one not in a worktree (default: the folder it runs or was stored in)');
export const fileStatusSchema = z.enum(['added', 'modified', 'deleted', 'renamed']);
export const fileChangeSchema = z
  .strictObject({
    path: z.string(),
    oldPath: z.string().optional(),
    status: fileStatusSchema,
    added: count,
    deleted: count,
    binary: z.boolean(),
  })
  .describe('is one changed file, its path relative to the checkout’s root, with its added and deleted line counts');
export const changesResultSchema = z
  .strictObject({
    folder: z.string(),
    base: z.string(),
    worktree: worktreeInfoSchema.optional(),
    missing: z.boolean(),
    files: z.array(fileChangeSchema),
  })
  .describe(
    'is the files a session changed: in its worktree against its base, else its folder’s against HEAD (missing: its worktree’s folder was deleted by hand; archiving prunes it)',
  );
export const diffParamsSchema = z.strictObject({
  session: z.string(),
  cwd: z.string().optional(),
  path: z.string(),
  oldPath: z.string().optional(),
  maxLines: z.number().int().positive().optional(),
});
export const lineKindSchema = z.enum(['context', 'added', 'deleted']);
export const diffLineSchema = z
  .strictObject({ kind: lineKindSchema, text: z.string(), old: count, new: count, noNewline: z.boolean() })
  .describe('is one line of a hunk; old and new are its line numbers on each side (0 on the side it is not on)');
export const hunkSchema = z.strictObject({
  oldStart: count,
  oldLines: count,
  newStart: count,
  newLines: count,
  section: z.string(),
  lines: z.array(diffLineSchema),
});
export const fileDiffSchema = z
  .strictObject({
    path: z.string(),
    oldPath: z.string().optional(),
    binary: z.boolean(),
    hunks: z.array(hunkSchema),
    truncated: z.boolean(),
  })
  .describe('is one file’s diff against the session’s base (truncated: cut at maxLines, default 20 000)');
export const revertFileParamsSchema = z.strictObject({
  session: z.string(),
  cwd: z.string().optional(),
  path: z.string(),
  oldPath: z.string().optional(),
});
export const revertHunkParamsSchema = z
  .strictObject({ session: z.string(), cwd: z.string().optional(), path: z.string(), oldPath: z.string().optional(), hunk: hunkSchema })
  .describe('takes one hunk, as fileDiff returned it, back out of the file');
export const landMethodSchema = z.enum(['merge', 'squash', 'rebase']);
export const landParamsSchema = z
  .strictObject({ session: z.string(), method: landMethodSchema, message: z.string().optional() })
  .describe('lands a worktree session’s branch in its base; message commits uncommitted work first (and is a squash’s message)');
export const landOutcomeSchema = z.enum(['landed', 'conflict', 'dirty', 'wrong_branch', 'need_message', 'nothing']);
export const conflictSchema = z.strictObject({ path: z.string(), kind: z.string() }).describe('is one file a land could not merge');
export const landResultSchema = z
  .strictObject({
    outcome: landOutcomeSchema,
    message: z.string(),
    method: landMethodSchema,
    committed: z.boolean(),
    commits: count,
    fastForward: z.boolean(),
    head: z.string(),
    conflicts: z.array(conflictSchema),
    dirtyFiles: z.array(z.string()),
  })
  .describe('is what a land did, or why it did nothing (message says what to do; a conflict was undone and lists its files)');
export const prParamsSchema = z.strictObject({
  session: z.string(),
  message: z.string().optional(),
  title: z.string().optional(),
  body: z.string().optional(),
});
export const prResultSchema = z
  .strictObject({
    committed: z.boolean(),
    pushed: z.boolean(),
    remote: z.string(),
    url: z.string().optional(),
    commands: z.array(z.string()),
    reason: z.string().optional(),
  })
  .describe('is the pull request gh opened, or, without a signed-in gh, the exact commands to run and why');
export const prChecksParamsSchema = z.strictObject({ session: z.string() }).describe('names a worktree session whose branch has a pull request');
export const prCheckSchema = z
  .strictObject({ name: z.string(), state: z.string(), bucket: z.string(), link: z.string().optional() })
  .describe('is one check of a pull request as gh reports it (bucket: pass, fail, pending, skipping or cancel)');
export const prChecksResultSchema = z
  .strictObject({ checks: z.array(prCheckSchema), commands: z.array(z.string()), reason: z.string().optional() })
  .describe('is the pull request’s checks gh reports (none yet: empty), or, without a signed-in gh, the command that shows them and why');
export const archiveParamsSchema = z
  .strictObject({ session: z.string(), deleteBranch: z.boolean().optional(), force: z.boolean().optional() })
  .describe('removes a session’s worktree (and with deleteBranch its branch); force: even when work would be lost');
export const commitSchema = z.strictObject({ hash: z.string(), subject: z.string() });
export const archiveResultSchema = z
  .strictObject({
    archived: z.boolean(),
    removed: z.boolean(),
    alreadyGone: z.boolean(),
    branchDeleted: z.boolean(),
    uncommitted: z.array(z.string()),
    unlanded: z.array(commitSchema),
    message: z.string(),
  })
  .describe('is what an archive removed, or (archived false) the uncommitted files and unlanded commits it refused to lose');
export const pruneParamsSchema = z.strictObject({ cwd: z.string() });
export const pruneResultSchema = z.strictObject({ pruned: z.array(z.string()) }).describe('lists the worktrees whose folders were gone, now forgotten');

export const changesUpdateSchema = z
  .strictObject({
    session: z.string(),
    worktree: z.boolean(),
    files: count,
    added: count,
    deleted: count,
    missing: z.boolean(),
  })
  .describe(
    'is an open session’s change counts, pushed when its folder changed: files changed, lines added and deleted (worktree: in its own worktree against its base, so work it can land; missing: that worktree’s folder was deleted)',
  );

export const CHANGES_NAMED: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['WorktreeStart', worktreeStartSchema],
  ['WorktreeInfo', worktreeInfoSchema],
  ['WorktreeStarted', worktreeStartedSchema],
  ['StartResult', startResultSchema],
  ['ChangesParams', changesParamsSchema],
  ['FileStatus', fileStatusSchema],
  ['FileChange', fileChangeSchema],
  ['ChangesResult', changesResultSchema],
  ['DiffParams', diffParamsSchema],
  ['LineKind', lineKindSchema],
  ['DiffLine', diffLineSchema],
  ['Hunk', hunkSchema],
  ['FileDiff', fileDiffSchema],
  ['RevertFileParams', revertFileParamsSchema],
  ['RevertHunkParams', revertHunkParamsSchema],
  ['LandMethod', landMethodSchema],
  ['LandParams', landParamsSchema],
  ['LandOutcome', landOutcomeSchema],
  ['Conflict', conflictSchema],
  ['LandResult', landResultSchema],
  ['PRParams', prParamsSchema],
  ['PRResult', prResultSchema],
  ['PRChecksParams', prChecksParamsSchema],
  ['PRCheck', prCheckSchema],
  ['PRChecksResult', prChecksResultSchema],
  ['ArchiveParams', archiveParamsSchema],
  ['Commit', commitSchema],
  ['ArchiveResult', archiveResultSchema],
  ['PruneParams', pruneParamsSchema],
  ['PruneResult', pruneResultSchema],
  ['ChangesUpdate', changesUpdateSchema],
];

export const CHANGES_CALLS = {
  sessionChanges: { params: changesParamsSchema, result: changesResultSchema, doc: 'The files a session changed, with +/- counts.' },
  fileDiff: { params: diffParamsSchema, result: fileDiffSchema, doc: 'One changed file’s diff against the session’s base.' },
  revertFile: { params: revertFileParamsSchema, result: emptySchema, doc: 'Puts one file back as it is in the base.' },
  revertHunk: { params: revertHunkParamsSchema, result: emptySchema, doc: 'Takes one hunk back out of a file.' },
  landSession: { params: landParamsSchema, result: landResultSchema, doc: 'Merges, squashes or rebases a worktree session into its base.' },
  openPullRequest: { params: prParamsSchema, result: prResultSchema, doc: 'Pushes the branch and opens a pull request with gh (else the commands).' },
  pullRequestChecks: {
    params: prChecksParamsSchema,
    result: prChecksResultSchema,
    doc: 'The checks gh reports on the branch’s pull request (else the command).',
  },
  archiveWorktree: { params: archiveParamsSchema, result: archiveResultSchema, doc: 'Removes a session’s worktree, refusing to lose work unless forced.' },
  pruneWorktrees: { params: pruneParamsSchema, result: pruneResultSchema, doc: 'Forgets the repository’s worktrees whose folders were deleted.' },
} as const satisfies Record<string, ConsoleCall>;

/** What the host pushes of a session's git work: its change counts as they change (on disk, by Claude or not). */
export const CHANGES_PUSHES = {
  changes: {
    payload: changesUpdateSchema,
    wails: 'baton:changes',
    doc: 'An open session’s change counts changed (its folder was edited, by Claude or anyone): read sessionChanges again for the list.',
  },
} as const;
