// The session list (listSessions) in the wire's SessionInfo shape, newest first.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { forkSession, listSessions, renameSession, type SDKSessionInfo } from '@anthropic-ai/claude-agent-sdk';
import type { ForkSessionPayload, ListSessionsPayload, OkPayload, RenameSessionPayload, SessionInfo } from '../protocol/schemas.js';
import { mainFirstPrompt } from './firstPrompt.js';
import { claudeConfigDir, transcriptPath } from './goalStatus.js';
import { sessionTitle } from './titles.js';

export function toSessionInfo(info: SDKSessionInfo): SessionInfo {
  return {
    session: info.sessionId,
    title: sessionTitle(info),
    lastModified: info.lastModified,
    ...(info.cwd !== undefined ? { cwd: info.cwd } : {}),
    ...(info.createdAt !== undefined ? { createdAt: info.createdAt } : {}),
    ...(info.gitBranch !== undefined ? { gitBranch: info.gitBranch } : {}),
    ...(info.firstPrompt !== undefined ? { firstPrompt: info.firstPrompt } : {}),
  };
}

/** Across every project unless cwd is given. Reads the sidecar's own CLAUDE_CONFIG_DIR / HOME. */
export async function readSessions(payload: ListSessionsPayload): Promise<SessionInfo[]> {
  const infos = await listSessions({
    ...(payload.cwd !== undefined ? { dir: payload.cwd } : {}),
    ...(payload.limit !== undefined ? { limit: payload.limit } : {}),
  });
  const where = await transcriptFolders();
  const checked: SDKSessionInfo[] = [];
  for (let i = 0; i < infos.length; i += CHECK_BATCH) {
    if (i > 0) await nextTurn();
    checked.push(...(await Promise.all(infos.slice(i, i + CHECK_BATCH).map((info) => withMainFirstPrompt(info, where)))));
  }
  // The SDK sorts newest first today; the wire promises it, so it is enforced here.
  return checked.map(toSessionInfo).sort((a, b) => b.lastModified - a.lastModified);
}

/**
 * Sessions whose first prompt is checked in one turn of the event loop: the check reads each head synchronously
 * (firstPrompt.ts), so a running session's sidecar that lists a folder goes on streaming between batches.
 */
const CHECK_BATCH = 32;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The info with the person's own first prompt when the SDK took a subagent's (firstPrompt.ts). */
async function withMainFirstPrompt(info: SDKSessionInfo, where: TranscriptFolders | undefined): Promise<SDKSessionInfo> {
  if (info.customTitle !== undefined || info.firstPrompt === undefined) return info;
  const found = where?.find(info.sessionId, info.cwd);
  const file = found !== undefined && found !== 'ask' ? found.path : await transcriptPath(info.sessionId, info.cwd);
  const own = file !== undefined ? await mainFirstPrompt(file, info.firstPrompt).catch(() => undefined) : undefined;
  return own !== undefined ? { ...info, firstPrompt: own } : info;
}

/** Sets the session's own title (Claude Code's custom title, as its /rename does): it appends a custom-title entry. */
export async function renameStoredSession(payload: RenameSessionPayload): Promise<void> {
  try {
    await renameSession(payload.session, payload.title.trim(), payload.cwd !== undefined ? { dir: payload.cwd } : undefined);
  } catch (err) {
    throw new Error(`could not rename session ${payload.session}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/**
 * A new session holding the conversation up to and including message `upTo`, under `title` (the SDK copies the
 * chain with new uuids; Claude Code resumes it like any other session).
 */
export async function forkStoredSession(payload: ForkSessionPayload): Promise<OkPayload<'fork_session'>> {
  try {
    const { sessionId } = await forkSession(payload.session, { dir: payload.cwd, upToMessageId: payload.upTo, title: payload.title?.trim() });
    return { session: sessionId };
  } catch (err) {
    throw new Error(`could not copy session ${payload.session}'s conversation: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** Which project folders hold which transcripts: read once per listing (transcriptPath per session read the
 * projects folder and tried a path in each project, a thousand times over for a thousand sessions). */
interface TranscriptFolders {
  /** The transcript's path (path undefined: none), or 'ask' where a link makes only a stat sure. */
  find(session: string, cwd: string | undefined): { path: string | undefined } | 'ask';
}

/** The projects folder as it is now; undefined when it cannot be read (then each session is looked up alone). */
async function transcriptFolders(configDir: string = claudeConfigDir()): Promise<TranscriptFolders | undefined> {
  const projects = join(configDir, 'projects');
  let dirs: string[];
  try {
    dirs = await readdir(projects);
  } catch {
    return undefined;
  }
  const files = new Map<string, Set<string>>();
  const links = new Set<string>(); // names that are a link somewhere: transcriptPath's stat follows them
  const listed = await Promise.all(dirs.map((dir) => readdir(join(projects, dir), { withFileTypes: true }).catch(() => [])));
  dirs.forEach((dir, i) => {
    const entries = listed[i]!;
    for (const e of entries) if (e.isSymbolicLink()) links.add(e.name);
    files.set(dir, new Set(entries.filter((e) => e.isFile()).map((e) => e.name)));
  });
  const holds = (dir: string, name: string) => files.get(dir)?.has(name) === true;
  return {
    // As transcriptPath: the cwd's own folder first, then every project folder in the order listed.
    find(session, cwd) {
      const name = `${session}.jsonl`;
      if (links.has(name)) return 'ask';
      const own = cwd?.replace(/[^a-zA-Z0-9]/g, '-');
      const dir = own !== undefined && holds(own, name) ? own : dirs.find((d) => holds(d, name));
      return { path: dir !== undefined ? join(projects, dir, name) : undefined };
    },
  };
}
