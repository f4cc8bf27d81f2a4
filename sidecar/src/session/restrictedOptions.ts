// The SDK options of a restricted run (PROTOCOL.md, "Restricted runs"): the host's tools and nothing else. Each
// layer holds on its own, so none is trusted alone: no built-in tool is offered (tools: []), every built-in name is
// disallowed as well, canUseTool denies anything outside the host's MCP server, and no setting source, MCP config,
// skill, plugin or slash command of the person's or the project's is read.
import { BUILTIN_TOOL_NAMES, type CanUseTool, LEGACY_TOOL_NAME_ALIASES, type McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk';
import type { RestrictedRun, StartPayload } from '../protocol/schemas.js';
import { HOST_TOOL_PREFIX, HOST_TOOL_SERVER } from './hostTools.js';
import type { GenerationOptions, QueryOptionsInput } from './queryOptions.js';
import { childEnv } from './childEnv.js';

/** Every built-in tool name the SDK knows, with the legacy aliases the CLI still maps (Task → Agent, …). */
export const DISALLOWED_BUILTINS: readonly string[] = [...BUILTIN_TOOL_NAMES, ...Object.keys(LEGACY_TOOL_NAME_ALIASES)];

export const NOT_AVAILABLE_MESSAGE = 'This tool is not available in this run. Use only the tools you were given.';

/** Allows exactly the host's tools (by their full mcp__baton__ names); denies everything else. */
export function restrictedCanUseTool(run: RestrictedRun): CanUseTool {
  const allowed = new Set(run.tools.map((t) => HOST_TOOL_PREFIX + t.name));
  return (toolName, input, options) =>
    Promise.resolve(
      allowed.has(toolName)
        ? { behavior: 'allow', updatedInput: input, toolUseID: options.toolUseID }
        : { behavior: 'deny', message: NOT_AVAILABLE_MESSAGE, toolUseID: options.toolUseID },
    );
}

export interface RestrictedOptionsInput extends Omit<QueryOptionsInput, 'canUseTool' | 'runningAsRoot'> {
  start: StartPayload & { restricted: RestrictedRun };
  server: McpSdkServerConfigWithInstance;
}

/** A restricted generation's options: its own permission gate; the generation adds its spawn hook and fence. */
export function buildRestrictedOptions(input: RestrictedOptionsInput): GenerationOptions & { canUseTool: CanUseTool } {
  const { start, server } = input;
  const run = start.restricted;
  return {
    cwd: start.cwd,
    sessionId: start.session,
    // Isolation: no user, project or local settings (so no allow rules, hooks, env or MCP servers from them),
    // no MCP server but the host's, no skills, plugins or agents, and prompts sent as typed (no slash commands).
    settingSources: [],
    strictMcpConfig: true,
    mcpServers: { [HOST_TOOL_SERVER]: server },
    skills: [],
    plugins: [],
    agents: {},
    verbatimPrompts: true,
    tools: [],
    disallowedTools: [...DISALLOWED_BUILTINS],
    canUseTool: restrictedCanUseTool(run),
    // Explicit, so the CLI asks canUseTool instead of picking a mode of its own; bypass is never allowed here.
    permissionMode: 'default',
    maxTurns: run.maxTurns,
    ...(run.maxBudgetUsd !== undefined ? { maxBudgetUsd: run.maxBudgetUsd } : {}),
    // The caller's prompt alone; without one the SDK's one-line identity stays (never Claude Code's own prompt,
    // which describes tools this run does not have).
    ...(run.systemPrompt !== undefined ? { systemPrompt: run.systemPrompt } : {}),
    includePartialMessages: true,
    // A program's run is not a conversation to resume: no transcript among the person's sessions.
    persistSession: false,
    // No tool search: with it the CLI adds a deferred placeholder tool to every request, and nothing here is
    // deferred (the host's tools load always).
    env: { ...childEnv(input.env), ENABLE_TOOL_SEARCH: 'false' },
    ...(start.model !== undefined && start.model !== 'default' ? { model: start.model } : {}),
    stderr: input.stderr,
    pathToClaudeCodeExecutable: input.executable,
  };
}

export function isRestricted(start: StartPayload): start is StartPayload & { restricted: RestrictedRun } {
  return start.restricted !== undefined;
}
