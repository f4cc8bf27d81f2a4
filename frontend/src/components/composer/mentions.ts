// An @-mention being typed: the "@" starts a word (line start or after a space) and the caret is inside it, with
// no space typed yet. Picking a path replaces the word; a path holding spaces is quoted as Claude Code reads it.

export interface MentionToken {
  /** Where the "@" is. */
  start: number;
  /** Where the word ends (the caret). */
  end: number;
  /** What was typed after the "@". */
  query: string;
}

export function mentionAt(text: string, caret: number): MentionToken | undefined {
  let i = caret;
  while (i > 0 && !/\s/.test(text[i - 1] ?? '')) i--;
  if (text[i] !== '@') return undefined;
  const query = text.slice(i + 1, caret);
  if (query.startsWith('"')) return undefined; // an already quoted mention
  return { start: i, end: caret, query };
}

/** The text of a mention of path (a folder ends in "/"). */
export function mentionText(path: string, dir: boolean): string {
  const shown = dir ? `${path}/` : path;
  return /\s/.test(shown) ? `@"${shown}"` : `@${shown}`;
}

/**
 * The text with the token replaced by a mention of path, and where the caret goes: after a space for a file,
 * right after the "/" for a folder, so the picker stays open inside it.
 */
export function insertMention(text: string, token: MentionToken, path: string, dir: boolean): { text: string; caret: number } {
  const mention = mentionText(path, dir);
  const keepOpen = dir && !mention.endsWith('"');
  const rest = text.slice(token.end);
  const sep = keepOpen || rest.startsWith(' ') ? '' : ' ';
  const inserted = `${mention}${sep}`;
  return { text: text.slice(0, token.start) + inserted + rest, caret: token.start + inserted.length + (sep === '' && !keepOpen ? 1 : 0) };
}

/** Mentions of files dropped or picked (paths relative to the session's folder), joined to add to a prompt. */
export function mentionsOf(paths: readonly string[]): string {
  return paths.map((p) => mentionText(p, false)).join(' ');
}
