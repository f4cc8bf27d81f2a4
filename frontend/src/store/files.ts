// File-changing tools (kinds write and edit): which path they touch and the text they leave, so a tool card
// can show its diff against the file's text before it ran (starting from `fileBefore`, the text before the
// session first changed the file).
import type { Json } from '../protocol/events';
import type { FileToolKind } from '../lib/toolKinds';

function field(input: Json, name: string): Json | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  return input[name];
}

export function stringField(input: Json, name: string): string | undefined {
  const value = field(input, name);
  return typeof value === 'string' ? value : undefined;
}

export function filePath(input: Json): string | undefined {
  return stringField(input, 'file_path') ?? stringField(input, 'path');
}

interface Replacement {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

function replacement(value: Json | undefined): Replacement | undefined {
  if (value === undefined) return undefined;
  const oldString = stringField(value, 'old_string');
  const newString = stringField(value, 'new_string');
  if (oldString === undefined || newString === undefined) return undefined;
  return { oldString, newString, replaceAll: field(value, 'replace_all') === true };
}

// An edit is one replacement (old_string → new_string) or, with `edits`, several in order.
function replacements(input: Json): Replacement[] | undefined {
  const edits = field(input, 'edits');
  if (edits === undefined) {
    const one = replacement(input);
    return one === undefined ? undefined : [one];
  }
  if (!Array.isArray(edits)) return undefined;
  const out: Replacement[] = [];
  for (const edit of edits) {
    const one = replacement(edit);
    if (one === undefined) return undefined;
    out.push(one);
  }
  return out;
}

/**
 * The text the tool leaves, given the text before it (null: no file). Undefined when it cannot be known:
 * an edit of a file whose text the session never saw, or an old string that is not there.
 */
export function textAfter(kind: FileToolKind, input: Json, before: string | null | undefined): string | undefined {
  if (kind === 'write') return stringField(input, 'content');
  if (before === undefined || before === null) return undefined;
  const edits = replacements(input);
  if (edits === undefined) return undefined;
  let text = before;
  for (const edit of edits) {
    if (!text.includes(edit.oldString)) return undefined;
    text = edit.replaceAll ? text.split(edit.oldString).join(edit.newString) : text.replace(edit.oldString, () => edit.newString);
  }
  return text;
}

/** The two texts to diff for a card: the file around the change when known, else the change alone. */
export function diffTexts(kind: FileToolKind, input: Json, before: string | null | undefined): { before: string; after: string; whole: boolean } {
  const after = textAfter(kind, input, before);
  if (after !== undefined) return { before: before ?? '', after, whole: true };
  const edits = replacements(input) ?? [];
  return {
    before: edits.map((e) => e.oldString).join('\n…\n'),
    after: edits.map((e) => e.newString).join('\n…\n'),
    whole: false,
  };
}
