// The session's own kinds: opened, closed, changed, compacted, and what the console shows beside the conversation.
// Each kind: its strict schema, its place in the area's list, and its metadata (PROTOCOL.md, "Adding a kind").
import { z } from 'zod';
import {
  base,
  commandEntry,
  compactTriggerSchema,
  count,
  goalState,
  hookOutcomeSchema,
  limitStatusSchema,
  limitWindow,
  modelEntrySchema,
  permissionModeSchema,
  retryInfoSchema,
  sessionActivitySchema,
  sessionCloseReasonSchema,
  sessionStateSchema,
  sessionWarningSchema,
} from './common.js';
import { type MetaTable, S, small } from './meta.js';

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
export const modelResolvedEvent = z.strictObject({
  ...base,
  kind: z.literal('model.resolved'),
  model: z.string().min(1),
});
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
export const goalUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('goal.updated'),
  /** Absent: no goal any more (cleared, or met and done). Optional rather than null: the host's flat event holds
   * every nested shape behind a pointer, where absent and null are one state. */
  goal: goalState.optional(),
});
export const sessionCompactedEvent = z.strictObject({
  ...base,
  kind: z.literal('session.compacted'),
  trigger: compactTriggerSchema,
  preTokens: count,
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
 * A plan limit's state as Claude Code read it from the API's answer (claude.ai subscriptions; an API key has none):
 * which window (five_hour, seven_day, …; open-ended, the SDK adds more), when it resets, how much of it is used.
 */
export const limitUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('limit.updated'),
  limitStatus: limitStatusSchema,
  window: z.string().optional(),
  resetsAt: z.iso.datetime({ offset: true }).optional(),
  /** The share of the window used, 0–1 as the SDK reports it. */
  utilization: z.number().nonnegative().optional(),
  /** The request ran on overage (extra usage) past the plan's limit. */
  overage: z.literal(true).optional(),
  /** Every window the answer reported (the five-hour and the weekly ones), for the plan meter. */
  windows: z.array(limitWindow).optional(),
});

export const SESSION_EVENTS = [
  sessionStartedEvent,
  sessionClosedEvent,
  sessionUpdatedEvent,
  modelResolvedEvent,
  commandsUpdatedEvent,
  modelsUpdatedEvent,
  contextUpdatedEvent,
  goalUpdatedEvent,
  sessionCompactedEvent,
  compactSummaryEvent,
  hookRanEvent,
  limitUpdatedEvent,
] as const;

