// zod schemas for the parts of SDK messages the mapper reads. Loose objects: the SDK adds fields often, and a
// field we do not read must not turn a known message into an unknown one. A shape we do read that does not
// match is an unknown message (the mapper forwards it raw) rather than a cast that lies.
import { z } from 'zod';

const nullableString = z.string().nullish();
const tokens = z.number().int().nonnegative();

// --- content blocks -------------------------------------------------------------------------------------

export const textBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
export const thinkingBlockSchema = z.looseObject({ type: z.literal('thinking'), thinking: z.string() });
export const toolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string(),
  input: z.json(),
});
export const assistantBlockSchema = z.discriminatedUnion('type', [textBlockSchema, thinkingBlockSchema, toolUseBlockSchema]);
export type AssistantBlock = z.infer<typeof assistantBlockSchema>;
export type ToolUseBlock = z.infer<typeof toolUseBlockSchema>;

const toolResultContentSchema = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]);
export const toolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: toolResultContentSchema.optional(),
  is_error: z.boolean().nullish(),
});
export type ToolResultBlock = z.infer<typeof toolResultBlockSchema>;
export const userBlockSchema = z.discriminatedUnion('type', [textBlockSchema, toolResultBlockSchema]);
export type UserBlock = z.infer<typeof userBlockSchema>;

// --- top-level messages ---------------------------------------------------------------------------------

export const assistantMessageSchema = z.looseObject({
  type: z.literal('assistant'),
  uuid: z.string().optional(),
  parent_tool_use_id: nullableString,
  error: z.string().optional(),
  /** Claude Code cut this message off by an interrupt before its stream completed. */
  aborted: z.boolean().optional(),
  /** Transcript: the API's error Claude Code filed as its reply (`error` its code, `apiErrorStatus` the HTTP status). */
  isApiErrorMessage: z.boolean().optional(),
  apiErrorStatus: z.number().int().nullish(),
  message: z.looseObject({
    id: z.string(),
    model: z.string(),
    content: z.array(z.unknown()),
  }),
});
export type AssistantMessage = z.infer<typeof assistantMessageSchema>;

export const userMessageSchema = z.looseObject({
  type: z.literal('user'),
  uuid: z.string().optional(),
  parent_tool_use_id: nullableString,
  isReplay: z.boolean().optional(),
  // Transcript flags (getSessionMessages): CLI-made entries that are not prompts.
  is_meta: z.boolean().optional(),
  isCompletedLocalCommand: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  /** Live: a message Claude Code wrote, not the person (the compaction summary after its boundary). */
  isSynthetic: z.boolean().optional(),
  /** Transcript reader (history/transcriptEntry.ts): a `<command-name>` line whose command ran locally. */
  localCommand: z.boolean().optional(),
  tool_use_result: z.unknown().optional(),
  message: z.looseObject({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(z.unknown())]),
  }),
});
export type UserMessage = z.infer<typeof userMessageSchema>;

export const apiUsageSchema = z.looseObject({
  input_tokens: tokens.nullish(),
  output_tokens: tokens.nullish(),
  cache_read_input_tokens: tokens.nullish(),
  cache_creation_input_tokens: tokens.nullish(),
});
export type ApiUsage = z.infer<typeof apiUsageSchema>;

export const resultMessageSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.boolean(),
  duration_ms: z.number().nonnegative(),
  num_turns: z.number().int().nonnegative(),
  total_cost_usd: z.number().nonnegative(),
  result: z.string().optional(),
  errors: z.array(z.string()).optional(),
  stop_reason: nullableString,
  terminal_reason: z.string().optional(),
  api_error_status: z.number().nullish(),
  usage: apiUsageSchema,
  modelUsage: z.record(z.string(), z.looseObject({ contextWindow: tokens.optional() })),
});
export type ResultMessage = z.infer<typeof resultMessageSchema>;

