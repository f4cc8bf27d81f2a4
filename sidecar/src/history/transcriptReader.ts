// A session's transcript read by the sidecar itself and mapped by the one mapper, in two passes with bounded
// memory: pass 1 (transcriptScan.ts) keeps a few facts per line to find the conversation (chain.ts); pass 2 reads
// the file again, decodes only that conversation's lines and maps them in order, each subagent's lines right
// after the call that ran them (subagents.ts), and settles what the transcript leaves open (settleStream.ts).
import type { GoalObservation } from '../mapper/background.js';
import { Mapper, type MapperSnapshot } from '../mapper/mapper.js';
import { promptUuid } from '../mapper/prompts.js';
import type { Event } from '../protocol/events.js';
import type { ReceiptEnd, TranscriptResume } from '../protocol/schemas.js';
import { collectWhileReading } from './heap.js';
import { chainTo, newestLeaf, wantedLines } from './chain.js';
import { isInterruptLine, isUnfinishedReply, markStopped } from './settleHistory.js';
import { GoalStage, type Item, pipeline, ReceiptStage, receiptTurnEnds, type Stage, ToolStage } from './settleStream.js';
import { findSubagents, type SubagentFiles } from './subagents.js';
import { ReplyDedup, toSdkMessage } from './transcriptEntry.js';
import type { WantedSet } from './wantedSet.js';
import { fileSize, readLines } from './transcriptLines.js';
import { NO_ID } from './idTable.js';
import { isAgentTool, scanTranscript, type TranscriptScan } from './transcriptScan.js';

export interface TranscriptSource {
  session: string;
  /** The session's .jsonl. */
  file: string;
  receipts?: readonly ReceiptEnd[] | undefined;
  /** Continue a job from a resume point it returned, when the file only grew. */
  resume?: { offset: number; state: unknown } | undefined;
  /** Only the conversation up to and including this message uuid. */
  at?: string | undefined;
  /** Goal statuses from elsewhere (tests); by default those in the file. */
  goals?: readonly GoalObservation[];
}

/** The state a resume point carries (small JSON: no message is in it). */
interface ResumeState {
  /** The prompt the resume point is at (the line at its offset) and the chain entry before it. */
  prompt: string;
  leaf?: string;
  unreadable: number;
  mapper: MapperSnapshot;
}

/** A line's links to the entry before it (transcriptScan.ts reads the same). */
interface LinkFields {
  parentUuid?: unknown;
  logicalParentUuid?: unknown;
}

/** Subagents nested deeper than this are not followed (a cycle of agent files would never end). */
const MAX_AGENT_DEPTH = 4;

export class TranscriptReader {
  private readonly mapper: Mapper;
  private readonly dedup = new ReplyDedup();
  private readonly settle: Stage;
  private turn: string | undefined;
  private yielded = 0;
  private progress = 0;
  private resumeAt: { offset: number; state: ResumeState; items: number } | undefined;
  /** The resume point of the last prompt seen, placed when its turn.started comes out of the settling. */
  private pendingResume: { prompt: string; offset: number; state: ResumeState } | undefined;
  private held: { message: Record<string, unknown>; items: Item[] } | undefined;
  /** The time of the last event out: what history adds at the end is stamped with it, so a re-read is the same. */
  private lastTime: string | undefined;
  /** Of pass 1, only what pass 2 reads: the facts of every line are dropped once the conversation is found. */
  private readonly end: number;
  private readonly unreadableAt: readonly number[];
  private readonly compactedFrom: ReadonlyMap<number, string>;

  private constructor(
    private readonly source: TranscriptSource,
    scan: TranscriptScan,
    private readonly wanted: WantedSet,
    private readonly agents: SubagentFiles,
    private readonly from: number,
    private readonly start: { unreadable: number; snapshot?: MapperSnapshot },
    readonly bytesTotal: number,
    readonly restarted: boolean,
    private readonly now: () => Date,
  ) {
    this.end = scan.end;
    this.compactedFrom = scan.compactedFrom;
    this.unreadableAt = scan.unreadableAt;
    // Each message is its line's own JSON.parse output (toSdkMessage): nothing to copy.
    this.mapper = new Mapper(source.session, now, { transcript: true, ownJson: true });
    if (start.snapshot !== undefined) this.mapper.restore(start.snapshot);
    this.settle = pipeline([
      new GoalStage(source.goals ?? scan.goals, source.session, now),
      new ReceiptStage(source.receipts ?? [], source.session),
      new ToolStage(receiptTurnEnds(source.receipts ?? [], source.session), 'session_ended'),
    ]);
  }

