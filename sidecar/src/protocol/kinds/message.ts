// Messages: streamed pieces and completed replies, and what could not be read (unreadable lines, protocol errors, unknown messages).
// Each kind: its strict schema, its place in the area's list, and its metadata (PROTOCOL.md, "Adding a kind").
import { z } from 'zod';
import { base, count, errorCodeSchema, json, messageBlockSchema, messageRoleSchema } from './common.js';
import { type MetaTable, S, small } from './meta.js';

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

export const MESSAGE_EVENTS = [messageDeltaEvent, messageCompletedEvent, transcriptUnreadableEvent, protocolErrorEvent, unknownEvent] as const;

export const MESSAGE_META = {
  'message.delta': {
    description: 'A piece of a message as it streams (ephemeral): text or thinking.',
    example: {
      kind: 'message.delta',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.200Z',
      ephemeral: true,
      messageId: 'msg_01',
      index: 0,
      block: 'text',
      text: 'Hel',
    },
    size: { truncate: ['text'] },
    terminal: { byHand: 'text pieces stream as they come, mid-line; thinking pieces are not shown' },
  },
  'message.completed': {
    description: 'A whole message: the assistant’s text, its thinking, or a user message.',
    example: {
      kind: 'message.completed',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.300Z',
      role: 'assistant',
      messageId: 'msg_01',
      uuid: '7d3c1e2a-0000-4000-8000-000000000002',
      text: 'Hello there',
    },
    size: { truncate: ['text'] },
    terminal: {
      lines: [
        { when: 'role == thinking', text: '  (thinking) {text|line=160}' },
        { when: 'role == user', text: '> {text|line=200}' },
      ],
      byHand: 'assistant text: printed unless it already streamed as deltas, with a [stopped] mark when stopped',
    },
  },
  'transcript.unreadable': {
    description: "History only: lines of the session's transcript could not be read; said once.",
    example: { kind: 'transcript.unreadable', session: S, time: '2026-11-30T12:00:08.400Z', lines: 2 },
    size: small('a count'),
    terminal: { lines: [{ text: '  ({lines} lines of this transcript could not be read)' }] },
  },
  'protocol.error': {
    description: 'A line or request one side could not read (no session: session is "").',
    example: { kind: 'protocol.error', session: '', time: '2026-11-30T12:00:01.200Z', code: 'line_too_long', message: 'a line longer than 8 MiB was dropped' },
    size: small('a code and a message'),
    terminal: { lines: [{ text: '  (protocol error: {message})' }] },
  },
  unknown: {
    description: 'An SDK message no reader maps, with its JSON as received.',
    example: { kind: 'unknown', session: S, time: '2026-11-30T12:00:01.100Z', raw: { type: 'brand_new_message', payload: { x: 1 } } },
    size: { truncate: [], stub: ['raw'] },
    terminal: { lines: [{ text: '  (unrecognized agent message: {raw|line=120})' }] },
  },
} as const satisfies MetaTable<z.infer<(typeof MESSAGE_EVENTS)[number]>>;
