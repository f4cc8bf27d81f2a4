// User messages that are not a person's plain-string prompt nor tool results: the compaction summary, local
// commands and their output, prompts stored as content blocks (with images), and Claude Code's own system
// reminders, which no prompt shows. Live and history read them the same way; pure functions.
import type { EventBody, Image } from '../protocol/events.js';
import type { UserMessage } from './sdkSchemas.js';

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>\s*/g;
// Claude Code writes `<command-name>` first, or (some 2.x builds) after `<command-message>`.
const COMMAND_NAME = /^\s*(?:<command-message>[\s\S]*?<\/command-message>\s*)?<command-name>(\/?[^<]+)<\/command-name>/;
const BASH_INPUT = /^\s*<bash-input>([\s\S]*?)<\/bash-input>\s*$/;
const BASH_OUTPUT = /^\s*(?:<bash-stdout>([\s\S]*?)<\/bash-stdout>)?\s*(?:<bash-stderr>([\s\S]*?)<\/bash-stderr>)?\s*$/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
const LOCAL_OUTPUT = /^\s*<local-command-(stdout|stderr)>([\s\S]*?)<\/local-command-\1>\s*$/;
const INTERRUPT_MARK = /^\s*\[Request interrupted by user/;

/** The text without Claude Code's `<system-reminder>` blocks (its context for the model, never the person's words). */
export function withoutReminders(text: string): string {
  return text.includes('<system-reminder>') ? text.replace(REMINDER, '').trim() : text;
}

/** The whole text of a user message's content (text blocks joined). */
export function contentText(content: UserMessage['message']['content']): string {
  if (typeof content === 'string') return content;
  return content.flatMap((b) => (isBlock(b, 'text') && typeof b['text'] === 'string' ? [b['text']] : [])).join('\n');
}

/**
 * compact.summary for the message Claude Code wrote the compaction summary into, else undefined. A transcript
 * marks it isCompactSummary; live, the SDK sends it right after the compact_boundary marked only isSynthetic.
 */
export function compactSummary(message: UserMessage, afterBoundary: boolean): EventBody<'compact.summary'> | undefined {
  if (message.isCompactSummary !== true && !(afterBoundary && message.isSynthetic === true)) return undefined;
  return { kind: 'compact.summary', text: withoutReminders(contentText(message.message.content)) };
}

/** A slash command as Claude Code files it: `<command-name>/x</command-name> … <command-args>a</command-args>`. */
export function slashCommandOf(text: string): { name: string; args: string } | undefined {
  const name = COMMAND_NAME.exec(text)?.[1]?.trim();
  if (name === undefined || name === '') return undefined;
  const args = COMMAND_ARGS.exec(text)?.[1]?.trim() ?? '';
  return { name: name.startsWith('/') ? name : `/${name}`, args };
}

/**
 * command.ran for a local command (one Claude Code ran without the model: its output follows), else undefined.
 * A prompt command (`/goal …`, which the model answers) stays a prompt. A bash-mode command (`! cmd`) is `!`.
 */
export function localCommand(message: UserMessage): EventBody<'command.ran'> | undefined {
  if (message.isCompletedLocalCommand !== true && message.localCommand !== true) return undefined;
  const text = contentText(message.message.content);
  const bash = BASH_INPUT.exec(text)?.[1]?.trim();
  const command = bash !== undefined ? { name: '!', args: bash } : slashCommandOf(text);
  if (command === undefined) return undefined;
  return { kind: 'command.ran', name: command.name, ...(command.args !== '' ? { args: command.args } : {}) };
}

/** A bash-mode command's output (`<bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>`), else undefined. */
export function bashOutput(text: string): Array<EventBody<'command.output'>> | undefined {
  if (!/^\s*<bash-std(out|err)>/.test(text)) return undefined;
  const match = BASH_OUTPUT.exec(text);
  if (match === null) return undefined;
  const [stdout, stderr] = [match[1]?.trim() ?? '', match[2]?.trim() ?? ''];
  const out: Array<EventBody<'command.output'>> = [];
  if (stdout !== '' || stderr === '') out.push({ kind: 'command.output', stream: 'stdout', text: stdout });
  if (stderr !== '') out.push({ kind: 'command.output', stream: 'stderr', text: stderr });
  return out;
}

/** command.output for a `<local-command-stdout|stderr>` text, else undefined. */
export function localOutput(text: string): EventBody<'command.output'> | undefined {
  const match = LOCAL_OUTPUT.exec(text);
  if (match === null) return undefined;
  return { kind: 'command.output', stream: match[1] === 'stderr' ? 'stderr' : 'stdout', text: match[2]!.trim() };
}

/** Whether a text is a local or bash-mode command's line (no person typed it as a prompt). */
export function isLocalOutput(text: string): boolean {
  return LOCAL_OUTPUT.test(text) || BASH_INPUT.test(text) || bashOutput(text) !== undefined;
}

/**
 * A prompt stored as content blocks (1.0.x `-p`, a pasted image): its text and images; undefined when the blocks
 * hold anything else (tool results, Claude Code's notices).
 */
export function blockPrompt(content: readonly unknown[]): { text: string; images: Image[] } | undefined {
  const texts: string[] = [];
  const images: Image[] = [];
  for (const block of content) {
    if (isBlock(block, 'text') && typeof block['text'] === 'string') texts.push(block['text']);
    else if (isBlock(block, 'image')) images.push(...imagesOf([block]));
    else return undefined;
  }
  const text = withoutReminders(texts.join('\n'));
  if (text === '' && images.length === 0) return undefined;
  if (INTERRUPT_MARK.test(text) || isLocalOutput(text)) return undefined;
  return { text, images };
}

/** The base64 images among content blocks (a URL image is never fetched, so it is left out). */
export function imagesOf(blocks: readonly unknown[]): Image[] {
  return blocks.flatMap((block) => {
    if (!isBlock(block, 'image')) return [];
    const source = block['source'] as { type?: unknown; media_type?: unknown; data?: unknown } | undefined;
    if (source?.type !== 'base64' || typeof source.data !== 'string') return [];
    const mediaType = typeof source.media_type === 'string' && source.media_type !== '' ? source.media_type : 'application/octet-stream';
    return [{ mediaType, data: source.data, bytes: base64Bytes(source.data) }];
  });
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function isBlock(block: unknown, type: string): block is Record<string, unknown> {
  return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === type;
}