  /** Pass 1: finds the conversation (from the resume point when it still continues the file). */
  static async open(source: TranscriptSource, now: () => Date): Promise<TranscriptReader> {
    const size = (await fileSize(source.file)) ?? 0;
    const resumed = source.resume !== undefined ? await TranscriptReader.tryResume(source, size, now) : undefined;
    if (resumed !== undefined) return resumed;
    const scan = await scanTranscript(source.file, 0);
    const leaf = newestLeaf(scan.lines);
    const chain = leaf !== NO_ID ? upToMessage(scan, chainTo(scan, leaf).chain, source.at) : [];
    const agents = await findSubagents(source.file, scan.agentOf);
    const wanted = wantedLines(scan, chain);
    const restarted = source.resume !== undefined;
    return new TranscriptReader(source, scan, wanted, agents, 0, { unreadable: 0 }, size, restarted, now);
  }

  private static async tryResume(source: TranscriptSource, size: number, now: () => Date): Promise<TranscriptReader | undefined> {
    const { offset, state } = source.resume!;
    const resume = state as Partial<ResumeState> | null;
    if (size < offset || typeof resume?.prompt !== 'string' || resume.mapper === undefined) return undefined;
    const scan = await scanTranscript(source.file, offset);
    if (!hasUuid(scan, 0, resume.prompt)) return undefined; // rewritten: the prompt is not where it was
    const leaf = newestLeaf(scan.lines);
    if (leaf === NO_ID) return undefined;
    const { chain, reached } = chainTo(scan, leaf, resume.leaf);
    // The appended lines must continue the conversation from the resume point (a rewind branched it otherwise).
    if (resume.leaf !== undefined ? !reached : chain.length === 0 || !hasUuid(scan, chain[0]!, resume.prompt)) return undefined;
    const agents = await findSubagents(source.file, scan.agentOf);
    const wanted = wantedLines(scan, upToMessage(scan, chain, source.at));
    const start = { unreadable: resume.unreadable ?? 0, snapshot: resume.mapper };
    return new TranscriptReader(source, scan, wanted, agents, offset, start, size, false, now);
  }

  /** How far pass 2 has read. */
  get bytesRead(): number {
    return this.progress;
  }

  /** The resume point after the last prompt, once every item was read. */
  get resume(): TranscriptResume | undefined {
    const at = this.resumeAt;
    // Made plain JSON once, when asked for: the snapshot is a copy already (a JSON copy at every prompt was not free).
    return at !== undefined ? { offset: at.offset, state: JSON.parse(JSON.stringify(at.state)) as TranscriptResume['state'], items: at.items } : undefined;
  }

  /**
   * Pass 2: the conversation's items in order, settled. Each line's items are worked out at once, in a plain
   * array; only reading (the file's lines, a subagent's file) waits: resuming five async generators per item was
   * ~9 % of the 120 MB bench's profile.
   */
  async *items(): AsyncGenerator<Item> {
    const collect = collectWhileReading(this.end - this.from);
    for await (const line of readLines(this.source.file, this.from, (offset) => this.wanted.has(offset))) {
      // Lines appended since pass 1 wait for the next job (pass 1 did not see them).
      if (!line.complete || line.offset >= this.end) break;
      this.progress = line.end;
      collect(line.end - this.from);
      if (line.text === undefined) continue;
      const read = this.messageAt(line.text, line.offset);
      if (read === undefined) continue;
      const out: Item[] = [];
      const calls = this.mapLine(read.message, line.offset, read.leaf, out);
      for (const item of out) yield item;
      if (calls.length > 0) for await (const items of this.follow(calls, 0)) for (const item of items) yield item;
    }
    this.progress = Math.max(this.progress, this.end);
    const out: Item[] = [];
    this.flushHeld(out);
    for (const item of this.settle.end()) this.emit(item, out);
    const unreadable = this.start.unreadable + this.unreadableAt.length;
    if (unreadable > 0) this.emit({ event: this.stamp({ kind: 'transcript.unreadable', lines: unreadable }) }, out);
    for (const item of out) yield item;
  }

