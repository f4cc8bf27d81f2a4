// The console API's contract (app/console/API.md): every call's params and result, every push's payload, the host
// state they carry and the error codes, as zod. Nothing here runs in the sidecar: scripts/gen-protocol renders it
// into app/protocol/schema/console.json, from which the Go host's types and dispatch table
// (app/console/*_gen.go), the frontend's types (frontend/src/protocol/api.gen.ts) and API.md's table are generated.
// Shapes the sidecar's wire already has (verdicts, permission answers, stored sessions…) are reused, not copied.
import { z } from 'zod';
import type { ConsoleCall } from './consoleShared.js';
import { SETTINGS_CALLS, SETTINGS_NAMED } from './consoleSettings.js';
import { SEARCH_CALLS, SEARCH_NAMED } from './consoleSearch.js';
import { eventSchema, modelEntrySchema, permissionModeSchema, sessionStateSchema } from './events.js';
import {
  cancelDispositionSchema,
  cancelPhaseSchema,
  MAX_PROMPT_IMAGES,
  okPayloads,
  permissionPayload,
  promptImageSchema,
  sessionInfoSchema,
} from './schemas.js';

import { CHANGES_CALLS, CHANGES_NAMED, CHANGES_PUSHES, changesUpdateSchema, startResultSchema, worktreeStartSchema } from './consoleChanges.js';
import { count, emptySchema, sessionRefSchema } from './consoleShared.js';
import { TERMINAL_CALLS, TERMINAL_NAMED, TERMINAL_PUSHES } from './consoleTerminal.js';
import { FILES_CALLS, FILES_NAMED } from './consoleFiles.js';

export { emptySchema, sessionRefSchema };
// What carries the API (inline, so Go keeps it a string: the host names its transport in console.Options).
export const transportSchema = z.enum(['wails', 'websocket']);
export const capabilitiesSchema = z.strictObject({
  transport: transportSchema,
  folderPicker: z.boolean(),
  notifications: z.boolean(),
  version: z.string(),
});
export const folderResultSchema = z.strictObject({ path: z.string().nullable() }).describe('is the picked folder, null when the person canceled');
export const startParamsSchema = z
  .strictObject({
    cwd: z.string(),
    model: z.string().optional(),
    permissionMode: permissionModeSchema.optional(),
    resume: z.string().optional(),
    forkFrom: z.string().optional(),
    at: z.string().optional(),
    worktree: worktreeStartSchema.optional(),
  })
  .describe('opens, resumes or forks a session (a new one in a new git worktree with worktree)');
export const promptParamsSchema = z
  .strictObject({ session: z.string(), prompt: z.string(), images: z.array(promptImageSchema).max(MAX_PROMPT_IMAGES).optional() })
  .describe('is a prompt for a session, with the images pasted or dropped into it (already fitted to the API’s limits)');
export const promptResultSchema = z.strictObject({ turn: z.string(), queued: z.boolean() }).describe('names the turn the prompt became');
const budgetMs = z.number().int().min(0).max(600_000);
export const cancelParamsSchema = z
  .strictObject({
    session: z.string(),
    turn: z.string().optional(),
    interruptBudgetMs: budgetMs.optional(),
    drainBudgetMs: budgetMs.optional(),
  })
  .describe('cancels a turn (the running one without turn); the budgets default to 3000 ms each, and an interrupt budget of 0 closes the query at once');
export const cancelResultSchema = z
  .strictObject({
    disposition: cancelDispositionSchema,
    turn: z.string().optional(),
    phase: cancelPhaseSchema,
    forced: z.boolean(),
  })
  .describe('says what the cancel found and did: one disposition, the turn it concerns, the phase it was found in, whether the stop was forced');
export const guideResultSchema = z
  .strictObject({ turn: z.string(), guided: z.boolean() })
  .describe('says which turn the guidance went to, and whether it steered a running one');
export const stopTaskParamsSchema = z.strictObject({ session: z.string(), taskId: z.string() });
export const backgroundParamsSchema = z.strictObject({ session: z.string(), toolUseId: z.string().optional() });
export const backgroundResultSchema = z.strictObject({ backgrounded: z.boolean() }).describe('says whether any work moved to the background');
export const answerParamsSchema = permissionPayload
  .omit({ by: true })
  .strict()
  .describe('settles a permission request: the sidecar’s permission answer, less `by` (the console’s answers are the person’s)');
