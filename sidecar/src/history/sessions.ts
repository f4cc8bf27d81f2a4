// The session list (listSessions) in the wire's SessionInfo shape, newest first.
import { listSessions, renameSession, type SDKSessionInfo } from '@anthropic-ai/claude-agent-sdk';
import type { ListSessionsPayload, RenameSessionPayload, SessionInfo } from '../protocol/schemas.js';
import { mainFirstPrompt } from './firstPrompt.js';
import { transcriptPath } from './goalStatus.js';
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
  const checked = await Promise.all(infos.map(withMainFirstPrompt));
  // The SDK sorts newest first today; the wire promises it, so it is enforced here.
  return checked.map(toSessionInfo).sort((a, b) => b.lastModified - a.lastModified);
}

/** The info with the person's own first prompt when the SDK took a subagent's (firstPrompt.ts). */
async function withMainFirstPrompt(info: SDKSessionInfo): Promise<SDKSessionInfo> {
  if (info.customTitle !== undefined || info.firstPrompt === undefined) return info;
  const file = await transcriptPath(info.sessionId, info.cwd);
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
