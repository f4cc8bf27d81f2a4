// What the kinds of the wire share (PROTOCOL.md, "Events"): the envelope, and the enums and nested shapes that
// events and requests name. Each kind's own schema lives with its metadata in its area's file beside this one.
import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';

export const PERMISSION_MODES = ['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk', 'auto'] as const;
export const permissionModeSchema = z.enum(PERMISSION_MODES);
export type PermissionMode = z.infer<typeof permissionModeSchema>;

export const json = z.json();
export const count = z.number().int().nonnegative();

/** The envelope every event carries. */
export const base = {
  session: z.string().min(1),
  turn: z.string().min(1).optional(),
  time: z.iso.datetime(),
  ephemeral: z.literal(true).optional(),
};

export const fileBefore = z.strictObject({ path: z.string().min(1), text: z.string().nullable() });
export type FileBefore = z.infer<typeof fileBefore>;

/**
 * An image in a prompt or a tool's result, from the transcript's own data (never fetched). `data` (base64) is absent
 * when the image is larger than the wire carries (bounds.ts); `bytes` is its decoded size either way.
 */
export const imageSchema = z.strictObject({
  mediaType: z.string().min(1),
  data: z.string().optional(),
  bytes: count,
});
export type Image = z.infer<typeof imageSchema>;

export const PLAN_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export const planStatusSchema = z.enum(PLAN_STATUSES);
export const planItem = z.strictObject({
  id: z.string().min(1),
  content: z.string(),
  status: planStatusSchema,
  activeForm: z.string().optional(),
});
export type PlanItem = z.infer<typeof planItem>;

/**
 * Why a turn failed. The last three come from the host, never from the SDK: `not_sent` (the prompt could not be
 * handed to the sidecar), `session_closed` (the session closed while the turn waited or ran) and `host_exited`
 * (history: the Baton process running the turn died before it ended, as its durable receipt says). `identity`: the
 * turn could not be bound to exactly one persisted user message in time (the identity barrier).
 */
export const TURN_FAILURE_CODES = [
  'api_error',
  'auth',
  'max_turns',
  'budget',
  'sidecar_exited',
  'sdk_error',
  'not_sent',
  'session_closed',
  'host_exited',
  'identity',
] as const;
export const turnFailureCodeSchema = z.enum(TURN_FAILURE_CODES);
export type TurnFailureCode = (typeof TURN_FAILURE_CODES)[number];

export const VERDICTS = ['allow', 'allow_always', 'deny'] as const;
export const verdictSchema = z.enum(VERDICTS);
export type Verdict = (typeof VERDICTS)[number];
export const SETTLED_BY = ['user', 'policy', 'interrupt', 'sidecar_exited'] as const;
export const settledBySchema = z.enum(SETTLED_BY);
export type SettledBy = (typeof SETTLED_BY)[number];

export const sessionCloseReasonSchema = z.enum(['closed', 'sidecar_exited', 'error']);
/** What the CLI is doing between messages (session.updated, ephemeral). */
export const SESSION_ACTIVITIES = ['requesting', 'compacting', 'retrying', 'idle'] as const;
export const sessionActivitySchema = z.enum(SESSION_ACTIVITIES);
export type SessionActivity = (typeof SESSION_ACTIVITIES)[number];
/**
 * Whether an open session holds its processes (session.updated, made by the host): `asleep` — idle, no query, no
 * claude child, no sidecar; `waking` — a prompt or setting started its fresh sidecar; `awake` — running again.
 */
export const SESSION_STATES = ['asleep', 'waking', 'awake'] as const;
export const sessionStateSchema = z.enum(SESSION_STATES);
export type SessionState = (typeof SESSION_STATES)[number];
/** An API request the CLI is retrying (overload, rate limit, a dropped connection): typed, never parsed from text. */
export const retryInfoSchema = z.strictObject({
  attempt: count,
  maxRetries: count,
  /** The HTTP status of the failed attempt, when there was a response. */
  httpStatus: z.number().int().optional(),
});
export type RetryInfo = z.infer<typeof retryInfoSchema>;
/** `continuation_delayed`: a background task finished but Claude Code's follow-up did not begin in time. */
export const SESSION_WARNINGS = ['continuation_delayed'] as const;
export const sessionWarningSchema = z.enum(SESSION_WARNINGS);
/** Who started a turn: a person's prompt (absent) or a background task's notification (no prompt bubble). */
export const TURN_ORIGINS = ['task_notification'] as const;
export const turnOriginSchema = z.enum(TURN_ORIGINS);
/** A plan limit's state after a request: under it, near it (a warning), or reached (the request was rejected). */
export const LIMIT_STATUSES = ['allowed', 'allowed_warning', 'rejected'] as const;
export const limitStatusSchema = z.enum(LIMIT_STATUSES);
/** How a canceled turn ended: removed before the SDK saw it, or stopped while the SDK ran it. */
export const canceledDispositionSchema = z.enum(['pre_accept', 'provider_active']);
export const messageBlockSchema = z.enum(['text', 'thinking']);
export const messageRoleSchema = z.enum(['assistant', 'user', 'thinking']);
export const errorCodeSchema = z.enum(ERROR_CODES);

