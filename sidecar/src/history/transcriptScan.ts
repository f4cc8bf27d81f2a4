// Pass 1 over a transcript: a few facts per line (its uuid, what it follows, what it is), enough to find the
// conversation to show without keeping any line's content. Also collects what pass 2 needs from lines it may not
// map: which subagent ran under which tool call, goal statuses, how many lines could not be read.
import type { GoalObservation } from '../mapper/background.js';
import { toolKindOf } from '../tools/catalogue.js';
import { parseGoalStatuses } from './goalStatus.js';
import { IdTable, NO_ID, UuidTable } from './idTable.js';
import { LineFacts, type LineFlags, type LineIds, type LineKind } from './lineFacts.js';
import { eachLine } from './transcriptLines.js';

export type { LineKind } from './lineFacts.js';

/** A Task / Agent call of the session, for 1.0.x inline subagents (found by the prompt they were given). */
export interface AgentCall {
  toolUseId: string;
  prompt: string;
  /** The uuid of the line that made the call (its subagent's lines show only when that line is shown). */
  line?: string;
}

export interface TranscriptScan {
  lines: LineFacts;
  /** The lines' uuids (theirs and their parents'), each with its first line: chain.ts follows parents through it. */
  uuids: UuidTable;
  /** How many message ids the lines have (their numbers run below it). */
  messageIds: number;
  /** Tool call id → the agent id whose transcript (agent-<id>.jsonl) is what the call ran. */
  agentOf: Map<string, string>;
  agentCalls: AgentCall[];
  /** Each inline sidechain's root line uuid → its prompt text (1.0.x). */
  sidechainRoots: Map<string, string>;
  goals: GoalObservation[];
  /** Where the lines that could not be read (torn, corrupt) start. */
  unreadableAt: number[];
  /** Just past the last complete line. */
  end: number;
  /** 1.0.x compactions' summary lines (offset) → the line before the compaction (compactedFrom): their only link. */
  compactedFrom: Map<number, string>;
}

interface RawEntry {
  type?: unknown;
  subtype?: unknown;
  uuid?: unknown;
  parentUuid?: unknown;
  logicalParentUuid?: unknown;
  isSidechain?: unknown;
  isMeta?: unknown;
  isCompactSummary?: unknown;
  toolUseResult?: unknown;
  message?: { id?: unknown; content?: unknown };
  content?: unknown;
  attachment?: { type?: unknown };
}

/** A prompt the person sent while Claude was busy: Claude Code files it as a queued_command attachment. */
export function isQueuedPrompt(entry: { type?: unknown; attachment?: { type?: unknown } | undefined }): boolean {
  return entry.type === 'attachment' && entry.attachment?.type === 'queued_command';
}

/** Scans `path` from byte `from` (0: the whole file). */
export async function scanTranscript(path: string, from = 0): Promise<TranscriptScan> {
  const scan: TranscriptScan = {
    lines: new LineFacts(),
    uuids: new UuidTable(),
    messageIds: 0,
    agentOf: new Map(),
    agentCalls: [],
    sidechainRoots: new Map(),
    goals: [],
    unreadableAt: [],
    end: from,
    compactedFrom: new Map(),
  };
  // Message ids matter only as equal or not (chain.ts): their texts go with the scan.
  const messages = new IdTable();
  await eachLine(path, from, (text, offset, end) => {
    scan.end = end;
    scanLine(scan, messages, text, offset);
  });
  scan.messageIds = messages.size;
  return scan;
}

function scanLine(scan: TranscriptScan, messages: IdTable, text: string, offset: number): void {
  if (text.trim() === '') return;
  let entry: RawEntry;
  try {
    entry = JSON.parse(text) as RawEntry;
  } catch {
    scan.unreadableAt.push(offset);
    noteUnreadable(scan, text, offset);
    return;
  }
  if (typeof entry !== 'object' || entry === null) {
    scan.unreadableAt.push(offset);
    return;
  }
  if (text.includes('"goal_status"')) scan.goals.push(...parseGoalStatuses(text));
  noteLine(scan, messages, entry, offset);
}

/**
 * An unreadable line (corrupt mid-line, e.g. a redaction that broke its escapes) still links the conversation: its
 * ids, read from the text, keep the chain through it, so the lines before it are not lost. It is never mapped.
 */
function noteUnreadable(scan: TranscriptScan, text: string, offset: number): void {
  const parent = PARENT_ID.exec(text)?.[1];
  const uuid = OWN_ID.exec(text)?.[1];
  if (uuid === undefined) return;
  const ids = { offset, uuid: scan.uuids.intern(uuid), parent: idOf(scan.uuids, parent), logicalParent: NO_ID, messageId: NO_ID };
  note(scan, ids, { ...NO_FLAGS, kind: 'other', sidechain: /"isSidechain":true/.test(text) });
}

function note(scan: TranscriptScan, ids: LineIds, flags: LineFlags): void {
  const line = scan.lines.push(ids, flags);
  if (ids.uuid !== NO_ID) scan.uuids.noteLine(ids.uuid, line);
}

function idOf(table: Pick<IdTable, 'intern'>, text: string | undefined): number {
  return text !== undefined ? table.intern(text) : NO_ID;
}

