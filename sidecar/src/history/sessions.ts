// The session list (listSessions) in the wire's SessionInfo shape, newest first.
import { listSessions, type SDKSessionInfo } from '@anthropic-ai/claude-agent-sdk';
import type { ListSessionsPayload, SessionInfo } from '../protocol/schemas.js';

export function toSessionInfo(info: SDKSessionInfo): SessionInfo {
  return {
    session: info.sessionId,
    title: info.summary,
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
  // The SDK sorts newest first today; the wire promises it, so it is enforced here.
  return infos.map(toSessionInfo).sort((a, b) => b.lastModified - a.lastModified);
}