  /**
   * Puts an item out, in order. The resume point is noted here, as the item is made: every item made is yielded
   * before the job is done, and the resume point is read only then.
   */
  private emit(item: Item, out: Item[]): void {
    this.lastTime = item.event.time;
    const pending = this.pendingResume;
    if (pending !== undefined && item.event.kind === 'turn.started' && item.event.uuid === pending.prompt) {
      // Everything before the prompt's turn.started stays (the settling it set off belongs to the turn before).
      this.resumeAt = { offset: pending.offset, state: pending.state, items: this.yielded };
      this.pendingResume = undefined;
    }
    this.yielded++;
    out.push(item);
  }

  /** The line's message, and the entry before it (what pass 1 followed back from it: chain.ts chainTo). */
  private messageAt(text: string, offset: number): { message: Record<string, unknown>; leaf: string | undefined } | undefined {
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      return undefined; // counted in pass 1
    }
    if (typeof entry !== 'object' || entry === null) return undefined;
    const leaf = this.leafOf(entry as LinkFields, offset);
    const message = toSdkMessage(entry, this.wanted.get(offset) ?? {});
    const kept = message !== undefined ? this.dedup.filter(message) : undefined;
    return kept !== undefined ? { message: kept, leaf } : undefined;
  }

  /**
   * The parent pass 1 noted for the line (its parent ?? logical parent), read off the line again: keeping it
   * from pass 1 for every wanted line held a string per line for the whole job.
   */
  private leafOf(entry: LinkFields, offset: number): string | undefined {
    if (typeof entry.parentUuid === 'string') return entry.parentUuid;
    if (typeof entry.logicalParentUuid === 'string') return entry.logicalParentUuid;
    return this.compactedFrom.get(offset);
  }

  /**
   * One conversation line's items, with the resume point noted at a prompt; returns the Agent / Task calls it
   * made, whose subagents' items come next (follow).
   */
  private mapLine(message: Record<string, unknown>, offset: number, leaf: string | undefined, out: Item[]): readonly string[] {
    const prompt = promptUuid(message);
    if (prompt !== undefined || message['localCommand'] === true) this.flushHeld(out);
    if (prompt !== undefined) this.notePrompt(prompt, offset, leaf);
    return this.mapMessage(message, prompt, out);
  }

  private notePrompt(prompt: string, offset: number, leaf: string | undefined): void {
    const state: ResumeState = {
      prompt,
      ...(leaf !== undefined ? { leaf } : {}),
      unreadable: this.start.unreadable + this.unreadableAt.filter((at) => at < offset).length,
      mapper: this.mapper.snapshot(),
    };
    this.pendingResume = { prompt, offset, state };
  }

  /**
   * Maps a message, putting out the items of the one held before it. `prompt` is the message's promptUuid, worked
   * out once by the caller (a schema check per line is not free). Returns the Agent / Task calls it made.
   */
  private mapMessage(message: Record<string, unknown>, prompt: string | undefined, out: Item[]): readonly string[] {
    this.turn = prompt ?? (message['localCommand'] === true ? uuidOf(message) : undefined) ?? this.turn;
    // A system line (a boundary, a command's output) is no message to resume or fork at: its items carry no uuid,
    // so the index's message parent is the user or assistant message before, as readMessageParent's.
    const uuid = message['type'] === 'system' ? undefined : uuidOf(message);
    const events = this.mapper.map(message, { turn: this.turn });
    const items: Item[] = events.map((event) => (uuid !== undefined ? { uuid, event } : { event }));
    const held = this.held;
    this.held = { message, items };
    // A reply cut off by an interrupt reads stopped, as live (settleHistory.ts).
    if (held !== undefined) this.settled(isUnfinishedReply(held.message) && isInterruptLine(message) ? stopped(held.items) : held.items, out);
    return agentCalls(message);
  }

  /** The subagents the calls of a message at `depth` ran, each one's items in a batch per line. */
  private async *follow(calls: readonly string[], depth: number): AsyncGenerator<Item[]> {
    for (const call of calls) {
      // Looked up as each is reached: a subagent mapped before may have found nested ones.
      const file = this.agents.get(call);
      if (file !== undefined && depth < MAX_AGENT_DEPTH) yield* this.mapSubagent(file, call, depth + 1);
    }
  }

  /** A subagent's transcript, each of its lines under the call that ran it. */
  private async *mapSubagent(file: string, parentToolUseId: string, depth: number): AsyncGenerator<Item[]> {
    const scan = await scanTranscript(file, 0);
    const nested = await findSubagents(this.source.file, scan.agentOf);
    for (const [call, path] of nested) if (!this.agents.has(call)) this.agents.set(call, path);
    for await (const line of readLines(file, 0)) {
      if (!line.complete || line.text === undefined) continue;
      const message = this.subagentMessage(line.text, parentToolUseId);
      if (message === undefined) continue;
      const out: Item[] = [];
      const calls = this.mapMessage(message, promptUuid(message), out);
      yield out;
      if (calls.length > 0) yield* this.follow(calls, depth);
    }
  }

  private subagentMessage(text: string, parentToolUseId: string): Record<string, unknown> | undefined {
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof entry !== 'object' || entry === null) return undefined;
    const { type, parentUuid } = entry as { type?: unknown; parentUuid?: unknown };
    if (type !== 'user' && type !== 'assistant') return undefined;
    // The prompt the subagent was given is the call's input; live, the SDK does not send it either.
    if (type === 'user' && (parentUuid === null || parentUuid === undefined)) return undefined;
    const message = toSdkMessage(entry, { parentToolUseId });
    return message !== undefined ? this.dedup.filter(message) : undefined;
  }

  private flushHeld(out: Item[]): void {
    const held = this.held;
    this.held = undefined;
    if (held !== undefined) this.settled(held.items, out);
  }

  private settled(items: readonly Item[], out: Item[]): void {
    for (const item of items) for (const settled of this.settle.push(item)) this.emit(settled, out);
  }

  private stamp(body: { kind: 'transcript.unreadable'; lines: number }): Event {
    return { ...body, session: this.source.session, time: this.lastTime ?? this.now().toISOString(), ...(this.turn !== undefined ? { turn: this.turn } : {}) };
  }
}