export const modelParamsSchema = z.strictObject({ session: z.string(), model: z.string() });
export const modeParamsSchema = z.strictObject({ session: z.string(), mode: permissionModeSchema });
export const modeResultSchema = z.strictObject({ mode: permissionModeSchema }).describe('is the mode the CLI reports');
export const listParamsSchema = z.strictObject({ cwd: z.string().optional(), limit: z.number().int().positive().optional() });
export const consoleSessionInfoSchema = sessionInfoSchema
  .extend({
    live: z.boolean(),
    pinned: z.boolean(),
    archived: z.boolean(),
    forkOf: z.string().optional(),
  })
  .describe('is a stored session as the console lists it: the sidecar’s SessionInfo, whether it is open here, and Baton’s own marks');
export const listResultSchema = z.strictObject({ sessions: z.array(consoleSessionInfoSchema) });
export const historyParamsSchema = z.strictObject({
  session: z.string(),
  cwd: z.string().optional(),
  before: count.optional(),
  limit: z.number().int().positive().optional(),
});
export const historyResultSchema = z
  .strictObject({ events: z.array(eventSchema), total: count, start: count })
  .describe('holds positions start … start+len(events)-1 of total');
export const rewindParamsSchema = z.strictObject({ session: z.string(), message: z.string(), dryRun: z.boolean() });
export const conversationRewindParamsSchema = z.strictObject({ session: z.string(), message: z.string() });
export const notifyParamsSchema = z.strictObject({ title: z.string(), body: z.string() });
export const modelListSchema = z
  .strictObject({ models: z.array(modelEntrySchema), account: z.string() })
  .describe('is the composer’s model list for the signed-in account (Go: app/discovery’s Models)');
export const renameParamsSchema = z.strictObject({ session: z.string(), title: z.string(), cwd: z.string().optional() });
export const renameResultSchema = z.strictObject({ title: z.string() });
export const flagsParamsSchema = z
  .strictObject({ session: z.string(), pinned: z.boolean().optional(), archived: z.boolean().optional() })
  .describe('pins or archives a session; an absent flag is left as it is');
export const flagsResultSchema = z.strictObject({ pinned: z.boolean(), archived: z.boolean() });
export const completeParamsSchema = z.strictObject({ path: z.string() });
export const pathEntrySchema = z.strictObject({ name: z.string(), path: z.string() }).describe('is one folder that completes a typed path');
export const completeResultSchema = z.strictObject({ dir: z.string(), entries: z.array(pathEntrySchema), truncated: z.boolean() });
export const idleParamsSchema = z.strictObject({ seconds: count }).describe('is how long an open session may sit idle before it sleeps, in seconds (0: never)');

export const provisionStatusSchema = z.enum(['unknown', 'checking', 'downloading', 'ready', 'failed']);
export const provisionStateSchema = z
  .strictObject({
    state: provisionStatusSchema,
    message: z.string().optional(),
    hints: z.array(z.string()).optional(),
    /** int64 in Go: sizes, as provisioning counts them. */
    bytes: z.number().int().positive().meta({ format: 'int64' }).optional(),
    total: z.number().int().positive().meta({ format: 'int64' }).optional(),
    /** bytes/s */
    rate: z.number().positive().optional(),
    /** Where it comes from: "cdn" or "npm" (provisioning's own names; shown as they are). */
    source: z.string().optional(),
    path: z.string().optional(),
    version: z.string().optional(),
  })
  .describe('is where getting the claude executable stands');
export const authStatusSchema = z.enum(['signed_in', 'signed_out', 'unknown']);
export const authMethodSchema = z.enum(['claude_ai', 'console', 'api_key', 'oauth_token', 'third_party', 'other']);
export const authWarningSchema = z.strictObject({ code: z.string(), message: z.string() });
export const authStateSchema = z
  .strictObject({
    status: authStatusSchema,
    method: authMethodSchema.optional(),
    summary: z.string(),
    reason: z.string().optional(),
    plan: z.string().optional(),
    planTier: z.string().optional(),
    provider: z.string().optional(),
    keySource: z.string().optional(),
    email: z.string().optional(),
    organization: z.string().optional(),
    warnings: z.array(authWarningSchema).optional(),
    configDir: z.string().optional(),
    signInCommand: z.string().optional(),
    checkedAt: z.iso.datetime({ offset: true }).optional(),
  })
  .describe('is Claude Code’s sign-in state (Go: app/auth’s State, checked against this by app/console’s tests)');
