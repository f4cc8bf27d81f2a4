// The console's terminals (app/terminal): a shell per session in a real PTY, the sign-in's `claude auth login`, and
// Claude Code's own TUI on a session. Output travels as the `terminal` push (base64, coalesced per terminal); a
// console that finds a gap in the offsets, or reloads, redraws from terminalScrollback.
import { z } from 'zod';
import type { ConsoleCall } from './consoleShared.js';
import { count, emptySchema } from './consoleShared.js';

const cells = z.number().int().min(1).max(1000);

export const terminalOpenParamsSchema = z
  .strictObject({ session: z.string(), cols: cells, rows: cells })
  .describe('opens a terminal in a session’s folder at a size in character cells');
export const terminalSizeParamsSchema = z.strictObject({ cols: cells, rows: cells }).describe('is a terminal’s size in character cells');
export const terminalInfoSchema = z
  .strictObject({
    terminal: z.string(),
    session: z.string().optional(),
    title: z.string(),
    exited: z.boolean(),
    exitCode: z.number().int().optional(),
  })
  .describe('is one open terminal: its session (none for the sign-in), title, and whether its program exited');
export const terminalRefSchema = z.strictObject({ terminal: z.string() }).describe('names a terminal');
export const terminalInputParamsSchema = z
  .strictObject({ terminal: z.string(), data: z.string().max(1 << 20) })
  .describe('is what the person typed or pasted, as the terminal sends it');
export const terminalResizeParamsSchema = z.strictObject({ terminal: z.string(), cols: cells, rows: cells });
export const terminalListParamsSchema = z.strictObject({ session: z.string() }).describe('names the session whose terminals to list');
export const terminalListSchema = z.strictObject({ terminals: z.array(terminalInfoSchema) });
export const terminalScrollbackSchema = z
  .strictObject({ terminal: z.string(), data: z.string(), end: count, exited: z.boolean(), exitCode: z.number().int().optional() })
  .describe('is what a terminal keeps of its output (base64, at most 1 MiB) and the offset just past it');
export const terminalOutputSchema = z
  .strictObject({ terminal: z.string(), offset: count, data: z.string(), exited: z.boolean(), exitCode: z.number().int().optional() })
  .describe(
    'is output of one terminal (base64) starting at offset in all it printed; a gap means some was dropped, redraw from terminalScrollback; exited: its program ended',
  );

export const TERMINAL_NAMED: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['TerminalOpenParams', terminalOpenParamsSchema],
  ['TerminalSizeParams', terminalSizeParamsSchema],
  ['TerminalInfo', terminalInfoSchema],
  ['TerminalRef', terminalRefSchema],
  ['TerminalInputParams', terminalInputParamsSchema],
  ['TerminalResizeParams', terminalResizeParamsSchema],
  ['TerminalListParams', terminalListParamsSchema],
  ['TerminalList', terminalListSchema],
  ['TerminalScrollback', terminalScrollbackSchema],
  ['TerminalOutput', terminalOutputSchema],
];

export const TERMINAL_CALLS = {
  terminalOpen: { params: terminalOpenParamsSchema, result: terminalInfoSchema, doc: 'Opens a shell in the session’s folder in a terminal.' },
  terminalInput: { params: terminalInputParamsSchema, result: emptySchema, doc: 'Sends typed or pasted input to a terminal.' },
  terminalResize: { params: terminalResizeParamsSchema, result: emptySchema, doc: 'Sets a terminal’s size in character cells.' },
  terminalClose: { params: terminalRefSchema, result: emptySchema, doc: 'Ends a terminal and everything it started.' },
  terminalList: { params: terminalListParamsSchema, result: terminalListSchema, doc: 'The open terminals of a session.' },
  terminalScrollback: { params: terminalRefSchema, result: terminalScrollbackSchema, doc: 'What a terminal keeps of its output, to redraw it.' },
  terminalSignIn: { params: terminalSizeParamsSchema, result: terminalInfoSchema, doc: 'Runs Claude Code’s own sign-in in a terminal inside Baton.' },
  terminalClaudeCode: {
    params: terminalOpenParamsSchema,
    result: terminalInfoSchema,
    doc: 'Puts the session to sleep and runs Claude Code’s own TUI on it in a terminal.',
  },
} as const satisfies Record<string, ConsoleCall>;

export const TERMINAL_PUSHES = {
  terminal: { payload: terminalOutputSchema, wails: 'baton:terminal', doc: 'Output of one terminal, or its end.' },
} as const;
