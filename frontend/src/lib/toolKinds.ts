// What the console may do with a tool call, by its kind (the sidecar's tool catalogue names the kind; the console
// never matches a tool's name). One row per kind, so a new kind fails type-checking here until it is decided.
import type { ToolKind } from '../protocol/events';

export interface ToolKindFacts {
  /** Writes a file: the card diffs it, and the transcript tracks the file's text after it. */
  changesFiles: boolean;
  /** Claude Code can move its running work to the background (Ctrl+B in its terminal). */
  backgroundable: boolean;
  /** Looks something up: a collapsed one-line card, output on request. */
  lookup: boolean;
  /** Asks the person (a question, a plan) rather than asking permission for a tool. */
  asksPerson: boolean;
}

const NONE: ToolKindFacts = { changesFiles: false, backgroundable: false, lookup: false, asksPerson: false };

export const TOOL_KIND_FACTS: Readonly<Record<ToolKind, ToolKindFacts>> = {
  shell: { ...NONE, backgroundable: true },
  read: { ...NONE, lookup: true },
  search: { ...NONE, lookup: true },
  fetch: { ...NONE, lookup: true },
  write: { ...NONE, changesFiles: true },
  edit: { ...NONE, changesFiles: true },
  agent: { ...NONE, backgroundable: true },
  plan: NONE,
  question: { ...NONE, asksPerson: true },
  plan_exit: { ...NONE, asksPerson: true },
  mcp: NONE,
  other: NONE,
};

/** The kinds whose calls change a file. */
export type FileToolKind = 'write' | 'edit';

export function isFileKind(kind: ToolKind): kind is FileToolKind {
  return TOOL_KIND_FACTS[kind].changesFiles;
}
