// A past session's history as the sidecar maps a Claude Code transcript (issue 26): a subagent's work under its
// Agent call, an API error, a compaction and its summary, local commands and their output, unreadable lines,
// a prompt with images, a tool that returned one, a tool the session ended in, and coloured Bash output. Each
// prompt's turn is its uuid, as history names them.
import type { SessionEvent } from '../src/protocol/events';

export const PAST = 'past-session';
const T = '2026-11-30T12:00:00.000Z';
const base = { session: PAST, time: T } as const;

/** A 1×1 PNG, as a prompt's pasted image carries it. */
export const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==';

export const BEFORE_COMPACTION: SessionEvent[] = [
  { ...base, kind: 'turn.started', turn: 'u1', prompt: 'Rename the module', uuid: 'u1' },
  { ...base, kind: 'message.completed', turn: 'u1', role: 'assistant', messageId: 'm1', text: 'I will ask a subagent.' },
  {
    ...base,
    kind: 'tool.started',
    turn: 'u1',
    toolUseId: 'task1',
    name: 'Agent',
    toolKind: 'agent',
    title: 'Agent',
    input: { description: 'find uses', prompt: 'Find every use of the module' },
  },
];

export const SUBAGENT: SessionEvent[] = [
  // The subagent's transcript starts with its brief, which the Agent card shows from its input.
  { ...base, kind: 'message.completed', turn: 'u1', role: 'user', text: 'Find every use of the module', parentToolUseId: 'task1' },
  { ...base, kind: 'message.completed', turn: 'u1', role: 'assistant', messageId: 'ms', text: 'Searching.', parentToolUseId: 'task1' },
  {
    ...base,
    kind: 'tool.started',
    turn: 'u1',
    toolUseId: 'sb1',
    name: 'Bash',
    toolKind: 'shell',
    title: 'Bash',
    input: { command: 'grep -rn module' },
    parentToolUseId: 'task1',
  },
  { ...base, kind: 'tool.completed', turn: 'u1', toolUseId: 'sb1', name: 'Bash', output: 'src/a.ts:1:module' },
  { ...base, kind: 'api.error', turn: 'u1', error: 'rate_limit', httpStatus: 429, message: 'API Error: Rate limit reached', parentToolUseId: 'task1' },
  { ...base, kind: 'tool.completed', turn: 'u1', toolUseId: 'task1', name: 'Agent', output: 'Found one use.' },
];

export const COMPACTION: SessionEvent[] = [
  { ...base, kind: 'session.compacted', turn: 'u1', trigger: 'auto', preTokens: 15210 },
  { ...base, kind: 'compact.summary', turn: 'u1', text: '## Summary\nThe person asked to rename the module; one use was found.' },
];

export const COMMANDS: SessionEvent[] = [
  { ...base, kind: 'command.ran', name: '/mcp', args: 'list' },
  { ...base, kind: 'command.output', stream: 'stdout', text: 'No MCP servers configured' },
  { ...base, kind: 'command.output', stream: 'stderr', text: 'warning: no settings file' },
  { ...base, kind: 'command.ran', name: 'context' },
  { ...base, kind: 'command.output', stream: 'stdout', text: Array.from({ length: 30 }, (_, i) => `\x1b[36mline ${i + 1}\x1b[0m`).join('\n') },
  { ...base, kind: 'transcript.unreadable', lines: 2 },
  // Output whose command is not in sight (on an older page, or never recorded).
  { ...base, kind: 'command.output', stream: 'stdout', text: 'Bye!' },
];

export const IMAGES: SessionEvent[] = [
  {
    ...base,
    kind: 'turn.started',
    turn: 'u2',
    prompt: 'What is in this screenshot?',
    uuid: 'u2',
    images: [
      { mediaType: 'image/png', data: PNG_1PX, bytes: 70 },
      { mediaType: 'image/png', bytes: 9_000_000 },
      { mediaType: 'image/svg+xml', data: 'PHN2Zy8+', bytes: 6 },
    ],
  },
  {
    ...base,
    kind: 'tool.started',
    turn: 'u2',
    toolUseId: 'r1',
    name: 'Read',
    toolKind: 'read',
    title: 'Read',
    detail: 'shot.jpg',
    input: { file_path: 'shot.jpg' },
  },
  { ...base, kind: 'tool.completed', turn: 'u2', toolUseId: 'r1', name: 'Read', output: '', images: [{ mediaType: 'image/jpeg', data: '/9j/', bytes: 3 }] },
  {
    ...base,
    kind: 'tool.started',
    turn: 'u2',
    toolUseId: 'b2',
    name: 'Bash',
    toolKind: 'shell',
    title: 'Bash',
    input: { command: 'npm test' },
  },
  {
    ...base,
    kind: 'tool.completed',
    turn: 'u2',
    toolUseId: 'b2',
    name: 'Bash',
    output: '\x1b[1m\x1b[32mPASS\x1b[39m\x1b[22m src/a.test.ts\n\x1b[2K\x1b[1G\x1b]0;npm test\x07 10%\r 100%\n\x1b[31m1 failed\x1b[0m',
  },
  { ...base, kind: 'tool.started', turn: 'u2', toolUseId: 'b3', name: 'Bash', toolKind: 'shell', title: 'Bash', input: { command: 'sleep 100' } },
  { ...base, kind: 'api.error', turn: 'u2', error: 'overloaded', message: 'API Error: Overloaded' },
  { ...base, kind: 'tool.interrupted', turn: 'u2', toolUseId: 'b3', name: 'Bash', cause: 'session_ended' },
];

export const PAST_EVENTS: SessionEvent[] = [...BEFORE_COMPACTION, ...SUBAGENT, ...COMPACTION, ...COMMANDS, ...IMAGES];
