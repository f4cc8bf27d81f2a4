// Activity events (PROTOCOL.md, "Events"): one strict zod schema per kind, so a field the protocol does not
// name fails validation instead of reaching the host unnoticed.
import { z } from 'zod';
import { ERROR_CODES } from './errors.js';

export const PERMISSION_MODES = ['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk', 'auto'] as const;
export const permissionModeSchema = z.enum(PERMISSION_MODES);
export type PermissionMode = z.infer<typeof permissionModeSchema>;

export const json = z.json();
const count = z.number().int().nonnegative();

const base = {
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
/** How a canceled turn ended: removed before the SDK saw it, or stopped while the SDK ran it. */
export const canceledDispositionSchema = z.enum(['pre_accept', 'provider_active']);
export const messageBlockSchema = z.enum(['text', 'thinking']);
export const messageRoleSchema = z.enum(['assistant', 'user', 'thinking']);
export const errorCodeSchema = z.enum(ERROR_CODES);

export const sessionStartedEvent = z.strictObject({
  ...base,
  kind: z.literal('session.started'),
  cwd: z.string().min(1),
  model: z.string().min(1),
  permissionMode: permissionModeSchema,
  resumed: z.boolean(),
  forkedFrom: z.string().optional(),
});
export const sessionClosedEvent = z.strictObject({
  ...base,
  kind: z.literal('session.closed'),
  reason: sessionCloseReasonSchema,
  message: z.string().optional(),
});
export const sessionUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('session.updated'),
  permissionMode: permissionModeSchema.optional(),
  title: z.string().optional(),
  model: z.string().optional(),
  /** What the CLI is doing between messages (ephemeral, alone). */
  status: sessionActivitySchema.optional(),
  /** With status `retrying`: which attempt, of how many, after what. */
  retry: retryInfoSchema.optional(),
  /** Sleep and wake: sent by the host only, never by the sidecar. */
  state: sessionStateSchema.optional(),
  /** Something the person should know that ends nothing by itself (PROTOCOL.md, "Background work"). */
  warning: sessionWarningSchema.optional(),
});
/** Made by the host, never sent by the sidecar: a prompt accepted, before its turn starts. */
export const turnQueuedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.queued'),
  prompt: z.string(),
});
export const turnStartedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.started'),
  prompt: z.string(),
  uuid: z.string().optional(),
  /** Absent for a person's prompt; `task_notification` for a continuation no person started (prompt is ""). */
  origin: turnOriginSchema.optional(),
  /** Images the person attached to the prompt. */
  images: z.array(imageSchema).optional(),
});
/**
 * The identity barrier passed: the turn is bound to the root user message Claude Code persisted for it (the
 * provider turn), by the SDK's echo of the uuid sent or, without one, from the session transcript. Sent once per
 * turn, before any of its output.
 */
export const turnAcceptedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.accepted'),
  providerMessage: z.string().min(1),
});
/**
 * Guidance steered the running turn: its response was interrupted (the CLI's error result for it is bookkeeping,
 * not an end) and `prompt` was sent; the guidance's output streams on the same turn, which ends once.
 */
export const turnGuidedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.guided'),
  prompt: z.string(),
});
export const turnCompletedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.completed'),
  result: z.string().optional(),
  durationMs: z.number().nonnegative(),
  numTurns: count,
  costUsd: z.number().nonnegative(),
  /** The SDK's stop reason; "tool_denied": a plain deny stopped Claude, which waits for the person. */
  stopReason: z.string().optional(),
});
export const turnFailedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.failed'),
  code: turnFailureCodeSchema,
  message: z.string().min(1),
  /** When the SDK's result ended the turn (max turns, budget, API errors): what it had counted so far. */
  numTurns: count.optional(),
  costUsd: z.number().nonnegative().optional(),
});
export const turnCanceledEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.canceled'),
  disposition: canceledDispositionSchema,
  /** provider_active: true when Claude Code did not answer the interrupt and its process was closed. */
  forced: z.boolean().optional(),
});
export const messageDeltaEvent = z.strictObject({
  ...base,
  ephemeral: z.literal(true),
  kind: z.literal('message.delta'),
  messageId: z.string(),
  index: count,
  block: messageBlockSchema,
  text: z.string(),
});
export const messageCompletedEvent = z.strictObject({
  ...base,
  kind: z.literal('message.completed'),
  role: messageRoleSchema,
  messageId: z.string().optional(),
  uuid: z.string().optional(),
  text: z.string(),
  parentToolUseId: z.string().optional(),
  /** The reply was stopped while it streamed (cancel, failure): `text` is what had streamed by then. */
  stopped: z.literal(true).optional(),
});
/**
 * What a tool call is, as the console tells tool calls apart (sidecar/src/tools/catalogue.ts maps Claude Code's
 * tool names to these; nothing else matches on names): `shell` runs a command, `read`/`search`/`fetch` look
 * things up, `write` and `edit` change a file, `agent` runs a subagent, `plan` updates the checklist, `question`
 * asks the person (AskUserQuestion), `plan_exit` presents a plan (ExitPlanMode), `mcp` is an MCP server's tool.
 */
