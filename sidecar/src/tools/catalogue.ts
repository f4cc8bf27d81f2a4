// The one place that knows Claude Code's tools by name (issue 25): a tool use's name and input → what kind of
// call it is, a one-line title, its key detail and the file it touches. The mapper stamps these on tool.started
// and the permission broker on permission.requested, so the console, the CLI and history all branch on
// `toolKind` and print `title`; test/tools/literalScan.test.ts fails if a tool name is spelled anywhere else.
import type { ToolKind } from '../protocol/events.js';
import { assertNever } from '../util/assertNever.js';

/** Claude Code's tool names that Baton treats specially, for the code that must still name one. */
export const TOOL = {
  bash: 'Bash',
  read: 'Read',
  notebookRead: 'NotebookRead',
  write: 'Write',
  edit: 'Edit',
  multiEdit: 'MultiEdit',
  glob: 'Glob',
  grep: 'Grep',
  ls: 'LS',
  toolSearch: 'ToolSearch',
  webFetch: 'WebFetch',
  webSearch: 'WebSearch',
  task: 'Task',
  agent: 'Agent',
  todoWrite: 'TodoWrite',
  taskCreate: 'TaskCreate',
  taskUpdate: 'TaskUpdate',
  askUserQuestion: 'AskUserQuestion',
  exitPlanMode: 'ExitPlanMode',
} as const;
export type ToolName = (typeof TOOL)[keyof typeof TOOL];

/** Every name in TOOL (the literal-scan test's list). */
export const TOOL_NAMES: readonly ToolName[] = Object.values(TOOL);

const KIND_BY_NAME: Readonly<Record<ToolName, ToolKind>> = {
  Bash: 'shell',
  Read: 'read',
  NotebookRead: 'read',
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'edit',
  Glob: 'search',
  Grep: 'search',
  LS: 'search',
  ToolSearch: 'search',
  WebFetch: 'fetch',
  WebSearch: 'fetch',
  Task: 'agent',
  Agent: 'agent',
  TodoWrite: 'plan',
  TaskCreate: 'plan',
  TaskUpdate: 'plan',
  AskUserQuestion: 'question',
  ExitPlanMode: 'plan_exit',
};

/** The plan tools, whose calls the sidecar folds into the checklist (mapper/plan.ts). */
export const PLAN_TOOL_NAMES = [TOOL.todoWrite, TOOL.taskCreate, TOOL.taskUpdate] as const;
export type PlanToolName = (typeof PLAN_TOOL_NAMES)[number];

/** MCP tools are named mcp__<server>__<tool> by the CLI. */
const MCP_NAME = /^mcp__(.+?)__(.+)$/;

/** The catalogue's reading of one tool use. */
export interface ToolDescription {
  toolKind: ToolKind;
  /** One short line a person reads: "Run npm test", "Edit src/a.ts". */
  title: string;
  /** The one field that says most about the call (a command's description, a lookup's target, an agent's brief). */
  detail?: string;
  /** The file the call reads or changes, when it names one. */
  path?: string;
}

/** The kind of a tool by its name alone. */
export function toolKindOf(name: string): ToolKind {
  if (isKnown(name)) return KIND_BY_NAME[name];
  return MCP_NAME.test(name) ? 'mcp' : 'other';
}

export function isPlanToolName(name: string): name is PlanToolName {
  return (PLAN_TOOL_NAMES as readonly string[]).includes(name);
}

/** Whether this call changes a file, so its result carries the file's earlier text (tool.completed.fileBefore). */
export function changesFiles(name: string): boolean {
  const kind = toolKindOf(name);
  return kind === 'write' || kind === 'edit';
}

/** name + input → kind, title, detail and path. Never throws: an input of the wrong shape gets the bare name. */
export function describeTool(name: string, input: unknown): ToolDescription {
  const toolKind = toolKindOf(name);
  const path = text(input, 'file_path') ?? text(input, 'path');
  const detail = detailOf(name, toolKind, input, path);
  return {
    toolKind,
    title: oneLine(titleOf(name, toolKind, input, path)),
    ...(detail !== undefined ? { detail } : {}),
    ...(path !== undefined ? { path } : {}),
  };
}

function titleOf(name: string, kind: ToolKind, input: unknown, path: string | undefined): string {
  switch (kind) {
    case 'shell':
      return withSubject('Run', text(input, 'command'), name);
    case 'read':
      return withSubject('Read', path ?? text(input, 'notebook_path'), name);
    case 'write':
      return withSubject('Write', path, name);
    case 'edit':
      return withSubject('Edit', path, name);
    case 'search':
      return withSubject(name === TOOL.ls ? 'List' : 'Search', lookupSummary(name, input, path), name);
    case 'fetch':
      return withSubject(name === TOOL.webSearch ? 'Search the web for' : 'Fetch', lookupSummary(name, input, path), name);
    case 'agent': {
      const agent = text(input, 'subagent_type');
      return agent !== undefined ? `Agent · ${agent}` : 'Agent';
    }
    case 'plan':
      return 'Update the checklist';
    case 'question':
      return withSubject('Ask', firstQuestion(input), name);
    case 'plan_exit':
      return 'Present a plan';
    case 'mcp': {
      const [, server, tool] = MCP_NAME.exec(name) ?? [];
      return server !== undefined && tool !== undefined ? `${server} · ${tool}` : name;
    }
    case 'other':
      return withSubject(name, otherSubject(input, path), name);
    default:
      return assertNever(kind);
  }
}

function detailOf(name: string, kind: ToolKind, input: unknown, path: string | undefined): string | undefined {
  switch (kind) {
    case 'shell':
    case 'agent':
      return text(input, 'description');
    case 'read':
    case 'search':
    case 'fetch':
      return lookupSummary(name, input, path);
    case 'write':
    case 'edit':
      return path;
    case 'plan':
    case 'question':
    case 'plan_exit':
    case 'mcp':
    case 'other':
      return undefined;
    default:
      return assertNever(kind);
  }
}

/** A lookup's one-line target, as its collapsed card shows it. */
function lookupSummary(name: string, input: unknown, path: string | undefined): string {
  switch (name) {
    case TOOL.read:
      return path ?? '';
    case TOOL.glob:
    case TOOL.grep: {
      const pattern = text(input, 'pattern') ?? '';
      return path !== undefined ? `${pattern} in ${path}` : pattern;
    }
    case TOOL.webFetch:
      return text(input, 'url') ?? '';
    case TOOL.webSearch:
      return `“${text(input, 'query') ?? ''}”`;
    default:
      return path ?? text(input, 'query') ?? '';
  }
}

function firstQuestion(input: unknown): string | undefined {
  const questions = field(input, 'questions');
  return Array.isArray(questions) ? text(questions[0], 'question') : undefined;
}

function otherSubject(input: unknown, path: string | undefined): string | undefined {
  return text(input, 'command') ?? path ?? text(input, 'pattern') ?? text(input, 'url') ?? text(input, 'query');
}

function withSubject(verb: string, subject: string | undefined, name: string): string {
  return subject !== undefined && subject.trim() !== '' ? `${verb} ${subject}` : name;
}

function field(input: unknown, key: string): unknown {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>)[key] : undefined;
}

function text(input: unknown, key: string): string | undefined {
  const value = field(input, key);
  return typeof value === 'string' ? value : undefined;
}

const TITLE_MAX = 200;

/** Titles are one line: whitespace runs fold to a space, long ones end in an ellipsis. */
function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_MAX ? `${flat.slice(0, TITLE_MAX - 1)}…` : flat;
}

function isKnown(name: string): name is ToolName {
  return Object.hasOwn(KIND_BY_NAME, name);
}
