// Change counts for listed worktree sessions that are not open (issue 27). The host pushes counts only for the
// sessions it watches, so a stored worktree session's are read once per page from sessionChanges: the sidebar
// then shows its counts and "ready to land" too, without a watch or a git call per listing.
import type { ChangesResult, ChangesUpdate } from '../protocol/api.gen';
import type { SessionInfo } from '../protocol/api';
import { inWorktreeFolder } from './worktreeGroups';

/** At most this many stored sessions are read per listing: one git diff each, on the host. */
export const STORED_COUNTS_PER_LISTING = 20;

/** The counts a changes list adds up to. */
export function countsOf(session: string, r: ChangesResult): ChangesUpdate {
  let added = 0;
  let deleted = 0;
  for (const f of r.files) {
    added += f.added;
    deleted += f.deleted;
  }
  return { session, worktree: r.worktree !== undefined, files: r.files.length, added, deleted, missing: r.missing };
}

/**
 * Reads the counts of the listed worktree sessions not yet known nor asked for (asked is updated at once, so a
 * second listing meanwhile asks for none twice). A session whose changes cannot be read is left without counts.
 */
export async function readStoredCounts(
  items: readonly SessionInfo[],
  known: Readonly<Record<string, ChangesUpdate>>,
  asked: Set<string>,
  list: (session: string) => Promise<ChangesResult>,
): Promise<ChangesUpdate[]> {
  const wanted = items
    .filter((i) => !i.live && inWorktreeFolder(i.cwd) && known[i.session] === undefined && !asked.has(i.session))
    .slice(0, STORED_COUNTS_PER_LISTING);
  for (const i of wanted) asked.add(i.session);
  const read = await Promise.all(
    wanted.map((i) =>
      list(i.session).then(
        (r) => countsOf(i.session, r),
        () => undefined,
      ),
    ),
  );
  return read.filter((c): c is ChangesUpdate => c !== undefined);
}
