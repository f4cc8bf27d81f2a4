// Envelopes, requests and replies of the wire (PROTOCOL.md). Requests are parsed leniently about extra keys
// (an older sidecar must not reject a host that learned a new optional field); events are strict (events.ts).
import { z } from 'zod';
import {
  errorCodeSchema,
  eventSchema,
  json,
  modelEntrySchema,
  permissionModeSchema,
  questionAnswerSchema,
  turnFailureCodeSchema,
  verdictSchema,
} from './events.js';
import { PROTOCOL_VERSION } from './version.js';

const version = z.literal(PROTOCOL_VERSION);
const requestId = z.string().min(1);
const sessionId = z.uuid();
const nonEmpty = z.string().min(1);

/** A tool the host offers a restricted run: its name (letters, digits, _ and -), what it does, its input's JSON Schema. */
export const hostToolSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/),
  description: z.string(),
  /** A JSON Schema object (type "object"); the sidecar refuses a schema it cannot use. */
  inputSchema: json,
});
export type HostTool = z.infer<typeof hostToolSchema>;
/**
 * A restricted run (PROTOCOL.md, "Restricted runs"): only these tools are reachable, no built-in tool, no setting,
 * hook, MCP server, skill or slash command of the person's or the project's; at most maxTurns steps.
 */
export const restrictedRunSchema = z.object({
  tools: z.array(hostToolSchema),
  systemPrompt: z.string().optional(),
  maxTurns: z.number().int().positive(),
  maxBudgetUsd: z.number().positive().optional(),
});
export type RestrictedRun = z.infer<typeof restrictedRunSchema>;

/** A name and its value: an MCP server's environment variable or HTTP header (values may be secrets: never logged). */
export const nameValueSchema = z.object({ name: nonEmpty, value: z.string() });
/**
 * An MCP server the session adds to the person's and the project's own (an ACP client's, for one): a command Claude
 * Code runs (stdio) or a server it connects to (http, sse).
 */
export const mcpTransportSchema = z.enum(['stdio', 'http', 'sse']);
export const mcpServerSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/),
    transport: mcpTransportSchema,
    command: nonEmpty.optional(),
    args: z.array(z.string()).optional(),
    env: z.array(nameValueSchema).optional(),
    url: nonEmpty.optional(),
    headers: z.array(nameValueSchema).optional(),
  })
  .refine((s) => (s.transport === 'stdio' ? s.command !== undefined : s.url !== undefined), {
    message: 'a stdio MCP server needs a command, an http or sse one a url',
  });
export type McpServer = z.infer<typeof mcpServerSchema>;

export const startPayload = z
  .object({
    session: sessionId,
    cwd: nonEmpty,
    model: nonEmpty.optional(),
    permissionMode: permissionModeSchema.optional(),
    resume: z.boolean().optional(),
    forkFrom: sessionId.optional(),
    at: nonEmpty.optional(),
    executable: nonEmpty.optional(),
    restricted: restrictedRunSchema.optional(),
    mcpServers: z.array(mcpServerSchema).optional(),
  })
  .refine((p) => !(p.resume === true && p.forkFrom !== undefined), {
    message: 'start takes either resume or forkFrom, not both',
  })
  .refine((p) => p.at === undefined || p.resume === true || p.forkFrom !== undefined, {
    message: '"at" needs resume or forkFrom',
  })
  .refine((p) => p.restricted === undefined || (p.resume !== true && p.forkFrom === undefined && p.permissionMode === undefined), {
    message: 'a restricted run is a new session in its own permission mode: no resume, forkFrom or permissionMode',
  })
  .refine((p) => p.restricted === undefined || new Set(p.restricted.tools.map((t) => t.name)).size === p.restricted.tools.length, {
    message: 'a restricted run names each tool once',
  })
  .refine((p) => p.restricted === undefined || p.mcpServers === undefined, {
    message: 'a restricted run has no MCP server',
  })
  .refine((p) => p.mcpServers === undefined || new Set(p.mcpServers.map((m) => m.name)).size === p.mcpServers.length, {
    message: 'each MCP server has its own name',
  });
