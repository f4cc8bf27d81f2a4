// Local slash commands the person ran, and what they printed.
// Each kind: its strict schema, its place in the area's list, and its metadata (PROTOCOL.md, "Adding a kind").
import { z } from 'zod';
import { base, commandStreamSchema } from './common.js';
import { type MetaTable, S, small } from './meta.js';

/** A local slash command the person ran (`/mcp`, `/context`, …: Claude Code ran it without the model). */
export const commandRanEvent = z.strictObject({
  ...base,
  kind: z.literal('command.ran'),
  name: z.string().min(1),
  args: z.string().optional(),
});
/** What a local command printed (shown in the command.ran row before it; alone when there is none). */
export const commandOutputEvent = z.strictObject({
  ...base,
  kind: z.literal('command.output'),
  stream: commandStreamSchema,
  text: z.string(),
});

export const COMMANDS_EVENTS = [commandRanEvent, commandOutputEvent] as const;

export const COMMANDS_META = {
  'command.ran': {
    description: 'A local slash command the person ran, which Claude Code ran without the model.',
    example: { kind: 'command.ran', session: S, time: '2026-11-30T12:00:08.300Z', name: '/mcp', args: 'list' },
    size: small('a command name and its arguments'),
    terminal: { lines: [{ text: '> {name}{args|lead= }' }] },
  },
  'command.output': {
    description: 'What a local command printed.',
    example: { kind: 'command.output', session: S, time: '2026-11-30T12:00:08.310Z', stream: 'stdout', text: 'No MCP servers configured' },
    size: { truncate: ['text'] },
    terminal: { lines: [{ text: '{text|tail=12}' }] },
  },
} as const satisfies MetaTable<z.infer<(typeof COMMANDS_EVENTS)[number]>>;
