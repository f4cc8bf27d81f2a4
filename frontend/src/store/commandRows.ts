// Local slash commands (`/mcp`, `/context`, …: Claude Code ran them without the model) and what they printed: one
// command row each, its output attached to it. They come as command.ran / command.output, or, from older
// producers, as the CLI's own markup in a user message.
import type { CommandStream } from '../protocol/wire.gen';
import { addItem, getItem, newKey, replaceItem } from './transcript';
import type { CommandItem, Transcript } from './types';

/** "/name args" of a slash command as the CLI stores it (markup: command-name, command-message, command-args). */
export function slashCommand(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('<command-name>') && !trimmed.startsWith('<command-message>')) return undefined;
  const name = /<command-name>([^<]*)<\/command-name>/.exec(trimmed)?.[1]?.trim();
  if (name === undefined || name === '') return undefined;
  const args = /<command-args>([^<]*)<\/command-args>/.exec(trimmed)?.[1]?.trim() ?? '';
  return commandLine(name, args);
}

/** The command as the person typed it: its name with the slash, then its arguments. */
export function commandLine(name: string, args: string | undefined): string {
  return `${name.startsWith('/') ? name : `/${name}`} ${args?.trim() ?? ''}`.trim();
}

/** The command row that output coming next belongs to (when it is still the last row). */
const OPEN_COMMAND = 'command:open';

/** A slash command's row; none for /model, whose change reads once from the CLI's own line after it. */
export function addCommand(t: Transcript, command: string, time: string, turn: string | undefined): boolean {
  if (command === '/model' || command.startsWith('/model ')) {
    // Its line is its own, not the output of a command before it.
    t.ids.delete(OPEN_COMMAND);
    return false;
  }
  const key = newKey(t, 'c');
  addItem(t, { type: 'command', key, time, command, output: [], ...(turn !== undefined ? { turn } : {}) });
  t.ids.set(OPEN_COMMAND, key);
  return true;
}

/**
 * Attaches what a command printed to the command row just before it; with no command there (its row is on an
 * older page, or it made none), the output is a row of its own.
 */
export function addCommandOutput(t: Transcript, stream: CommandStream, text: string, time: string, turn: string | undefined): boolean {
  const last = openCommand(t);
  if (last !== undefined) {
    replaceItem(t, { ...last, output: [...last.output, { stream, text }] });
    return true;
  }
  addItem(t, { type: 'command', key: newKey(t, 'c'), time, output: [{ stream, text }], ...(turn !== undefined ? { turn } : {}) });
  return true;
}

const LOCAL_OUTPUT = /^<local-command-(stdout|stderr)>([\s\S]*)<\/local-command-\1>$/;

/** The stream and text of the CLI's markup for a local command's output, when the message is that. */
export function localOutput(text: string): { stream: CommandStream; text: string } | undefined {
  const match = LOCAL_OUTPUT.exec(text.trim());
  if (match === null) return undefined;
  return { stream: match[1] === 'stderr' ? 'stderr' : 'stdout', text: (match[2] ?? '').trim() };
}

/** Whether output coming now belongs to a command row (the last row, the last command made). */
export function followsCommand(t: Transcript): boolean {
  return openCommand(t) !== undefined;
}

function openCommand(t: Transcript): CommandItem | undefined {
  const key = t.rows[t.rows.length - 1];
  const last = getItem(t, key);
  return last?.type === 'command' && key === t.ids.get(OPEN_COMMAND) ? last : undefined;
}