/** The image types the Messages API takes in a prompt. */
export const PROMPT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** At most this many images go with one prompt (the API's own limit is higher; the wire's line is the bound). */
export const MAX_PROMPT_IMAGES = 20;
/** An image sent with a prompt: base64 data the console already fitted to the API's limits. */
export const promptImageSchema = z.strictObject({ mediaType: z.enum(PROMPT_IMAGE_TYPES), data: z.string().min(1) });
export type PromptImage = z.infer<typeof promptImageSchema>;
const promptImages = z.array(promptImageSchema).max(MAX_PROMPT_IMAGES);
export const execPayload = z.object({ session: sessionId, turn: nonEmpty, prompt: z.string(), images: promptImages.optional() });
/** A budget in milliseconds (at most ten minutes: a cancel must never stay pending). */
const budgetMs = z.number().int().nonnegative().max(600_000);
/**
 * Cancel names the exact turn (no turn: the one running) and carries both budgets: how long Claude Code may take
 * to acknowledge the interrupt, and how long the stopped query may take to settle after its transport closed.
 */
export const cancelPayload = z.object({
  session: sessionId,
  turn: nonEmpty.optional(),
  interruptBudgetMs: budgetMs,
  drainBudgetMs: budgetMs,
});
/** Who answered a permission request (the sidecar adds interrupt and sidecar_exited for what it settles itself). */
export const permissionAuthorSchema = z.enum(['user', 'policy']);
export const permissionPayload = z.object({
  session: sessionId,
  requestId: nonEmpty,
  verdict: verdictSchema,
  message: z.string().optional(),
  /** Who decided; echoed in permission.settled. */
  by: permissionAuthorSchema.optional(),
  /** AskUserQuestion allowed: the person's answers, handed to the tool as its input's `answers`. */
  answers: z.array(questionAnswerSchema).max(16).optional(),
  /** ExitPlanMode allowed: the permission mode to continue in once the plan is approved. */
  mode: permissionModeSchema.optional(),
});
/** Steer the running turn: interrupt its response and send `prompt` on the same turn. */
export const guidePayload = z.object({ session: sessionId, prompt: z.string().min(1), images: promptImages.optional() });
export const setModelPayload = z.object({ session: sessionId, model: nonEmpty });
export const setPermissionModePayload = z.object({ session: sessionId, mode: permissionModeSchema });
export const closePayload = z.object({ session: sessionId });
export const listSessionsPayload = z.object({
  cwd: nonEmpty.optional(),
  limit: z.number().int().positive().optional(),
});
/** Sets a stored session's own title (Claude Code's custom title); `cwd` narrows the search to one project. */
export const renameSessionPayload = z.object({
  session: sessionId,
  title: z.string().trim().min(1).max(200),
  cwd: nonEmpty.optional(),
});
// A page of the mapped history: positions [start, before) of `total`, at most `limit` events, newest page when
// `before` is absent. The whole transcript is mapped every time (the mapper's state runs from the start).
/**
 * How a turn Baton ran ended, from its durable receipt (the host's): transcripts hold no results, so history shows
 * this turn end after the turn whose prompt is `providerMessage`.
 */
export const receiptEndSchema = z.strictObject({
  providerMessage: nonEmpty,
  outcome: z.enum(['completed', 'failed', 'canceled']),
  endedAt: z.iso.datetime(),
  code: turnFailureCodeSchema.optional(),
  durationMs: z.number().nonnegative().optional(),
  costUsd: z.number().nonnegative().optional(),
  forced: z.boolean().optional(),
});
export type ReceiptEnd = z.infer<typeof receiptEndSchema>;
export const historyPayload = z.object({
  session: sessionId,
  cwd: nonEmpty.optional(),
  before: z.number().int().nonnegative().optional(),
  limit: z.number().int().positive().max(100_000).optional(),
  /** The ends of the turns Baton ran in this session, from their receipts. */
  receipts: z.array(receiptEndSchema).max(100_000).optional(),
  /** Only the conversation up to and including this message uuid (a session resumed or forked at it). */
  at: nonEmpty.optional(),
});
/** Where a resumed transcript job continues: a resume point an earlier job returned (transcriptResumeSchema). */
export const transcriptResumeAtSchema = z.object({ offset: z.number().int().nonnegative(), state: json });
/**
 * Transcript jobs (PROTOCOL.md, "Transcript jobs"): the host's index has a session's transcript mapped by the same
 * mapper as live, in pages it pulls. `file` is the session's .jsonl; its subagents' files are found beside it.
 * `resume` continues an earlier job from the resume point its last page returned, when the file only grew.
 */
