// Which user messages are prompts: what a person typed, as opposed to tool results, the CLI's own notices
// ("[Request interrupted by user]", local command output, compaction summaries) and subagent input.
// Prompts travel as plain-string content (Baton sends them so; the CLI's notices are block arrays).
import { checkUserMessage } from './fastParse.js';
import type { UserMessage } from './sdkSchemas.js';
import { blockPrompt, isLocalOutput, slashCommandOf, withoutReminders } from './userEntries.js';

/** The prompt text of a main-loop prompt message, or undefined when the message is not a prompt. */
export function promptText(message: UserMessage): string | undefined {
  const content = message.message.content;
  if (!isPromptShaped(message)) return undefined;
  if (typeof content !== 'string') return blockPrompt(content)?.text;
  if (isLocalOutput(content)) return undefined;
  const text = slashCommand(content) ?? withoutReminders(content);
  return text === '' ? undefined : text;
}

/** Whether a user message may be a main-loop prompt at all (not a subagent's, a replay, CLI-made, a notice). */
function isPromptShaped(message: UserMessage): boolean {
  if (message.parent_tool_use_id !== null && message.parent_tool_use_id !== undefined) return false;
  if (message.isReplay === true || message.is_meta === true) return false;
  if (message.isCompletedLocalCommand === true || message.isCompactSummary === true || message.localCommand === true) return false;
  return !isTaskNotification(message);
}

/**
 * A slash command as the person typed it: Claude Code files `/goal clear` as `<command-name>/goal</command-name>
 * <command-message>goal</command-message> <command-args>clear</command-args>`; history shows what was typed, as live.
 */
function slashCommand(content: string): string | undefined {
  const command = slashCommandOf(content);
  if (command === undefined || !/^\s*(<command-message>[\s\S]*?<\/command-message>\s*)?<command-name>\//.test(content)) return undefined;
  return command.args === '' ? command.name : `${command.name} ${command.args}`;
}

/**
 * Claude Code's notice that a background task ended, which it files as a user message (`<task-notification>…`, or
 * the system reminder it sends the model): no person typed it.
 */
export function isTaskNotification(message: UserMessage): boolean {
  const content = message.message.content;
  const first = typeof content === 'string' ? content : content.map((b) => (isTextBlock(b) ? b.text : '')).join('');
  const text = first.trimStart();
  return text.startsWith('<task-notification>') || text.startsWith('[SYSTEM NOTIFICATION - NOT USER INPUT]');
}

function isTextBlock(block: unknown): block is { type: 'text'; text: string } {
  return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' && typeof (block as { text?: unknown }).text === 'string';
}

/** The uuid of a transcript message that begins a turn (a prompt), or undefined. */
export function promptUuid(message: unknown): string | undefined {
  // Most lines are not the person's: they fail the schema's type at once, without it copying the whole message.
  if ((message as { type?: unknown } | null)?.type !== 'user') return undefined;
  const parsed = checkUserMessage(message);
  if (!parsed.success || promptText(parsed.data) === undefined) return undefined;
  return parsed.data.uuid;
}