export const systemInitSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('init'),
  model: z.string(),
  permissionMode: z.string(),
});
export const systemStatusSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('status'),
  status: z.string().nullable(),
  permissionMode: z.string().optional(),
});
export const systemThinkingTokensSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('thinking_tokens'),
  /** The running total of the thinking block under way. */
  estimated_tokens: z.number().nonnegative(),
});
// A background or foreground task (a long Bash command, a subagent) started, progressed or ended; each names the
// tool call it runs under.
export const systemTaskProgressSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.enum(['task_started', 'task_progress', 'task_notification']),
  tool_use_id: z.string().min(1),
  summary: z.string().optional(),
  description: z.string().optional(),
  status: z.string().optional(),
  usage: z.looseObject({ duration_ms: z.number().nonnegative() }).optional(),
});

export const rateLimitEventSchema = z.looseObject({
  type: z.literal('rate_limit_event'),
  rate_limit_info: z.looseObject({
    status: z.enum(['allowed', 'allowed_warning', 'rejected']),
    /** Unix seconds. */
    resetsAt: z.number().nonnegative().nullish(),
    rateLimitType: z.string().nullish(),
    utilization: z.number().nonnegative().nullish(),
    isUsingOverage: z.boolean().nullish(),
    /** Every window the answer reported, by name (five_hour, seven_day, …); resetsAt in unix seconds. */
    unifiedWindows: z.record(z.string(), z.looseObject({ utilization: z.number().nonnegative(), resetsAt: z.number().nonnegative() })).nullish(),
  }),
});

export const toolProgressSchema = z.looseObject({
  type: z.literal('tool_progress'),
  tool_use_id: z.string().min(1),
  tool_name: z.string(),
  elapsed_time_seconds: z.number().nonnegative(),
});

// --- stream events (raw Messages API stream events inside stream_event) -----------------------------------
// Thousands arrive per reply: these parse in strip mode (z.object), which checks the same fields as looseObject
// without copying every other key of every piece; the mapper reads only the fields named here.

const messageStartSchema = z.object({
  type: z.literal('message_start'),
  message: z.object({ id: z.string(), usage: apiUsageSchema.optional() }),
});
const contentBlockStartSchema = z.object({
  type: z.literal('content_block_start'),
  index: z.number().int().nonnegative(),
  content_block: z.object({ type: z.string() }),
});
const contentBlockDeltaSchema = z.object({
  type: z.literal('content_block_delta'),
  index: z.number().int().nonnegative(),
  delta: z.discriminatedUnion('type', [
    z.object({ type: z.literal('text_delta'), text: z.string() }),
    // The API may count thinking it does not show (estimated_tokens, with no text): Claude Code reports that
    // count in system/thinking_tokens.
    z.object({ type: z.literal('thinking_delta'), thinking: z.string().optional() }),
    z.object({ type: z.literal('signature_delta') }),
    z.object({ type: z.literal('input_json_delta') }),
    z.object({ type: z.literal('citations_delta') }),
  ]),
});
const contentBlockStopSchema = z.object({ type: z.literal('content_block_stop'), index: z.number().int() });
const messageDeltaSchema = z.object({
  type: z.literal('message_delta'),
  usage: apiUsageSchema.optional(),
});
const messageStopSchema = z.object({ type: z.literal('message_stop') });

export const apiStreamEventSchema = z.discriminatedUnion('type', [
  messageStartSchema,
  contentBlockStartSchema,
  contentBlockDeltaSchema,
  contentBlockStopSchema,
  messageDeltaSchema,
  messageStopSchema,
]);
export type ApiStreamEvent = z.infer<typeof apiStreamEventSchema>;

export const streamEventMessageSchema = z.object({
  type: z.literal('stream_event'),
  parent_tool_use_id: nullableString,
  event: apiStreamEventSchema,
});
export type StreamEventMessage = z.infer<typeof streamEventMessageSchema>;

// --- structured tool results (tool_use_result) we read ------------------------------------------------------

/** Edit / Write / MultiEdit results carry the file's text before the change. */
export const fileChangeResultSchema = z.looseObject({
  filePath: z.string().min(1),
  originalFile: z.string().nullable(),
});
export type FileChangeResult = z.infer<typeof fileChangeResultSchema>;
export const taskCreateResultSchema = z.looseObject({
  task: z.looseObject({ id: z.string().min(1) }),
});