export const transcriptOpenPayload = z.object({
  session: sessionId,
  file: nonEmpty,
  receipts: z.array(receiptEndSchema).max(100_000).optional(),
  resume: transcriptResumeAtSchema.optional(),
});
export const transcriptNextPayload = z.object({ job: nonEmpty, maxEvents: z.number().int().positive().max(10_000) });
export const transcriptClosePayload = z.object({ job: nonEmpty });
/** Which message a user message follows in the session's conversation (rewinding to before it resumes there). */
export const messageParentPayload = z.object({ session: sessionId, cwd: nonEmpty.optional(), message: nonEmpty });
/**
 * A new session holding the conversation up to and including message `upTo` (the SDK's forkSession): how a
 * conversation is rewound to before a /compact, which Claude Code cannot resume at. `title` names the new session.
 */
export const forkSessionPayload = z.object({
  session: sessionId,
  cwd: nonEmpty.optional(),
  upTo: nonEmpty,
  title: z.string().trim().min(1).max(200).optional(),
});
export const rewindFilesPayload = z.object({ session: sessionId, message: nonEmpty, dryRun: z.boolean() });
/** The host's answer to a tool.called event: the text the model reads, and whether the call failed. */
export const toolResultPayload = z.object({
  session: sessionId,
  callId: nonEmpty,
  output: z.string(),
  isError: z.boolean(),
});
/** Stop one background task (the SDK's stopTask); its task.completed {taskEnd: "stopped"} follows. */
export const stopTaskPayload = z.object({ session: sessionId, taskId: nonEmpty });
/**
 * Send running foreground work (a Bash command, an agent) to the background, like Ctrl+B in the terminal: the one
 * started by `toolUseId`, or all of it without one.
 */
export const backgroundTaskPayload = z.object({ session: sessionId, toolUseId: nonEmpty.optional() });
/** A hidden query in `cwd` asked only for its models (no turn); `executable` as in start. */
export const discoverModelsPayload = z.object({ cwd: nonEmpty, executable: nonEmpty.optional() });

export type StartPayload = z.infer<typeof startPayload>;
export type ExecPayload = z.infer<typeof execPayload>;
export type CancelPayload = z.infer<typeof cancelPayload>;
/** Cancel's two budgets, as the wire carries them. */
export type CancelBudgets = Pick<CancelPayload, 'interruptBudgetMs' | 'drainBudgetMs'>;
export type PermissionPayload = z.infer<typeof permissionPayload>;
export type GuidePayload = z.infer<typeof guidePayload>;
export type SetModelPayload = z.infer<typeof setModelPayload>;
export type SetPermissionModePayload = z.infer<typeof setPermissionModePayload>;
export type ClosePayload = z.infer<typeof closePayload>;
export type ListSessionsPayload = z.infer<typeof listSessionsPayload>;
export type RenameSessionPayload = z.infer<typeof renameSessionPayload>;
export type HistoryPayload = z.infer<typeof historyPayload>;
export type RewindFilesPayload = z.infer<typeof rewindFilesPayload>;
export type DiscoverModelsPayload = z.infer<typeof discoverModelsPayload>;
export type ToolResultPayload = z.infer<typeof toolResultPayload>;
export type MessageParentPayload = z.infer<typeof messageParentPayload>;
export type ForkSessionPayload = z.infer<typeof forkSessionPayload>;
export type TranscriptOpenPayload = z.infer<typeof transcriptOpenPayload>;
export type TranscriptNextPayload = z.infer<typeof transcriptNextPayload>;
export type TranscriptClosePayload = z.infer<typeof transcriptClosePayload>;
export type StopTaskPayload = z.infer<typeof stopTaskPayload>;
export type BackgroundTaskPayload = z.infer<typeof backgroundTaskPayload>;

