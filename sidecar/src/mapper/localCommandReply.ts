// A local slash command run live (/usage, /context, /cost …) answers as a stub assistant message Claude Code makes
// up itself (model `<synthetic>`, no API call), while the transcript files the same output as
// `<local-command-stdout>`, which history maps to command.output. Mapping the live stub to command.output as well
// shows the output one way, live and after a reload: preformatted, its columns kept. A one-line reply ("Goal set:
// …") has no layout to lose and stays a message.
import type { EventBody } from '../protocol/events.js';

const SYNTHETIC_MODEL = '<synthetic>';
const SLASH_COMMAND = /^\/[^\s/]+/;

/** True for a prompt that runs a slash command. */
export function isSlashCommand(prompt: string): boolean {
  return SLASH_COMMAND.test(prompt.trim());
}

/** command.output for the stub reply to a slash command, else undefined (an ordinary reply). */
export function localCommandReply(
  model: string,
  texts: readonly string[],
  promptWasCommand: boolean,
  parentToolUseId: string | undefined,
): Array<EventBody<'command.output'>> | undefined {
  if (!promptWasCommand || model !== SYNTHETIC_MODEL || parentToolUseId !== undefined) return undefined;
  const text = texts.join('\n');
  if (!text.trim().includes('\n')) return undefined;
  return [{ kind: 'command.output', stream: 'stdout', text }];
}
