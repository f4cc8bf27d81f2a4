// The session's first prompt when the SDK's `firstPrompt` may be a subagent's: the SDK takes the first user line it
// does not skip, and a 1.0.x subagent's inline (isSidechain) prompt is one when the person's own first lines start
// with markup. Reads the transcript's head only, until the line the SDK took.
import { closeSync, openSync, readSync } from 'node:fs';
import { promptText } from '../mapper/prompts.js';
import { userMessageSchema } from '../mapper/sdkSchemas.js';
import { contentText } from '../mapper/userEntries.js';
import { toSdkMessage } from './transcriptEntry.js';
import { type RawLine, readLines } from './transcriptLines.js';

/** Lines read at most: the SDK's own first-prompt scan stops early too. */
const HEAD_LINES = 2000;

/**
 * The head read in one synchronous read (as much as the SDK reads for its own first prompt): the line the SDK took
 * is nearly always in it. A listing checks a thousand files; an async open, read and close each (and the line
 * reader's 1 MB buffer) cost several times more CPU than the check itself.
 */
const HEAD_BYTES = 64 << 10;
const NEWLINE = 0x0a;
/** Shared: each head is read and decoded with no await in between. */
const head = Buffer.allocUnsafe(HEAD_BYTES);

/**
 * The person's first prompt when `sdkFirst` is a subagent's prompt (undefined when it is not, or when the person's
 * prompt is not found): a plain prompt before a slash command. Its head is read synchronously, the rest (rarely
 * reached) as a stream.
 */
export async function mainFirstPrompt(file: string, sdkFirst: string): Promise<string | undefined> {
  const scan = new FirstPromptScan(sdkFirst);
  const rest = scanHead(file, scan);
  if (rest === undefined) return scan.found;
  for await (const line of readLines(file, rest)) {
    if (scan.done(line)) break;
  }
  return scan.found;
}

/** Feeds the head's complete lines to scan; the offset to read on from, or undefined when the scan is over. */
function scanHead(file: string, scan: FirstPromptScan): number | undefined {
  const fd = openSync(file, 'r');
  let bytes: number;
  try {
    bytes = readSync(fd, head, 0, HEAD_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  // The whole file with no subagent line in it: nothing to find, and no line need be parsed (a listing checks a
  // thousand such files, and parsing their heads was most of the check's CPU).
  if (bytes < HEAD_BYTES && !holdsSidechain(head, bytes)) return undefined;
  let start = 0;
  for (let nl = head.indexOf(NEWLINE, 0); nl >= 0 && nl < bytes; nl = head.indexOf(NEWLINE, start)) {
    if (scan.done({ offset: start, end: nl + 1, text: head.toString('utf8', start, nl), complete: true })) return undefined;
    start = nl + 1;
  }
  // A short read is the file's end: what follows the last newline is a torn line, where the scan stops.
  return bytes < HEAD_BYTES ? undefined : start;
}

const SIDECHAIN_KEY = '"isSidechain"';
const JSON_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const COLON = 0x3a;
const TRUE = Buffer.from('true');

/**
 * Whether buf's first `end` bytes may hold `"isSidechain": true` (a subagent's line), with any spacing JSON allows.
 * A key written with \u escapes would be missed: Claude Code writes its lines with JSON.stringify, which escapes no
 * letter.
 */
function holdsSidechain(buf: Buffer, end: number): boolean {
  for (let at = buf.indexOf(SIDECHAIN_KEY); at >= 0 && at < end; at = buf.indexOf(SIDECHAIN_KEY, at + 1)) {
    let i = at + SIDECHAIN_KEY.length;
    while (i < end && JSON_SPACE.has(buf[i]!)) i++;
    if (buf[i] !== COLON) continue;
    i++;
    while (i < end && JSON_SPACE.has(buf[i]!)) i++;
    if (i + TRUE.length <= end && buf.compare(TRUE, 0, TRUE.length, i, i + TRUE.length) === 0) return true;
  }
  return false;
}

/** The check, line by line: `done` says when it has its answer (`found`) or gave up. */
class FirstPromptScan {
  found: string | undefined;
  private readonly prompts: string[] = [];
  private lines = 0;
  private readonly first: string;

  constructor(sdkFirst: string) {
    this.first = sdkFirst.trim();
  }

  done(line: RawLine): boolean {
    if (++this.lines > HEAD_LINES || !line.complete) return true;
    const entry = parse(line.text ?? '');
    if (entry === undefined || entry['type'] !== 'user') return false;
    const message = userMessageSchema.safeParse(toSdkMessage(entry, {}));
    if (!message.success) return false;
    if (entry['isSidechain'] === true) {
      if (contentText(message.data.message.content).trim() !== this.first) return false;
      this.found = this.prompts.find((p) => !p.startsWith('/')) ?? this.prompts[0];
      return true;
    }
    const prompt = promptText(message.data);
    if (prompt === undefined) return false;
    if (prompt.trim() === this.first) return true; // the SDK took the person's own prompt
    this.prompts.push(withoutMarkup(prompt));
    return false;
  }
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