/**
 * What a tool call is, as the console tells tool calls apart (sidecar/src/tools/catalogue.ts maps Claude Code's
 * tool names to these; nothing else matches on names): `shell` runs a command, `read`/`search`/`fetch` look
 * things up, `write` and `edit` change a file, `agent` runs a subagent, `plan` updates the checklist, `question`
 * asks the person (AskUserQuestion), `plan_exit` presents a plan (ExitPlanMode), `mcp` is an MCP server's tool.
 */
export const TOOL_KINDS = ['shell', 'read', 'search', 'fetch', 'write', 'edit', 'agent', 'plan', 'question', 'plan_exit', 'mcp', 'other'] as const;
export const toolKindSchema = z.enum(TOOL_KINDS);
export type ToolKind = (typeof TOOL_KINDS)[number];
/**
 * Why a tool call that was still open ended without its result (PROTOCOL.md, "Settling"): its turn was canceled
 * (`cancel`) or failed (`failure`), the sidecar died (`sidecar_exited`, made by the host), Baton died while it ran
 * (`host_exited`, history from a receipt), the turn ended with no result and no word on how (`turn_ended`,
 * history: a later turn exists), or the transcript ends while it ran and no Baton receipt says more
 * (`session_ended`, history: Claude Code stopped mid-tool).
 */
export const TOOL_INTERRUPT_CAUSES = ['cancel', 'failure', 'sidecar_exited', 'host_exited', 'turn_ended', 'session_ended'] as const;
export const toolInterruptCauseSchema = z.enum(TOOL_INTERRUPT_CAUSES);
export type ToolInterruptCause = (typeof TOOL_INTERRUPT_CAUSES)[number];
/** A person's answer to one of AskUserQuestion's questions (multi-select answers joined by ", "). */
export const questionAnswerSchema = z.strictObject({ question: z.string().min(1), answer: z.string() });
export type QuestionAnswer = z.infer<typeof questionAnswerSchema>;
// Side reads (session/sideReads.ts): what the console shows beside the conversation. Entries are nested objects,
// so their field names (name, description, …) never meet the flat event fields of the same name.
export const commandEntry = z.strictObject({
  name: z.string().min(1),
  description: z.string(),
  argumentHint: z.string().optional(),
});
export type CommandEntry = z.infer<typeof commandEntry>;
export const modelEntrySchema = z.strictObject({
  value: z.string().min(1),
  displayName: z.string(),
  description: z.string(),
  /** The model id an alias such as "sonnet" stands for, when the CLI says. */
  resolvedModel: z.string().optional(),
});
export type ModelEntry = z.infer<typeof modelEntrySchema>;
// Background work (PROTOCOL.md, "Background work"): the live set is a level signal; the task.* events are edges.
export const backgroundTask = z.strictObject({
  taskId: z.string().min(1),
  runId: z.string().optional(),
  taskType: z.string(),
  description: z.string(),
  toolUseId: z.string().optional(),
  parentTaskId: z.string().optional(),
  /** Housekeeping, not activity: left out of "working in the background" marks. */
  ambient: z.boolean().optional(),
});
export type BackgroundTask = z.infer<typeof backgroundTask>;
/** One plan-limit window as the API last reported it (limit.updated's windows). */
export const limitWindow = z.strictObject({
  window: z.string(),
  /** The share of the window used, 0–1. */
  utilization: z.number().nonnegative(),
  resetsAt: z.iso.datetime({ offset: true }),
});
export type LimitWindow = z.infer<typeof limitWindow>;
export const TASK_STATES = ['pending', 'running', 'completed', 'failed', 'stopped', 'paused'] as const;
export const taskStateSchema = z.enum(TASK_STATES);
export const TASK_ENDS = ['completed', 'failed', 'stopped'] as const;
export const taskEndSchema = z.enum(TASK_ENDS);
/** The goal `/goal <condition>` set, as Claude Code last reported it. */
export const goalState = z.strictObject({
  condition: z.string(),
  met: z.boolean(),
  iterations: count,
  lastReason: z.string().optional(),
});
export type GoalState = z.infer<typeof goalState>;
export const COMPACT_TRIGGERS = ['manual', 'auto'] as const;
export const compactTriggerSchema = z.enum(COMPACT_TRIGGERS);
export const HOOK_OUTCOMES = ['success', 'error', 'cancelled'] as const;
export const hookOutcomeSchema = z.enum(HOOK_OUTCOMES);
export const COMMAND_STREAMS = ['stdout', 'stderr'] as const;
export const commandStreamSchema = z.enum(COMMAND_STREAMS);
