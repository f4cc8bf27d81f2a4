// Permissions and what the turn reports beside its messages: the checklist and token usage.
// Each kind: its strict schema, its place in the area's list, and its metadata (PROTOCOL.md, "Adding a kind").
import { z } from 'zod';
import { base, count, json, permissionModeSchema, planItem, questionAnswerSchema, settledBySchema, toolKindSchema, verdictSchema } from './common.js';
import { type MetaTable, S, small } from './meta.js';

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
/** One API response's tokens as Claude Code recorded them (a message may be recorded more than once: count it once). */
export const usageRecordedEvent = z.strictObject({
  ...base,
  kind: z.literal('usage.recorded'),
  messageId: z.string(),
  model: z.string(),
  inputTokens: count,
  outputTokens: count,
  cacheReadTokens: count,
  cacheCreationTokens: count,
  parentToolUseId: z.string().optional(),
});

export const PERMISSION_EVENTS = [permissionRequestedEvent, permissionSettledEvent, planUpdatedEvent, usageUpdatedEvent, usageRecordedEvent] as const;

export const PERMISSION_META = {
  'permission.requested': {
    description: 'Claude Code asks to use a tool: the tool, its input, the SDK’s own words and suggestions.',
    example: {
      kind: 'permission.requested',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.500Z',
      requestId: 'req-1',
      toolUseId: 'toolu_01',
      toolName: 'Write',
      input: { file_path: '/tmp/project/a.txt', content: 'hi\n' },
      toolKind: 'write',
      toolTitle: 'Write /tmp/project/a.txt',
      suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    },
    size: { truncate: [], stub: ['input'], empty: ['suggestions'] },
    terminal: { quiet: 'the permission question is asked on the terminal (approve.go)' },
  },
  'permission.settled': {
    description: 'A permission request was answered: the verdict, by whom, and the answers or mode given.',
    example: {
      kind: 'permission.settled',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.600Z',
      requestId: 'req-1',
      verdict: 'deny',
      by: 'user',
      message: 'Not that file',
    },
    size: small('a verdict, a message, a few answers'),
    terminal: {
      lines: [{ text: '  → {verdict|say} ({by|words}){message|lead=: }' }],
      words: { verdict: { allow: 'allowed', allow_always: 'allowed always', deny: 'denied' } },
    },
  },
  'plan.updated': {
    description: 'The whole checklist, as Claude last wrote it.',
    example: {
      kind: 'plan.updated',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.800Z',
      items: [{ id: '1', content: 'Write the file', status: 'in_progress', activeForm: 'Writing the file' }],
    },
    size: small('a checklist'),
    terminal: {
      lines: [{ text: 'Plan:' }, { each: 'items', text: '  {status|say} {content}' }],
      words: { status: { completed: '[x]', in_progress: '[~]', '*': '[ ]' } },
    },
  },
  'usage.updated': {
    description: 'Token counts of the turn and the context (ephemeral while the turn streams).',
    example: { kind: 'usage.updated', session: S, turn: 't1', time: '2026-11-30T12:00:00.850Z', ephemeral: true, turnOutputTokens: 42 },
    size: small('numbers'),
    terminal: { quiet: 'not worth a line' },
  },
  'usage.recorded': {
    description:
      'The tokens of one API response (input, output, cache read and written) and its model, from the message Claude Code recorded: what usage totals count, once per messageId.',
    example: {
      kind: 'usage.recorded',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.860Z',
      messageId: 'msg_01',
      model: 'claude-sonnet-4-5',
      inputTokens: 12,
      outputTokens: 42,
      cacheReadTokens: 1000,
      cacheCreationTokens: 200,
    },
    size: small('numbers and ids'),
    terminal: { quiet: 'usage is for baton usage, not a line' },
  },
} as const satisfies MetaTable<z.infer<(typeof PERMISSION_EVENTS)[number]>>;