export const TOOL_KINDS = ['shell', 'read', 'search', 'fetch', 'write', 'edit', 'agent', 'plan', 'question', 'plan_exit', 'mcp', 'other'] as const;
export const toolKindSchema = z.enum(TOOL_KINDS);
export type ToolKind = (typeof TOOL_KINDS)[number];
export const toolStartedEvent = z.strictObject({
  ...base,
  kind: z.literal('tool.started'),
  toolUseId: z.string().min(1),
  name: z.string(),
  input: json,
  /** The catalogue's reading of name + input: what kind of call, a one-line title, its key detail and file. */
  toolKind: toolKindSchema,
  title: z.string(),
  detail: z.string().optional(),
  path: z.string().optional(),
  parentToolUseId: z.string().optional(),
  fileBefore: fileBefore.optional(),
});
export const toolUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('tool.updated'),
  toolUseId: z.string().min(1),
  elapsedSeconds: z.number().nonnegative().optional(),
  summary: z.string().optional(),
});
export const toolCompletedEvent = z.strictObject({
  ...base,
  kind: z.literal('tool.completed'),
  toolUseId: z.string().min(1),
  name: z.string(),
  output: z.string(),
  structured: json.optional(),
  fileBefore: fileBefore.optional(),
  /** Images the tool returned (a screenshot, a read image). */
  images: z.array(imageSchema).optional(),
});
export const toolFailedEvent = z.strictObject({
  ...base,
  kind: z.literal('tool.failed'),
  toolUseId: z.string().min(1),
  name: z.string(),
  error: z.string(),
  /** The permission gate refused the call (a person's or policy's deny, auto mode's block): it never ran. */
  denied: z.literal(true).optional(),
});
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
/** A tool call's terminal state when it got no result: once per call, and never after tool.completed/failed. */
export const toolInterruptedEvent = z.strictObject({
  ...base,
  kind: z.literal('tool.interrupted'),
  toolUseId: z.string().min(1),
  name: z.string(),
  cause: toolInterruptCauseSchema,
});
/**
 * A restricted run's model called one of the host's tools (PROTOCOL.md, "Restricted runs"): the host runs its
 * handler and answers with the `tool_result` request carrying the same callId. `name` is the tool's name as the
 * host registered it (without the mcp__ prefix); `input` has passed the tool's schema.
 */
