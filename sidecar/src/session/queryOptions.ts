// The SDK options every Baton session runs with, and how start's new / resume / fork modes map onto them.
import type { Options } from '@anthropic-ai/claude-agent-sdk';
import type { StartPayload } from '../protocol/schemas.js';
import { childEnv } from './childEnv.js';
import { mcpServerConfigs } from './mcpServers.js';

export interface QueryOptionsInput {
  start: StartPayload;
  executable: string;
  /** Receives the CLI's stderr; must never reach stdout. */
  stderr: (data: string) => void;
  env: NodeJS.ProcessEnv;
  /** The sidecar runs as root (uid 0). */
  runningAsRoot: boolean;
}

/**
 * Bypass mode stays reachable (set_permission_mode) through allowDangerouslySkipPermissions, except as root
 * outside a sandbox: there the CLI refuses the flag and exits at once, and bypass mode could not work anyway.
 */
export function allowsBypass(runningAsRoot: boolean, env: NodeJS.ProcessEnv): boolean {
  return !runningAsRoot || env['IS_SANDBOX'] === '1';
}

/** How a start request maps onto the SDK's session options. */
export function sessionOptions(start: StartPayload): Pick<Options, 'sessionId' | 'resume' | 'forkSession' | 'resumeSessionAt'> {
  if (start.forkFrom !== undefined) {
    // Observed live (see README): resume + forkSession + sessionId forks under the host's id.
    return {
      resume: start.forkFrom,
      forkSession: true,
      sessionId: start.session,
      ...(start.at !== undefined ? { resumeSessionAt: start.at } : {}),
    };
  }
  if (start.resume === true) {
    return { resume: start.session, ...(start.at !== undefined ? { resumeSessionAt: start.at } : {}) };
  }
  return { sessionId: start.session };
}

/** The options of one query generation; the generation adds its spawn hook, permission gate and fence hook. */
export type GenerationOptions = Omit<Options, 'canUseTool' | 'spawnClaudeCodeProcess' | 'hooks'>;

export function buildQueryOptions(input: QueryOptionsInput): GenerationOptions {
  const { start } = input;
  return {
    cwd: start.cwd,
    settingSources: ['user', 'project', 'local'],
    systemPrompt: { type: 'preset', preset: 'claude_code' },
    includePartialMessages: true,
    // Command hooks from the settings report their runs (hook.ran rows); the SDK's own callback hooks do not.
    includeHookEvents: true,
    thinking: { type: 'adaptive', display: 'summarized' },
    ...(allowsBypass(input.runningAsRoot, input.env) ? { allowDangerouslySkipPermissions: true } : {}),
    // Without an explicit mode the session starts in the one its settings give.
    ...(start.permissionMode !== undefined ? { permissionMode: start.permissionMode } : {}),
    enableFileCheckpointing: true,
    // `env` replaces the child's environment, so everything the sidecar has is passed on (childEnv.ts: but what
    // the host set for the sidecar alone).
    // EMIT_SESSION_STATE_EVENTS: the CLI's session_state_changed frames then reach the iterator (otherwise they are
    // host-only and the SDK consumes them); idle is the turn-over edge after background work.
    env: { ...childEnv(input.env), CLAUDE_CODE_ENABLE_TODO_TOOLS: '1', CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: '1' },
    ...(start.model !== undefined && start.model !== 'default' ? { model: start.model } : {}),
    stderr: input.stderr,
    pathToClaudeCodeExecutable: input.executable,
    // Claude Code echoes each prompt it accepted (the user message with its uuid, isReplay) before the turn's
    // output: the identity barrier binds on that echo (identity.ts). Without it the CLI says nothing, and the
    // transcript it would be read from is flushed only when the CLI's loop is idle: a fast reply was held whole
    // until its end, a slow one ~100 ms.
    extraArgs: { 'replay-user-messages': null },
    // Servers the host adds go in the initialize request, so their env and headers (secrets, often) stay off
    // claude's command line, where other users of the machine could read them.
    ...(start.mcpServers !== undefined && start.mcpServers.length > 0
      ? { mcpServers: mcpServerConfigs(start.mcpServers), mcpServersDelivery: 'initialize' as const }
      : {}),
    ...sessionOptions(start),
  };
}
