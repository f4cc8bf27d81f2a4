// Rewinding files to a user message's checkpoint, and saying which files the rewind restored. Claude Code's real
// rewind answers only whether it could (a dry run is what lists the files), so the files restored are measured:
// what a dry run would change before the rewind, less what one still would after it (a file skipped for link
// safety, or one that failed).
import type { Query, RewindFilesResult } from '@anthropic-ai/claude-agent-sdk';
import type { OkPayload } from '../protocol/schemas.js';

export type RewindResult = OkPayload<'rewind_files'>;

/** The part of an SDK query a rewind uses. */
export type Rewinder = Pick<Query, 'rewindFiles'>;

function payloadOf(result: RewindFilesResult): RewindResult {
  return {
    canRewind: result.canRewind,
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.filesChanged !== undefined ? { filesChanged: result.filesChanged } : {}),
    ...(result.insertions !== undefined ? { insertions: result.insertions } : {}),
    ...(result.deletions !== undefined ? { deletions: result.deletions } : {}),
  };
}

/** Restores (or, dry, measures restoring) the files to `message`; a real rewind's filesChanged are those restored. */
export async function rewindFiles(query: Rewinder, message: string, dryRun: boolean): Promise<RewindResult> {
  if (dryRun) return payloadOf(await query.rewindFiles(message, { dryRun: true }));
  const before = await query.rewindFiles(message, { dryRun: true });
  const done = await query.rewindFiles(message, { dryRun: false });
  if (!done.canRewind || done.filesChanged !== undefined) return payloadOf(done);
  const left = new Set((await query.rewindFiles(message, { dryRun: true })).filesChanged ?? []);
  return payloadOf({ ...done, filesChanged: (before.filesChanged ?? []).filter((f) => !left.has(f)) });
}