export const toolCalledEvent = z.strictObject({
  ...base,
  kind: z.literal('tool.called'),
  callId: z.string().min(1),
  toolUseId: z.string().min(1).optional(),
  name: z.string().min(1),
  input: json,
});
export const permissionRequestedEvent = z.strictObject({
  ...base,
  kind: z.literal('permission.requested'),
  requestId: z.string().min(1),
  toolUseId: z.string(),
  toolName: z.string().min(1),
  input: json,
  /** The catalogue's kind and one-line title of the tool call (`title` is the SDK's own prompt line). */
  toolKind: toolKindSchema,
  toolTitle: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  decisionReason: z.string().optional(),
  suggestions: z.array(json),
});
/** A person's answer to one of AskUserQuestion's questions (multi-select answers joined by ", "). */
export const questionAnswerSchema = z.strictObject({ question: z.string().min(1), answer: z.string() });
export type QuestionAnswer = z.infer<typeof questionAnswerSchema>;
export const permissionSettledEvent = z.strictObject({
  ...base,
  kind: z.literal('permission.settled'),
  requestId: z.string().min(1),
  verdict: verdictSchema,
  by: settledBySchema,
  message: z.string().optional(),
  /** AskUserQuestion: the answers given, as the tool received them. */
  answers: z.array(questionAnswerSchema).optional(),
  /** ExitPlanMode approved: the permission mode the session continues in. */
  mode: permissionModeSchema.optional(),
});
export const planUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('plan.updated'),
  items: z.array(planItem),
});
export const usageUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('usage.updated'),
  turnOutputTokens: count,
  /** Ephemeral only: the part of turnOutputTokens that is Claude Code's estimate of thinking still streaming. */
  thinkingTokens: count.optional(),
  inputTokens: count.optional(),
  outputTokens: count.optional(),
  cacheReadTokens: count.optional(),
  cacheCreationTokens: count.optional(),
  contextWindow: count.optional(),
  contextTokens: count.optional(),
});
export const modelResolvedEvent = z.strictObject({
  ...base,
  kind: z.literal('model.resolved'),
  model: z.string().min(1),
});
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
export const commandsUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('commands.updated'),
  commands: z.array(commandEntry),
});
export const modelsUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('models.updated'),
  models: z.array(modelEntrySchema),
});
export const contextUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('context.updated'),
  totalTokens: count,
  maxTokens: count,
  percentage: z.number().nonnegative(),
});
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
export const tasksUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('tasks.updated'),
  /** Every live task; each payload replaces the last. */
  tasks: z.array(backgroundTask),
});
export const TASK_STATES = ['pending', 'running', 'completed', 'failed', 'stopped', 'paused'] as const;
export const taskStateSchema = z.enum(TASK_STATES);
export const TASK_ENDS = ['completed', 'failed', 'stopped'] as const;
export const taskEndSchema = z.enum(TASK_ENDS);
export const taskStartedEvent = z.strictObject({
  ...base,
  kind: z.literal('task.started'),
  taskId: z.string().min(1),
  runId: z.string().optional(),
  toolUseId: z.string().optional(),
  taskType: z.string(),
  description: z.string(),
  backgrounded: z.boolean(),
});
export const taskUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('task.updated'),
  taskId: z.string().min(1),
  taskState: taskStateSchema.optional(),
  backgrounded: z.boolean().optional(),
});
export const taskCompletedEvent = z.strictObject({
  ...base,
  kind: z.literal('task.completed'),
  taskId: z.string().min(1),
  taskEnd: taskEndSchema,
  summary: z.string().optional(),
  outputFile: z.string().optional(),
});
/** The goal `/goal <condition>` set, as Claude Code last reported it. */
export const goalState = z.strictObject({
  condition: z.string(),
  met: z.boolean(),
  iterations: count,
  lastReason: z.string().optional(),
});
export type GoalState = z.infer<typeof goalState>;
export const goalUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('goal.updated'),
  /** Absent: no goal any more (cleared, or met and done). Optional rather than null: the host's flat event holds
   * every nested shape behind a pointer, where absent and null are one state. */
  goal: goalState.optional(),
});
export const COMPACT_TRIGGERS = ['manual', 'auto'] as const;
export const compactTriggerSchema = z.enum(COMPACT_TRIGGERS);
export const sessionCompactedEvent = z.strictObject({
  ...base,
  kind: z.literal('session.compacted'),
  trigger: compactTriggerSchema,
  preTokens: count,
});
export const HOOK_OUTCOMES = ['success', 'error', 'cancelled'] as const;
export const hookOutcomeSchema = z.enum(HOOK_OUTCOMES);
/** A command hook from the settings ran (the SDK's hook_response); shown as a collapsed row. */
export const hookRanEvent = z.strictObject({
  ...base,
  kind: z.literal('hook.ran'),
  hookEvent: z.string(),
  name: z.string(),
  outcome: hookOutcomeSchema,
  output: z.string().optional(),
});
/**
 * The summary Claude Code wrote when it compacted the conversation (the transcript's isCompactSummary message):
 * shown collapsed under the "Conversation compacted" marker of the session.compacted before it, never as a prompt.
 */
export const compactSummaryEvent = z.strictObject({
  ...base,
  kind: z.literal('compact.summary'),
  text: z.string(),
});
/**
 * An error the API returned that Claude Code recorded as its reply (a transcript's isApiErrorMessage line): `error`
 * is its code (e.g. `rate_limit`), `httpStatus` the HTTP status when recorded, `message` the CLI's wording.
 */