export const SESSION_META = {
  'session.started': {
    description: 'The session opened (new, resumed or forked) in its folder, with the requested model and mode.',
    example: {
      kind: 'session.started',
      session: S,
      time: '2026-11-30T12:00:00.000Z',
      cwd: '/tmp/project',
      model: 'default',
      permissionMode: 'default',
      resumed: false,
    },
    size: small('a folder, a model, a mode'),
    terminal: { lines: [{ text: 'Session {session} in {cwd}' }] },
  },
  'session.closed': {
    description: 'The session ended: closed, its sidecar exited, or an error.',
    example: { kind: 'session.closed', session: S, time: '2026-11-30T12:00:02.500Z', reason: 'closed' },
    size: small('a reason and a short message'),
    terminal: { quiet: 'the command ends with the session' },
  },
  'session.updated': {
    description: "A change to the session's settings or state: mode, title, model, what the CLI is doing, sleep and wake, a warning.",
    example: { kind: 'session.updated', session: S, time: '2026-11-30T12:00:01.600Z', title: 'Hello' },
    size: small('settings, states and a title'),
    terminal: {
      lines: [
        // Retries are worth a line: a turn that waits on an overloaded API should not look hung.
        { when: 'status == retrying && retry', text: '  … retrying (attempt {retry.attempt} of {retry.maxRetries}{retry.httpStatus|lead=, HTTP })' },
        {
          when: 'warning == continuation_delayed',
          text: "  (Claude Code's follow-up to the finished background work did not start; it was given up)",
        },
      ],
    },
  },
  'model.resolved': {
    description: 'The effective model the CLI reports.',
    example: { kind: 'model.resolved', session: S, time: '2026-11-30T12:00:00.900Z', model: 'claude-opus-5-5' },
    size: small('a model id'),
    terminal: { lines: [{ text: '  (model: {model})' }] },
  },
  'commands.updated': {
    description: 'The whole command palette.',
    example: {
      kind: 'commands.updated',
      session: S,
      time: '2026-11-30T12:00:01.300Z',
      commands: [
        { name: 'review', description: 'Review a pull request', argumentHint: '<pr>' },
        { name: 'compact', description: 'Clear the conversation but keep a summary' },
      ],
    },
    size: small('a palette of commands'),
    terminal: { quiet: 'not worth a line' },
  },
  'models.updated': {
    description: 'The whole list of models the session can switch to.',
    example: {
      kind: 'models.updated',
      session: S,
      time: '2026-11-30T12:00:01.400Z',
      models: [{ value: 'sonnet', displayName: 'Sonnet', description: 'Balanced', resolvedModel: 'claude-sonnet-5' }],
    },
    size: small('a list of models'),
    terminal: { quiet: 'not worth a line' },
  },
  'context.updated': {
    description: 'How much of the context window is in use.',
    example: { kind: 'context.updated', session: S, time: '2026-11-30T12:00:01.500Z', totalTokens: 12294, maxTokens: 1000000, percentage: 1.2 },
    size: small('numbers'),
    terminal: { quiet: 'not worth a line' },
  },
  'goal.updated': {
    description: 'The goal /goal set, as Claude Code reports it; absent: no goal.',
    example: {
      kind: 'goal.updated',
      session: S,
      turn: 't6',
      time: '2026-11-30T12:00:07.000Z',
      goal: { condition: 'the tests pass', met: false, iterations: 1, lastReason: 'two tests still fail' },
    },
    size: small('one condition'),
    terminal: {
      lines: [
        { when: '!goal', text: '  ◎ goal cleared' },
        { when: 'goal.met', text: '  ◎ goal met: {goal.condition|line=160}' },
        { when: 'goal && !goal.met', text: '  ◎ goal: {goal.condition|line=160} (not met yet{goal.lastReason|line=120|lead=: })' },
      ],
    },
  },
  'session.compacted': {
    description: 'The conversation was compacted (a marker row).',
    example: { kind: 'session.compacted', session: S, turn: 't7', time: '2026-11-30T12:00:08.000Z', trigger: 'manual', preTokens: 15210 },
    size: small('a trigger and a count'),
    terminal: { lines: [{ text: '  ── conversation compacted ({trigger})' }] },
  },
  'compact.summary': {
    description: 'The summary Claude Code wrote when it compacted the conversation (shown under its marker).',
    example: {
      kind: 'compact.summary',
      session: S,
      turn: 't7',
      time: '2026-11-30T12:00:08.010Z',
      text: 'The person asked to rename the module; the work so far: …',
    },
    size: { truncate: ['text'] },
    terminal: { lines: [{ text: '  (summary of the compacted conversation: {text|line=160})' }] },
  },
  'hook.ran': {
    description: 'A command hook from the settings ran (a collapsed row).',
    example: {
      kind: 'hook.ran',
      session: S,
      turn: 't7',
      time: '2026-11-30T12:00:08.100Z',
      hookEvent: 'UserPromptSubmit',
      name: 'UserPromptSubmit',
      outcome: 'success',
      output: 'checked',
    },
    size: { truncate: ['output'] },
    terminal: { lines: [{ when: 'outcome != success', text: '  (hook {name} {outcome})' }] },
  },
  'limit.updated': {
    description:
      'A plan limit window’s state after a request (the SDK’s rate_limit_event): allowed, allowed_warning (near its end) or rejected, with the window and when it resets.',
    example: {
      kind: 'limit.updated',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.870Z',
      limitStatus: 'allowed_warning',
      window: 'five_hour',
      resetsAt: '2026-11-30T15:00:00.000Z',
      utilization: 0.9,
      windows: [
        { window: 'five_hour', utilization: 0.9, resetsAt: '2026-11-30T15:00:00.000Z' },
        { window: 'seven_day', utilization: 0.4, resetsAt: '2026-12-03T09:00:00.000Z' },
      ],
    },
    size: small('a status, a window and a time'),
    terminal: {
      lines: [
        { when: 'limitStatus == rejected', text: '  (plan limit reached: {window|words}{resetsAt|lead=, resets at })' },
        { when: 'limitStatus == allowed_warning', text: '  (near the plan limit: {window|words}{resetsAt|lead=, resets at })' },
      ],
    },
  },
} as const satisfies MetaTable<z.infer<(typeof SESSION_EVENTS)[number]>>;