export const indexStatusSchema = z.enum(['unknown', 'building', 'rebuilding', 'ready', 'failed']);
export const indexRebuildReasonSchema = z.enum(['mapper', 'recovered']);
export const indexStateSchema = z
  .strictObject({
    /** unknown: no index (yet); building: mapping what changed; rebuilding: mapping every session again; ready: current. */
    state: indexStatusSchema,
    /** Transcript files and bytes mapped of those queued since the index was last idle (building, rebuilding; ready keeps the last run's). */
    filesDone: count,
    filesTotal: count,
    bytesDone: count.meta({ format: 'int64' }),
    bytesTotal: count.meta({ format: 'int64' }),
    /** The session a reader waits for, mapped ahead of the rest. */
    first: z.string().optional(),
    /** Why every session is mapped again (rebuilding): Baton's mapper changed, or a damaged index was set aside. */
    reason: indexRebuildReasonSchema.optional(),
    /** failed: what went wrong and what to do, written for a person. */
    message: z.string().optional(),
  })
  .describe('is how far Baton’s index of the stored sessions is (app/index)');
export const liveSessionSchema = z
  .strictObject({
    session: z.string(),
    cwd: z.string(),
    requestedModel: z.string(),
    effectiveModel: z.string(),
    permissionMode: permissionModeSchema,
    state: sessionStateSchema,
    events: z.array(eventSchema),
  })
  .describe('is an open session with its lasting events so far (state asleep: it holds no process; its next prompt wakes it)');
export const snapshotSchema = z
  .strictObject({
    sessions: z.array(liveSessionSchema),
    provisioning: provisionStateSchema,
    auth: authStateSchema,
    index: indexStateSchema,
    sessionIdleSeconds: count,
    changes: z.array(changesUpdateSchema).optional(),
  })
  .describe('is everything that lasts, for a first load or a reconnect (changes: the open sessions’ latest change counts)');
export const sessionsChangeSchema = z.strictObject({}).describe('says the stored sessions changed outside this Baton: list them again (it carries no list)');
export const consoleErrorCodeSchema = z.enum(['bad_request', 'not_found', 'unavailable', 'internal']).describe('is the code of a failed call');

/** The console's named shapes: the generated Go and TypeScript types take these names. */
export const CONSOLE_NAMED: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['Empty', emptySchema],
  ['Capabilities', capabilitiesSchema],
  ['FolderResult', folderResultSchema],
  ['StartParams', startParamsSchema],
  ['SessionRef', sessionRefSchema],
  ['PromptParams', promptParamsSchema],
  ['PromptResult', promptResultSchema],
  ['CancelParams', cancelParamsSchema],
  ['CancelResult', cancelResultSchema],
  ['GuideResult', guideResultSchema],
  ['StopTaskParams', stopTaskParamsSchema],
  ['BackgroundParams', backgroundParamsSchema],
  ['BackgroundResult', backgroundResultSchema],
  ['AnswerParams', answerParamsSchema],
  ['ModelParams', modelParamsSchema],
  ['ModeParams', modeParamsSchema],
  ['ModeResult', modeResultSchema],
  ['ListParams', listParamsSchema],
  ['SessionInfo', consoleSessionInfoSchema],
  ['ListResult', listResultSchema],
  ['HistoryParams', historyParamsSchema],
  ['HistoryResult', historyResultSchema],
  ['RewindParams', rewindParamsSchema],
  ['ConversationRewindParams', conversationRewindParamsSchema],
  ['NotifyParams', notifyParamsSchema],
  ['ModelList', modelListSchema],
  ['RenameParams', renameParamsSchema],
  ['RenameResult', renameResultSchema],
  ['FlagsParams', flagsParamsSchema],
  ['FlagsResult', flagsResultSchema],
  ['CompleteParams', completeParamsSchema],
  ['PathEntry', pathEntrySchema],
  ['CompleteResult', completeResultSchema],
  ['IdleParams', idleParamsSchema],
  ['ProvisionStatus', provisionStatusSchema],
  ['ProvisionState', provisionStateSchema],
  ['AuthStatus', authStatusSchema],
  ['AuthMethod', authMethodSchema],
  ['AuthWarning', authWarningSchema],
  ['AuthState', authStateSchema],
  ['IndexStatus', indexStatusSchema],
  ['IndexRebuildReason', indexRebuildReasonSchema],
  ['IndexState', indexStateSchema],
  ['LiveSession', liveSessionSchema],
  ['Snapshot', snapshotSchema],
  ['SessionsChange', sessionsChangeSchema],
  ['ErrorCode', consoleErrorCodeSchema],
  ...TERMINAL_NAMED,
  ...FILES_NAMED,
  ...CHANGES_NAMED,
  ...SETTINGS_NAMED,
  ...SEARCH_NAMED,
];