export const apiErrorEvent = z.strictObject({
  ...base,
  kind: z.literal('api.error'),
  error: z.string(),
  httpStatus: z.number().int().optional(),
  message: z.string(),
  parentToolUseId: z.string().optional(),
});
/** A local slash command the person ran (`/mcp`, `/context`, …: Claude Code ran it without the model). */
export const commandRanEvent = z.strictObject({
  ...base,
  kind: z.literal('command.ran'),
  name: z.string().min(1),
  args: z.string().optional(),
});
export const COMMAND_STREAMS = ['stdout', 'stderr'] as const;
export const commandStreamSchema = z.enum(COMMAND_STREAMS);
/** What a local command printed (shown in the command.ran row before it; alone when there is none). */
export const commandOutputEvent = z.strictObject({
  ...base,
  kind: z.literal('command.output'),
  stream: commandStreamSchema,
  text: z.string(),
});
/** History only: `lines` lines of the session's transcript could not be read (torn or corrupt); said once. */
export const transcriptUnreadableEvent = z.strictObject({
  ...base,
  kind: z.literal('transcript.unreadable'),
  lines: z.number().int().positive(),
});
export const protocolErrorEvent = z.strictObject({
  ...base,
  kind: z.literal('protocol.error'),
  // A line the sidecar could not read belongs to no session: its error's session is empty.
  session: z.string(),
  code: errorCodeSchema,
  message: z.string(),
});
export const unknownEvent = z.strictObject({
  ...base,
  kind: z.literal('unknown'),
  raw: json,
});

export const eventSchema = z.discriminatedUnion('kind', [
  sessionStartedEvent,
  sessionClosedEvent,
  sessionUpdatedEvent,
  turnStartedEvent,
  turnAcceptedEvent,
  turnGuidedEvent,
  turnCompletedEvent,
  turnFailedEvent,
  turnCanceledEvent,
  messageDeltaEvent,
  messageCompletedEvent,
  toolStartedEvent,
  toolUpdatedEvent,
  toolCompletedEvent,
  toolFailedEvent,
  toolInterruptedEvent,
  toolCalledEvent,
  permissionRequestedEvent,
  permissionSettledEvent,
  planUpdatedEvent,
  usageUpdatedEvent,
  modelResolvedEvent,
  commandsUpdatedEvent,
  modelsUpdatedEvent,
  contextUpdatedEvent,
  tasksUpdatedEvent,
  taskStartedEvent,
  taskUpdatedEvent,
  taskCompletedEvent,
  goalUpdatedEvent,
  sessionCompactedEvent,
  hookRanEvent,
  compactSummaryEvent,
  apiErrorEvent,
  commandRanEvent,
  commandOutputEvent,
  transcriptUnreadableEvent,
  protocolErrorEvent,
  unknownEvent,
]);

export type Event = z.infer<typeof eventSchema>;

/** Kinds the host makes itself (PROTOCOL.md): part of the wire to the console, never sent by the sidecar. */
export const hostEventSchemas = [turnQueuedEvent] as const;
export type EventKind = Event['kind'];
/** An event of one kind. */
export type EventOf<K extends EventKind> = Extract<Event, { kind: K }>;
/** What a producer fills in; the envelope fields (session, time) are added by whoever stamps the event. */
export type EventBody<K extends EventKind = EventKind> = K extends EventKind ? Omit<EventOf<K>, 'session' | 'time'> : never;

/** Where events go: the runtime writes them to stdout as event lines. */
export type EmitEvent = (event: Event) => void;

/**
 * Adds session and time to an event body, and the turn when given (it wins over the body's own), in one place,
 * so every producer stamps the same way. It runs for every stream piece, so the event is built in one copy.
 */
export function stampEvent(body: EventBody, session: string, now: () => Date, turn?: string): Event {
  // Envelope fields first, so logs and snapshots read the same way for every kind; copying the body in keeps
  // them in front (a key keeps its first place). (TypeScript loses the kind-to-fields link in the copy, hence
  // the assertion; tests validate every event.)
  const own = 'turn' in body ? body.turn : undefined;
  const time = now().toISOString();
  if (turn === undefined && own === undefined) return Object.assign({ kind: body.kind, session, time }, body) as Event;
  const event = Object.assign({ kind: body.kind, session, turn: turn ?? own, time }, body) as Event;
  if (turn !== undefined) event.turn = turn;
  return event;
}