// Unescaped keys only (a key inside a string value reads \"uuid\"); the line's own uuid is its first "uuid" key.
const PARENT_ID = /(?<!\\)"parentUuid":"([^"\\]+)"/;
const OWN_ID = /(?<!\\)"uuid":"([^"\\]+)"/;
const NO_FLAGS = { meta: false, command: false, bash: false, caveat: false, localOutput: false, toolResult: false } as const;

function noteLine(scan: TranscriptScan, messages: IdTable, entry: RawEntry, offset: number): void {
  const kind: LineKind = entry.type === 'user' || entry.type === 'assistant' || entry.type === 'system' ? entry.type : isQueuedPrompt(entry) ? 'user' : 'other';
  const text = firstText(entry);
  const uuid = typeof entry.uuid === 'string' && entry.uuid !== '' ? entry.uuid : undefined;
  const parent = typeof entry.parentUuid === 'string' ? entry.parentUuid : undefined;
  const ids = {
    offset,
    uuid: idOf(scan.uuids, uuid),
    parent: idOf(scan.uuids, parent),
    logicalParent: idOf(scan.uuids, typeof entry.logicalParentUuid === 'string' ? entry.logicalParentUuid : compactedFrom(scan, entry, offset)),
    messageId: kind === 'assistant' && typeof entry.message?.id === 'string' ? messages.intern(entry.message.id) : NO_ID,
  };
  const flags: LineFlags = {
    kind,
    sidechain: entry.isSidechain === true,
    meta: entry.isMeta === true,
    command: kind === 'user' && /^\s*(<command-message>[\s\S]*?<\/command-message>\s*)?<command-name>/.test(text),
    bash: kind === 'user' && /^\s*<bash-input>/.test(text),
    caveat: kind === 'user' && entry.isMeta === true && CAVEAT.test(text),
    localOutput: (kind === 'user' && /^\s*<local-command-(stdout|stderr)>/.test(text)) || (kind === 'system' && entry.subtype === 'local_command'),
    toolResult:
      kind === 'user' && Array.isArray(entry.message?.content) && entry.message.content.some((b) => (b as { type?: unknown })?.type === 'tool_result'),
  };
  note(scan, ids, flags);
  if (kind === 'user') noteAgentResult(scan, entry);
  if (kind === 'assistant' && !flags.sidechain) noteAgentCalls(scan, entry, uuid);
  if (flags.sidechain && kind === 'user' && parent === undefined && uuid !== undefined) scan.sidechainRoots.set(uuid, text);
}

/**
 * 1.0.x files a compaction as its summary alone (no compact_boundary), with no parent: the conversation before it
 * is the main-conversation line before it in the file.
 */
function compactedFrom(scan: TranscriptScan, entry: RawEntry, offset: number): string | undefined {
  if (entry.type !== 'user' || entry.isCompactSummary !== true || typeof entry.parentUuid === 'string' || entry.isSidechain === true) return undefined;
  const lines = scan.lines;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines.uuid(i) === NO_ID || lines.sidechain(i) || lines.isOther(i)) continue;
    const uuid = scan.uuids.text(lines.uuid(i));
    scan.compactedFrom.set(offset, uuid);
    return uuid;
  }
  return undefined;
}

const CAVEAT = /^\s*(<local-command-caveat>|Caveat: The messages below were generated by the user while running local commands)/;

/** The text a line starts with (a string content, or its first text block). */
function firstText(entry: RawEntry): string {
  const content = entry.message?.content ?? entry.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const block = content.find((b) => (b as { type?: unknown })?.type === 'text') as { text?: unknown } | undefined;
  return typeof block?.text === 'string' ? block.text : '';
}

/** 2.0.x and later name the agent a Task / Agent call ran in its result's toolUseResult. */
function noteAgentResult(scan: TranscriptScan, entry: RawEntry): void {
  const agentId = (entry.toolUseResult as { agentId?: unknown } | null | undefined)?.agentId;
  if (typeof agentId !== 'string' || agentId === '' || !Array.isArray(entry.message?.content)) return;
  for (const block of entry.message.content as Array<{ type?: unknown; tool_use_id?: unknown }>) {
    if (block?.type === 'tool_result' && typeof block.tool_use_id === 'string') scan.agentOf.set(block.tool_use_id, agentId);
  }
}

function noteAgentCalls(scan: TranscriptScan, entry: RawEntry, line: string | undefined): void {
  if (!Array.isArray(entry.message?.content)) return;
  for (const block of entry.message.content as Array<{ type?: unknown; id?: unknown; name?: unknown; input?: { prompt?: unknown } }>) {
    if (block?.type !== 'tool_use' || typeof block.id !== 'string' || !isAgentTool(block.name)) continue;
    if (typeof block.input?.prompt === 'string')
      scan.agentCalls.push({ toolUseId: block.id, prompt: block.input.prompt, ...(line !== undefined ? { line } : {}) });
  }
}

/** Whether a tool runs a subagent (Task in 1.0.x and 2.0.x, Agent since). */
export function isAgentTool(name: unknown): boolean {
  return typeof name === 'string' && toolKindOf(name) === 'agent';
}