/** Every call, in the order API.md lists them. The Go host must serve each (its dispatch table is generated). */
export const CONSOLE_CALLS = {
  capabilities: { params: emptySchema, result: capabilitiesSchema, doc: 'What this transport offers.' },
  snapshot: { params: emptySchema, result: snapshotSchema, doc: 'Everything that lasts, for a first load or a reconnect.' },
  pickFolder: { params: emptySchema, result: folderResultSchema, doc: 'The native folder picker (only where folderPicker); null path: canceled.' },
  startSession: { params: startParamsSchema, result: startResultSchema, doc: 'Opens a new, resumed or forked session.' },
  sendPrompt: { params: promptParamsSchema, result: promptResultSchema, doc: 'Sends a prompt; it waits behind a running turn.' },
  cancelTurn: { params: cancelParamsSchema, result: cancelResultSchema, doc: 'Cancels the running turn or removes a queued one, within the budgets.' },
  guideTurn: { params: promptParamsSchema, result: guideResultSchema, doc: 'Steers the running turn (an ordinary prompt when none runs).' },
  answerPermission: {
    params: answerParamsSchema,
    result: okPayloads.permission,
    doc: 'Settles a permission request; settled false: already settled elsewhere.',
  },
  setModel: { params: modelParamsSchema, result: emptySchema, doc: 'Changes the requested model.' },
  setPermissionMode: { params: modeParamsSchema, result: modeResultSchema, doc: 'Changes the permission mode; the result is what the CLI reports.' },
  closeSession: { params: sessionRefSchema, result: emptySchema, doc: 'Closes an open session.' },
  wakeSession: {
    params: sessionRefSchema,
    result: emptySchema,
    doc: 'A prompt is being typed: an asleep session wakes now, an awake one starts its idle time again.',
  },
  listSessions: { params: listParamsSchema, result: listResultSchema, doc: 'Stored sessions, newest first, with Baton’s marks.' },
  history: { params: historyParamsSchema, result: historyResultSchema, doc: 'A page of a stored session’s history, newest page first.' },
  rewindFiles: { params: rewindParamsSchema, result: okPayloads.rewind_files, doc: 'Restores (or, dry, measures restoring) files to a user message.' },
  rewindConversation: { params: conversationRewindParamsSchema, result: sessionRefSchema, doc: 'Reopens the session at the message a prompt followed.' },
  notify: { params: notifyParamsSchema, result: emptySchema, doc: 'A native notification (only where notifications).' },
  signIn: { params: emptySchema, result: emptySchema, doc: 'Opens a terminal running Claude Code’s sign-in (unavailable where none can be opened).' },
  retryProvision: { params: emptySchema, result: emptySchema, doc: 'Starts provisioning the claude executable again after a failure.' },
  listModels: { params: emptySchema, result: modelListSchema, doc: 'The models the signed-in account offers (cached per account).' },
  renameSession: { params: renameParamsSchema, result: renameResultSchema, doc: 'Sets the session’s own title (Claude Code’s custom title).' },
  setSessionFlags: { params: flagsParamsSchema, result: flagsResultSchema, doc: 'Pins or archives a session; an absent field is left as it is.' },
  completePath: { params: completeParamsSchema, result: completeResultSchema, doc: 'The folders that complete a typed path (at most 50).' },
  setSessionIdle: { params: idleParamsSchema, result: idleParamsSchema, doc: 'How long an open session may sit idle before it sleeps (0: never).' },
  stopTask: { params: stopTaskParamsSchema, result: emptySchema, doc: 'Stops one background task; its task.completed follows.' },
  sendToBackground: { params: backgroundParamsSchema, result: backgroundResultSchema, doc: 'Moves running foreground work to the background.' },
  ...TERMINAL_CALLS,
  ...FILES_CALLS,
  ...CHANGES_CALLS,
  ...SETTINGS_CALLS,
  ...SEARCH_CALLS,
} as const satisfies Record<string, ConsoleCall>;

/** What the host pushes unasked: each push's name (the WebSocket message's type and field), payload and Wails channel. */
export const CONSOLE_PUSHES = {
  event: { payload: eventSchema, wails: 'baton:event', doc: 'One event of a session.' },
  events: { payload: z.array(eventSchema), wails: 'baton:event', doc: 'Events that were waiting together, in order (WebSocket only; Wails sends each).' },
  auth: { payload: authStateSchema, wails: 'baton:auth', doc: 'The whole new sign-in state.' },
  provision: { payload: provisionStateSchema, wails: 'baton:provision', doc: 'The whole new provisioning state.' },
  index: {
    payload: indexStateSchema,
    wails: 'baton:index',
    doc: 'The whole new state of the session index (at most four a second while it builds, and every change of state).',
  },
  sessions: { payload: sessionsChangeSchema, wails: 'baton:sessions', doc: 'Stored sessions changed outside this Baton: call listSessions again.' },
  ...TERMINAL_PUSHES,
  ...CHANGES_PUSHES,
} as const;
