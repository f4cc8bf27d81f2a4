// Tool calls: started, updated, and how each ended; a restricted run's call to a host tool.
// Each kind: its strict schema, its place in the area's list, and its metadata (PROTOCOL.md, "Adding a kind").
import { z } from 'zod';
import { base, fileBefore, imageSchema, json, toolInterruptCauseSchema, toolKindSchema } from './common.js';
import { type MetaTable, S, small } from './meta.js';

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

export const TOOL_EVENTS = [toolStartedEvent, toolUpdatedEvent, toolCompletedEvent, toolFailedEvent, toolInterruptedEvent, toolCalledEvent] as const;

export const TOOL_META = {
  'tool.started': {
    description: "A tool call began: the catalogue's kind, title and detail of it, and its input.",
    example: {
      kind: 'tool.started',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.400Z',
      toolUseId: 'toolu_01',
      name: 'Write',
      input: { file_path: '/tmp/project/a.txt', content: 'hi\n' },
      toolKind: 'write',
      title: 'Write /tmp/project/a.txt',
      detail: '/tmp/project/a.txt',
      path: '/tmp/project/a.txt',
      fileBefore: { path: '/tmp/project/a.txt', text: null },
    },
    size: { truncate: [], drop: ['fileBefore'], stub: ['input'] },
    terminal: {
      lines: [
        { when: 'title', text: '▶ {title}' },
        // Only a hand-made event lacks the title the wire requires: the name, with no summary after it.
        { when: '!title', text: '▶ {name} ' },
      ],
    },
  },
  'tool.updated': {
    description: 'Progress of a running tool call: elapsed time, a summary.',
    example: {
      kind: 'tool.updated',
      session: S,
      turn: 't2',
      time: '2026-11-30T12:00:02.100Z',
      toolUseId: 'toolu_02',
      elapsedSeconds: 3.5,
      summary: 'Running tests',
    },
    size: small('a number and a one-line summary'),
    terminal: { lines: [{ when: 'summary', text: '  … {summary|line=120}' }] },
  },
  'tool.completed': {
    description: "A tool call's result: its output, structured result, images, and the file as it was before.",
    example: {
      kind: 'tool.completed',
      session: S,
      turn: 't2',
      time: '2026-11-30T12:00:02.200Z',
      toolUseId: 'toolu_02',
      name: 'Edit',
      output: '',
      structured: { filePath: '/tmp/project/b.txt' },
      fileBefore: { path: '/tmp/project/b.txt', text: null },
    },
    size: { truncate: ['output'], drop: ['structured', 'fileBefore'], images: true },
    terminal: { lines: [{ text: '✓ {name}{output|tail=12}' }] },
  },
  'tool.failed': {
    description: 'A tool call failed, or was denied and never ran.',
    example: { kind: 'tool.failed', session: S, turn: 't1', time: '2026-11-30T12:00:00.700Z', toolUseId: 'toolu_01', name: 'Write', error: 'Not that file' },
    size: { truncate: ['error'] },
    terminal: {
      lines: [
        { when: 'denied', text: '✗ {name} denied: {error|line=300}' },
        { when: '!denied', text: '✗ {name}: {error|line=300}' },
      ],
    },
  },
  'tool.interrupted': {
    description: 'A tool call got no result: its turn was stopped, or its process or Baton died.',
    example: { kind: 'tool.interrupted', session: S, turn: 't1', time: '2026-11-30T12:00:00.750Z', toolUseId: 'toolu_02', name: 'Bash', cause: 'cancel' },
    size: small('a name and a cause'),
    terminal: {
      lines: [{ text: '■ {name} {cause|say}' }],
      words: {
        cause: {
          cancel: 'canceled',
          sidecar_exited: 'interrupted (the agent process stopped)',
          host_exited: 'interrupted (Baton stopped)',
          '*': 'interrupted',
        },
      },
    },
  },
  'tool.called': {
    description: "A restricted run's model called one of the host's tools; the host answers with tool_result.",
    example: {
      kind: 'tool.called',
      session: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
      turn: 't4',
      time: '2026-11-30T12:00:03.000Z',
      callId: 'c1',
      toolUseId: 'toolu_03',
      name: 'lookup',
      input: { word: 'baton' },
    },
    // The host needs a tool call's whole input; a model's output (at most 128k tokens) is far below the bound.
    size: small("a model's tool input, far below the bound, which the host needs whole"),
    terminal: { quiet: 'baton run prints the calls itself' },
  },
} as const satisfies MetaTable<z.infer<(typeof TOOL_EVENTS)[number]>>;
