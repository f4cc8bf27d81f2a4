// Every member of the SDK's own message union (SDKMessage in sdk.d.ts), named by its type (and subtype for system
// messages), with what the mapper does with it and what part of a turn it is: the one classification of the union.
// The table's type demands exactly the union's members: an SDK upgrade that adds (or drops) a message type fails
// the typecheck here, not a user at run time. At run time a message outside the table still becomes an `unknown`
// event carrying its raw JSON; nothing is dropped unnamed.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { EventBody } from '../protocol/events.js';
import { rateLimitEventSchema, toolProgressSchema } from './sdkSchemas.js';

type SdkKey<M> = M extends { type: 'system'; subtype: infer S extends string } ? `system/${S}` : M extends { type: infer T extends string } ? T : never;
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
  | 'local_output'
  | 'ignore'
  | 'unknown';

/**
 * What part of a turn a message is, for the session's two gates over the union:
 * - `output`: a response's content (what the identity barrier holds until the turn is bound, what a follow-up
 *   shows and what a rejected follow-up must not);
 * - `end`: the response's result. The barrier holds it with the output (a turn's end must not pass its own
 *   binding), but it is not output to the continuation bookkeeping: it ends a follow-up (resultArrived), it does
 *   not start one streaming, and a rejected follow-up's result is judged on its own (Continuations.rejects);
 * - `aside`: session bookkeeping that belongs to no response (system messages, rate limits, suggestions): it
 *   passes the barrier at once.
 */
export type Part = 'output' | 'end' | 'aside';

/**
 * A reader that needs nothing but the message (no mapper state): it sits in its row, so mapping a new SDK message
 * to a kind is one row here. `undefined`: the message did not parse (it becomes an `unknown` event).
 */
export type RowReader = (message: unknown) => EventBody[] | undefined;

/**
 * One row of the table: how the mapper reads the message — a named route the mapper's own readers handle (they keep
 * state), or a reader of its own — and what part of a turn it is.
 */
export type RouteFacts = { route: Route; part: Part } | { read: RowReader; part: Part };

/** A tool's progress while it runs: how long it has been running. */
const readToolProgress: RowReader = (message) => {
  const parsed = toolProgressSchema.safeParse(message);
  return parsed.success ? [{ kind: 'tool.updated', toolUseId: parsed.data.tool_use_id, elapsedSeconds: parsed.data.elapsed_time_seconds }] : undefined;
};

/** A plan limit's state after a request (claude.ai subscriptions). */
const readRateLimit: RowReader = (message) => {
  const parsed = rateLimitEventSchema.safeParse(message);
  if (!parsed.success) return undefined;
  const info = parsed.data.rate_limit_info;
  return [
    {
      kind: 'limit.updated',
      limitStatus: info.status,
      ...(info.rateLimitType != null ? { window: info.rateLimitType } : {}),
      ...(info.resetsAt != null ? { resetsAt: new Date(info.resetsAt * 1000).toISOString() } : {}),
      ...(info.utilization != null ? { utilization: info.utilization } : {}),
      ...(info.isUsingOverage === true ? { overage: true as const } : {}),
      ...(info.unifiedWindows != null && Object.keys(info.unifiedWindows).length > 0
        ? {
            windows: Object.entries(info.unifiedWindows).map(([window, w]) => ({
              window,
              utilization: w.utilization,
              resetsAt: new Date(w.resetsAt * 1000).toISOString(),
            })),
          }
        : {}),
    },
  ];
};

