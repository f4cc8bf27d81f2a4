// The session's first prompt when the SDK's `firstPrompt` may be a subagent's: the SDK takes the first user line it
// does not skip, and a 1.0.x subagent's inline (isSidechain) prompt is one when the person's own first lines start
// with markup. Reads the transcript's head only, until the line the SDK took.
import { promptText } from '../mapper/prompts.js';
import { userMessageSchema } from '../mapper/sdkSchemas.js';
import { toSdkMessage } from './transcriptEntry.js';
import { readLines } from './transcriptLines.js';
import { contentText } from '../mapper/userEntries.js';

/** Lines read at most: the SDK's own first-prompt scan stops early too. */
const HEAD_LINES = 2000;

/**
 * The person's first prompt when `sdkFirst` is a subagent's prompt (undefined when it is not, or when the person's
 * prompt is not found): a plain prompt before a slash command.
 */
export async function mainFirstPrompt(file: string, sdkFirst: string): Promise<string | undefined> {
  const prompts: string[] = [];
  let lines = 0;
  for await (const line of readLines(file)) {
    if (++lines > HEAD_LINES || !line.complete) break;
    const entry = parse(line.text ?? '');
    if (entry === undefined || entry['type'] !== 'user') continue;
    const sidechain = entry['isSidechain'] === true;
    const message = userMessageSchema.safeParse(toSdkMessage(entry, {}));
    if (!message.success) continue;
    if (sidechain) {
      if (contentText(message.data.message.content).trim() === sdkFirst.trim()) return prompts.find((p) => !p.startsWith('/')) ?? prompts[0];
      continue;
    }
    const prompt = promptText(message.data);
    if (prompt === undefined) continue;
    if (prompt.trim() === sdkFirst.trim()) return undefined; // the SDK took the person's own prompt
    prompts.push(withoutMarkup(prompt));
  }
  return undefined;
}

/** The words of a prompt without the IDE's and the CLI's tagged context (`<ide_selection>…</ide_selection>`). */
function withoutMarkup(prompt: string): string {
  const words = prompt.replace(/<([a-z][\w-]*)>[\s\S]*?<\/\1>/g, '').trim();
  return words === '' ? prompt : words;
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