function request<T extends string, P extends z.ZodType>(type: T, payload: P) {
  return z.object({ v: version, id: requestId, type: z.literal(type), payload });
}

export const requestSchema = z.discriminatedUnion('type', [
  request('start', startPayload),
  request('exec', execPayload),
  request('cancel', cancelPayload),
  request('guide', guidePayload),
  request('permission', permissionPayload),
  request('set_model', setModelPayload),
  request('set_permission_mode', setPermissionModePayload),
  request('close', closePayload),
  request('list_sessions', listSessionsPayload),
  request('rename_session', renameSessionPayload),
  request('history', historyPayload),
  request('rewind_files', rewindFilesPayload),
  request('discover_models', discoverModelsPayload),
  request('tool_result', toolResultPayload),
  request('message_parent', messageParentPayload),
  request('fork_session', forkSessionPayload),
  request('stop_task', stopTaskPayload),
  request('background_task', backgroundTaskPayload),
  request('transcript_open', transcriptOpenPayload),
  request('transcript_next', transcriptNextPayload),
  request('transcript_close', transcriptClosePayload),
]);
export type Request = z.infer<typeof requestSchema>;
export type RequestType = Request['type'];
export const REQUEST_TYPES: readonly RequestType[] = requestSchema.options.map((o) => o.shape.type.value);