// --- tool inputs we read (plan tools) -------------------------------------------------------------------------

const planStatus = z.enum(['pending', 'in_progress', 'completed']);
export const todoWriteInputSchema = z.looseObject({
  todos: z.array(z.looseObject({ content: z.string(), status: planStatus, activeForm: z.string().optional() })),
});
export const taskCreateInputSchema = z.looseObject({
  subject: z.string(),
  activeForm: z.string().optional(),
});
export const taskUpdateInputSchema = z.looseObject({
  taskId: z.string().min(1),
  subject: z.string().optional(),
  activeForm: z.string().optional(),
  status: z.enum(['pending', 'in_progress', 'completed', 'deleted']).optional(),
});

/** The envelope every SDK message shares; enough to route it. */
export const envelopeSchema = z.looseObject({ type: z.string(), subtype: z.string().optional() });

/** Transcript messages (getSessionMessages) carry when they were written. */
export const timestampedSchema = z.looseObject({ timestamp: z.iso.datetime({ offset: true }) });

/** The CLI is retrying a failed API request (overload, rate limit, a dropped connection). */
export const systemApiRetrySchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('api_retry'),
  attempt: z.number().int().nonnegative(),
  max_retries: z.number().int().nonnegative(),
  error_status: z.number().int().nullable().optional(),
});

// --- background work, goals, compaction, hooks (mapper/background.ts) ---------------------------------------

export const backgroundTasksChangedSchema = z.looseObject({
  tasks: z.array(
    z.looseObject({
      task_id: z.string().min(1),
      run_id: z.string().optional(),
      task_type: z.string(),
      description: z.string(),
      parent_task_id: z.string().optional(),
      ambient: z.boolean().optional(),
    }),
  ),
});
export const taskStartedSchema = z.looseObject({
  task_id: z.string().min(1),
  run_id: z.string().optional(),
  tool_use_id: z.string().optional(),
  description: z.string(),
  subagent_type: z.string().optional(),
  task_type: z.string().optional(),
  is_backgrounded: z.boolean().optional(),
});
export const taskUpdatedSchema = z.looseObject({
  task_id: z.string().min(1),
  run_id: z.string().optional(),
  patch: z.looseObject({
    status: z.enum(['pending', 'running', 'completed', 'failed', 'killed', 'paused']).optional(),
    is_backgrounded: z.boolean().optional(),
  }),
});
export const taskNotificationSchema = z.looseObject({
  task_id: z.string().min(1),
  run_id: z.string().optional(),
  tool_use_id: z.string().optional(),
  status: z.enum(['completed', 'failed', 'stopped']),
  output_file: z.string().optional(),
  summary: z.string().optional(),
  ambient: z.boolean().optional(),
});
export const activeGoalSchema = z.looseObject({
  type: z.literal('active_goal'),
  value: z
    .looseObject({
      condition: z.string(),
      iterations: z.number().int().nonnegative(),
      last_reason: z.string().optional(),
    })
    .nullable(),
});
export const compactBoundarySchema = z.looseObject({
  compact_metadata: z.looseObject({ trigger: z.enum(['manual', 'auto']), pre_tokens: z.number().int().nonnegative() }),
});
export const hookResponseSchema = z.looseObject({
  hook_name: z.string(),
  hook_event: z.string(),
  output: z.string().optional(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  outcome: z.enum(['success', 'error', 'cancelled']),
});
export const commandsChangedSchema = z.looseObject({
  commands: z.array(z.looseObject({ name: z.string().min(1), description: z.string(), argumentHint: z.string().optional() })),
});
/** The session's name (not declared in sdk.d.ts): sent when a resumed session already has one, and after each
 * rename. The CLI has already cleaned it (control characters, ends trimmed, at most 200 code points). */
export const sessionTitleChangedSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('session_title_changed'),
  title: z.string(),
});
/** The result of a follow-up Claude Code ran on its own after a background task's notification. */
export const resultOriginSchema = z.looseObject({ origin: z.looseObject({ kind: z.string() }).nullish() });