export const SDK_ROUTES = {
  assistant: { route: 'assistant', part: 'output' },
  user: { route: 'user', part: 'output' },
  result: { route: 'result', part: 'end' },
  stream_event: { route: 'stream_event', part: 'output' },
  tool_progress: { read: readToolProgress, part: 'output' },
  'system/init': { route: 'init', part: 'aside' },
  'system/status': { route: 'status', part: 'aside' },
  'system/api_retry': { route: 'api_retry', part: 'aside' },
  'system/thinking_tokens': { route: 'thinking_tokens', part: 'aside' },
  // Background work (mapper/background.ts): task edges also update the tool call that launched the task.
  'system/task_started': { route: 'task_started', part: 'aside' },
  'system/task_progress': { route: 'task_progress', part: 'aside' },
  'system/task_notification': { route: 'task_notification', part: 'aside' },
  'system/task_updated': { route: 'task_updated', part: 'aside' },
  'system/background_tasks_changed': { route: 'tasks_changed', part: 'aside' },
  'system/compact_boundary': { route: 'compacted', part: 'aside' },
  // A hook's start and progress are the run of which hook_response is the outcome (one collapsed row).
  'system/hook_started': { route: 'ignore', part: 'aside' },
  'system/hook_progress': { route: 'ignore', part: 'aside' },
  'system/hook_response': { route: 'hook', part: 'aside' },
  'system/commands_changed': { route: 'commands', part: 'aside' },
  // Read by the session itself (idle is the turn-over edge for turns held open for background work); no event.
  'system/session_state_changed': { route: 'ignore', part: 'aside' },
  // No Baton event yet: shown as unknown rows.
  'system/local_command_output': { route: 'local_output', part: 'aside' },
  'system/model_refusal_fallback': { route: 'unknown', part: 'aside' },
  'system/model_refusal_no_fallback': { route: 'unknown', part: 'aside' },
  'system/notification': { route: 'unknown', part: 'aside' },
  'system/informational': { route: 'unknown', part: 'aside' },
  'system/permission_denied': { route: 'unknown', part: 'aside' },
  'system/plugin_install': { route: 'unknown', part: 'aside' },
  'system/memory_recall': { route: 'unknown', part: 'aside' },
  'system/mirror_error': { route: 'unknown', part: 'aside' },
  'system/session_writes_lost': { route: 'unknown', part: 'aside' },
  'system/elicitation_complete': { route: 'unknown', part: 'aside' },
  'system/files_persisted': { route: 'unknown', part: 'aside' },
  'system/control_request_progress': { route: 'unknown', part: 'aside' },
  'system/worker_shutting_down': { route: 'unknown', part: 'aside' },
  auth_status: { route: 'unknown', part: 'aside' },
  tool_use_summary: { route: 'unknown', part: 'output' },
  rate_limit_event: { read: readRateLimit, part: 'aside' },
  prompt_suggestion: { route: 'unknown', part: 'aside' },
  conversation_reset: { route: 'unknown', part: 'aside' },
} as const satisfies { [K in SdkMessageKey]: RouteFacts };

/**
 * Messages the CLI sends that sdk.d.ts does not declare. command_lifecycle is the SDK's per-prompt bookkeeping
 * (queued/started/completed); turns already say all of it. active_goal is declared beside the union (the goal the
 * `/goal` command set, as its stop hook reports it). system/session_title_changed is the session's name, sent at
 * the start of a resumed session that has one and after a rename: the session's title (session.updated).
 */
export const UNDECLARED_ROUTES: Readonly<Record<string, RouteFacts>> = {
  command_lifecycle: { route: 'ignore', part: 'aside' },
  active_goal: { route: 'goal', part: 'aside' },
  'system/session_title_changed': { route: 'title', part: 'aside' },
};

/** Unnamed messages are shown raw, and pass the barrier (they are no response's output that Baton knows of). */
const UNNAMED: RouteFacts = { route: 'unknown', part: 'aside' };

/** The table's row for a message's type and subtype; an `unknown` aside for anything neither table names. */
export function factsOf(type: string, subtype: string | undefined): RouteFacts {
  const key = type === 'system' ? `system/${subtype ?? ''}` : type;
  if (Object.hasOwn(SDK_ROUTES, key)) return SDK_ROUTES[key as SdkMessageKey];
  return UNDECLARED_ROUTES[key] ?? UNNAMED;
}

/** How to read a message of this type and subtype: its row's route or reader; `unknown` for anything unnamed. */
export function routeOf(type: string, subtype: string | undefined): Route | RowReader {
  const facts = factsOf(type, subtype);
  return 'read' in facts ? facts.read : facts.route;
}

/** What part of a turn an SDK message is (its row's `part`). */
export function partOf(message: SDKMessage): Part {
  return factsOf(message.type, message.type === 'system' ? message.subtype : undefined).part;
}
