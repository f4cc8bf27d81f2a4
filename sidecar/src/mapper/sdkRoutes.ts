// Every member of the SDK's own message union (SDKMessage in sdk.d.ts), named by its type (and subtype for system
// messages), and what the mapper does with it. The table's type demands exactly the union's members: an SDK
// upgrade that adds (or drops) a message type fails the typecheck here, not a user at run time. At run time a
// message outside the table still becomes an `unknown` event carrying its raw JSON; nothing is dropped unnamed.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';

type SdkKey<M> = M extends { type: 'system'; subtype: infer S extends string }
  ? `system/${S}`
  : M extends { type: infer T extends string }
    ? T
    : never;
/** "assistant", "result", "system/init", … one per member of SDKMessage. */
export type SdkMessageKey = SdkKey<SDKMessage>;

/**
 * What the mapper does with a message: a reader that maps it to events (each falls back to `unknown` when the
 * message does not parse), `ignore` (dropped by name, with the reason beside it), or `unknown` (shown as an
 * unknown row with its raw JSON, on purpose: Baton has no event for it yet).
 */
export type Route =
  | 'assistant'
  | 'user'
  | 'result'
  | 'stream_event'
  | 'tool_progress'
  | 'init'
  | 'status'
  | 'api_retry'
  | 'thinking_tokens'
  | 'task_progress'
  | 'task_started'
  | 'task_updated'
  | 'task_notification'
  | 'tasks_changed'
  | 'goal'
  | 'compacted'
  | 'hook'
  | 'commands'
  | 'title'
  | 'ignore'
  | 'unknown';

export const SDK_ROUTES = {
  assistant: 'assistant',
  user: 'user',
  result: 'result',
  stream_event: 'stream_event',
  tool_progress: 'tool_progress',
  'system/init': 'init',
  'system/status': 'status',
  'system/api_retry': 'api_retry',
  'system/thinking_tokens': 'thinking_tokens',
  // Background work (mapper/background.ts): task edges also update the tool call that launched the task.
  'system/task_started': 'task_started',
  'system/task_progress': 'task_progress',
  'system/task_notification': 'task_notification',
  'system/task_updated': 'task_updated',
  'system/background_tasks_changed': 'tasks_changed',
  'system/compact_boundary': 'compacted',
  // A hook's start and progress are the run of which hook_response is the outcome (one collapsed row).
  'system/hook_started': 'ignore',
  'system/hook_progress': 'ignore',
  'system/hook_response': 'hook',
  'system/commands_changed': 'commands',
  // Read by the session itself (idle is the turn-over edge for turns held open for background work); no event.
  'system/session_state_changed': 'ignore',
  // No Baton event yet: shown as unknown rows.
  'system/local_command_output': 'unknown',
  'system/model_refusal_fallback': 'unknown',
  'system/model_refusal_no_fallback': 'unknown',
  'system/notification': 'unknown',
  'system/informational': 'unknown',
  'system/permission_denied': 'unknown',
  'system/plugin_install': 'unknown',
  'system/memory_recall': 'unknown',
  'system/mirror_error': 'unknown',
  'system/session_writes_lost': 'unknown',
  'system/elicitation_complete': 'unknown',
  'system/files_persisted': 'unknown',
  'system/control_request_progress': 'unknown',
  'system/worker_shutting_down': 'unknown',
  auth_status: 'unknown',
  tool_use_summary: 'unknown',
  rate_limit_event: 'unknown',
  prompt_suggestion: 'unknown',
  conversation_reset: 'unknown',
} as const satisfies { [K in SdkMessageKey]: Route };

/**
 * Messages the CLI sends that sdk.d.ts does not declare. command_lifecycle is the SDK's per-prompt bookkeeping
 * (queued/started/completed); turns already say all of it. active_goal is declared beside the union (the goal the
 * `/goal` command set, as its stop hook reports it). system/session_title_changed is the session's name, sent at
 * the start of a resumed session that has one and after a rename: the session's title (session.updated).
 */
export const UNDECLARED_ROUTES: Readonly<Record<string, Route>> = {
  command_lifecycle: 'ignore',
  active_goal: 'goal',
  'system/session_title_changed': 'title',
};

/** The route for a message's type and subtype; `unknown` for anything neither table names. */
export function routeOf(type: string, subtype: string | undefined): Route {
  const key = type === 'system' ? `system/${subtype ?? ''}` : type;
  if (Object.hasOwn(SDK_ROUTES, key)) return SDK_ROUTES[key as SdkMessageKey];
  return UNDECLARED_ROUTES[key] ?? 'unknown';
}