function stopped(items: readonly Item[]): Item[] {
  const events = markStopped(items.map((i) => i.event));
  return items.map((item, i) => ({ ...item, event: events[i]! }));
}

const NO_CALLS: readonly string[] = [];

/** The ids of the Agent / Task calls a message makes (no array made for the many that make none). */
function agentCalls(message: Record<string, unknown>): readonly string[] {
  if (message['type'] !== 'assistant') return NO_CALLS;
  const content = (message['message'] as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return NO_CALLS;
  let calls: string[] | undefined;
  for (const b of content as Array<{ type?: unknown; id?: unknown; name?: unknown } | null>) {
    if (b?.type !== 'tool_use' || typeof b.id !== 'string' || !isAgentTool(b.name)) continue;
    calls ??= [];
    calls.push(b.id);
  }
  return calls ?? NO_CALLS;
}

function upToMessage(scan: TranscriptScan, chain: number[], at: string | undefined): number[] {
  if (at === undefined) return chain;
  const end = chain.findIndex((l) => hasUuid(scan, l, at));
  return end < 0 ? chain : chain.slice(0, end + 1);
}

/** Whether line `line` of the scan is there and has uuid `uuid`. */
function hasUuid(scan: TranscriptScan, line: number, uuid: string): boolean {
  return line < scan.lines.length && scan.lines.uuid(line) !== NO_ID && scan.lines.uuid(line) === scan.uuids.find(uuid);
}

function uuidOf(message: Record<string, unknown>): string | undefined {
  const uuid = message['uuid'];
  return typeof uuid === 'string' && uuid !== '' ? uuid : undefined;
}