// ok payloads, one per request type.
export const sessionInfoSchema = z.strictObject({
  session: z.string().min(1),
  title: z.string(),
  cwd: z.string().optional(),
  lastModified: z.number().int().nonnegative(),
  createdAt: z.number().int().nonnegative().optional(),
  gitBranch: z.string().optional(),
  firstPrompt: z.string().optional(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/**
 * What a cancel found, exactly one of: `pre_accept` (never handed to the SDK; removed locally), `provider_active`
 * (dispatched; its query generation was revoked and stopped), `absent` (no such turn in this session),
 * `mismatch` (the turn named is not the one in the phase found, e.g. it already finished).
 */
export const CANCEL_DISPOSITIONS = ['pre_accept', 'provider_active', 'absent', 'mismatch'] as const;
export const cancelDispositionSchema = z.enum(CANCEL_DISPOSITIONS);
export type CancelDisposition = (typeof CANCEL_DISPOSITIONS)[number];
/** Where the cancel found the turn: waiting, dispatched to the SDK, already ended, or nowhere. */
export const CANCEL_PHASES = ['queued', 'dispatched', 'finished', 'none'] as const;
export const cancelPhaseSchema = z.enum(CANCEL_PHASES);
export type CancelPhase = (typeof CANCEL_PHASES)[number];
export const cancelReplySchema = z.strictObject({
  disposition: cancelDispositionSchema,
  /** The turn the disposition concerns (absent only when no turn was named and none runs). */
  turn: z.string().min(1).optional(),
  phase: cancelPhaseSchema,
  /** provider_active only: Claude Code did not acknowledge the interrupt in time and its process was closed. */
  forced: z.boolean().optional(),
});
export type CancelReply = z.infer<typeof cancelReplySchema>;

/** One mapped event of a transcript job, with the uuid of the transcript entry it came from (absent: none, e.g. a settle). */
export const transcriptItemSchema = z.strictObject({ uuid: z.string().min(1).optional(), event: eventSchema });
export type TranscriptItem = z.infer<typeof transcriptItemSchema>;
/**
 * Where a later job may continue when the file only grew: from byte `offset` with the mapper's `state` there. The
 * first `items` items of this job come before that point and stay; the ones after it are replaced by the resumed
 * job's (they include what only the end of the file settled, e.g. tools interrupted by `session_ended`).
 */
export const transcriptResumeSchema = z.strictObject({ offset: z.number().int().nonnegative(), state: json, items: z.number().int().nonnegative() });
export type TranscriptResume = z.infer<typeof transcriptResumeSchema>;

export const okPayloads = {
  start: z.strictObject({ session: z.string().min(1), executable: z.string().min(1) }),
  exec: z.strictObject({ queued: z.boolean() }),
  cancel: cancelReplySchema,
  /** guided false: no turn was running in the SDK, nothing was sent (send it as an ordinary prompt). */
  guide: z.strictObject({ guided: z.boolean(), turn: z.string().min(1).optional() }),
  /**
   * settled false: it was already settled; `verdict`, `answers` and `mode` are then the recorded answer (a repeated
   * or late answer never resolves twice).
   */
  permission: z.strictObject({
    settled: z.boolean(),
    verdict: verdictSchema.optional(),
    answers: z.array(questionAnswerSchema).optional(),
    mode: permissionModeSchema.optional(),
  }),
  set_model: z.strictObject({}),
  set_permission_mode: z.strictObject({ mode: permissionModeSchema }),
  close: z.strictObject({}),
  list_sessions: z.strictObject({ sessions: z.array(sessionInfoSchema) }),
  rename_session: z.strictObject({}),
  history: z.strictObject({
    events: z.array(eventSchema),
    total: z.number().int().nonnegative(),
    start: z.number().int().nonnegative(),
  }),
  rewind_files: z.strictObject({
    canRewind: z.boolean(),
    error: z.string().optional(),
    filesChanged: z.array(z.string()).optional(),
    insertions: z.number().int().nonnegative().optional(),
    deletions: z.number().int().nonnegative().optional(),
  }),
  discover_models: z.strictObject({ models: z.array(modelEntrySchema) }),
  tool_result: z.strictObject({ settled: z.boolean() }),
  /**
   * found false: no such message in the conversation. `parent` absent when found: the message opens it (nothing
   * precedes it).
   */
  message_parent: z.strictObject({ found: z.boolean(), parent: z.string().min(1).optional() }),
  /** session: the new session's id. */
  fork_session: z.strictObject({ session: z.string().min(1) }),
  stop_task: z.strictObject({}),
  /** backgrounded false: nothing matched (no such foreground work runs). */
  background_task: z.strictObject({ backgrounded: z.boolean() }),
  /**
   * restarted: the resume could not continue (the file was rewritten, or a rewind branched it); mapping starts over.
   * mapper: the version of the mapping; an index built by another version is rebuilt.
   */
  transcript_open: z.strictObject({
    job: z.string().min(1),
    bytesTotal: z.number().int().nonnegative(),
    restarted: z.boolean(),
    mapper: z.string().min(1),
  }),
  /** A page of items in conversation order; `resume` comes with the last page (done). */
  transcript_next: z.strictObject({
    items: z.array(transcriptItemSchema),
    done: z.boolean(),
    bytesRead: z.number().int().nonnegative(),
    resume: transcriptResumeSchema.optional(),
  }),
  transcript_close: z.strictObject({}),
} satisfies Record<RequestType, z.ZodType>;
export type OkPayload<T extends RequestType> = z.infer<(typeof okPayloads)[T]>;

export const okReplySchema = z.strictObject({
  v: version,
  id: requestId,
  type: z.literal('ok'),
  payload: z.record(z.string(), z.json()),
});
export const errorReplySchema = z.strictObject({
  v: version,
  id: requestId,
  type: z.literal('error'),
  error: z.strictObject({ code: errorCodeSchema, message: z.string() }),
});
export const eventLineSchema = z.strictObject({ v: version, type: z.literal('event'), event: eventSchema });

/** Everything the sidecar may write to stdout. */
export const outputLineSchema = z.union([okReplySchema, errorReplySchema, eventLineSchema]);
export type OutputLine = z.infer<typeof outputLineSchema>;
export type ErrorReply = z.infer<typeof errorReplySchema>;
