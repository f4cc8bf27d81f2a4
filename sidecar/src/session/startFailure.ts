// Why a session's start failed, in the words that fit: a resumed or forked session that is not stored for this
// folder says so, and so does a new session whose chosen id a stored one already has; the root hint only when bypass mode was asked for (the one refusal it explains).
import { ProtocolFailure } from '../protocol/errors.js';
import type { StartPayload } from '../protocol/schemas.js';
import { shortError } from '../util/diagnostics.js';
import type { SessionInfoFn } from './sideReads.js';

export async function explainStartFailure(start: StartPayload, error: unknown, env: NodeJS.ProcessEnv, sessionInfo: SessionInfoFn): Promise<ProtocolFailure> {
  const stored = start.forkFrom ?? (start.resume === true ? start.session : undefined);
  if (stored !== undefined && !(await isStored(sessionInfo, stored, start.cwd))) {
    return new ProtocolFailure('session_not_found', `no stored session ${stored} was found for the folder ${start.cwd}`);
  }
  if (stored === undefined && start.resume !== true && (await isStored(sessionInfo, start.session, start.cwd, false))) {
    return new ProtocolFailure(
      'session_exists',
      `the session id ${start.session} is taken: a stored session in ${start.cwd} has it (resume that session, or choose another id)`,
    );
  }
  const hint = start.permissionMode === 'bypassPermissions' ? rootHint(env) : '';
  return new ProtocolFailure('sdk_error', `Claude Code did not start: ${shortError(error)}${hint}`);
}

/** Whether the session is stored for cwd; `unknown` is the answer when the store cannot be read. */
async function isStored(sessionInfo: SessionInfoFn, session: string, cwd: string, unknown = true): Promise<boolean> {
  try {
    return (await sessionInfo(session, { dir: cwd })) !== undefined;
  } catch {
    return unknown; // let the CLI's own error speak
  }
}

export function runningAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** As root the CLI refuses bypass mode and exits at once; say so instead of a bare exit code. */
function rootHint(env: NodeJS.ProcessEnv): string {
  return runningAsRoot() && env['IS_SANDBOX'] !== '1' ? ' (running as root: Claude Code refuses bypassPermissions as root unless IS_SANDBOX=1 is set)' : '';
}
