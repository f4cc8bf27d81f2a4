// What pass 1 keeps of each transcript line (transcriptScan.ts): its ids and what it is. A long transcript has
// ~190 k lines and every one's facts are live until the conversation is found, so they are columns of typed
// arrays by line (grown by doubling), not an object per line: the offset, the kind and flags in 16 bits, and the
// line's uuid, parent, logical parent and message id as numbers from the scan's id tables (idTable.ts).
import { grown, NO_ID } from './idTable.js';

export type LineKind = 'user' | 'assistant' | 'system' | 'other';

/** What a line is, beside its ids. */
export interface LineFlags {
  kind: LineKind;
  sidechain: boolean;
  /** CLI-made context (isMeta): never shown. */
  meta: boolean;
  /** A `<command-name>` user line (Claude Code may put `<command-message>` first). */
  command: boolean;
  /** A bash-mode line (`! cmd`: `<bash-input>`): a command the person ran without the model, no caveat before it. */
  bash: boolean;
  /** Claude Code's caveat before a local command's lines (the command ran without the model). */
  caveat: boolean;
  /** A local command's output (`<local-command-stdout|stderr>`, or a system local_command line). */
  localOutput: boolean;
  /** A user line of tool results (parallel calls' results may hang off the chain as siblings). */
  toolResult: boolean;
}

/** A line's ids, as numbers of the scan's tables (NO_ID: absent). */
export interface LineIds {
  offset: number;
  uuid: number;
  parent: number;
  /** A compact boundary's link to the message before the compaction (its parentUuid is null). */
  logicalParent: number;
  /** An assistant line's API message id (1.0.x may store a reply again, unlinked, when a session resumes). */
  messageId: number;
}

const KINDS: readonly LineKind[] = ['user', 'assistant', 'system', 'other'];
const OTHER = 3;
const SIDECHAIN = 1 << 2;
const META = 1 << 3;
const COMMAND = 1 << 4;
const BASH = 1 << 5;
const CAVEAT = 1 << 6;
const LOCAL_OUTPUT = 1 << 7;
const TOOL_RESULT = 1 << 8;

function pack(flags: LineFlags): number {
  return (
    KINDS.indexOf(flags.kind) |
    (flags.sidechain ? SIDECHAIN : 0) |
    (flags.meta ? META : 0) |
    (flags.command ? COMMAND : 0) |
    (flags.bash ? BASH : 0) |
    (flags.caveat ? CAVEAT : 0) |
    (flags.localOutput ? LOCAL_OUTPUT : 0) |
    (flags.toolResult ? TOOL_RESULT : 0)
  );
}

/** The scan's lines in file order (offsets rise with the line number). */
export class LineFacts {
  private count = 0;
  private offsets = new Float64Array(1024);
  private bits = new Uint16Array(1024);
  private uuids = new Int32Array(1024);
  private parents = new Int32Array(1024);
  private logicalParents = new Int32Array(1024);
  private messageIds = new Int32Array(1024);

  get length(): number {
    return this.count;
  }

  /** Adds a line; its number. */
  push(ids: LineIds, flags: LineFlags): number {
    if (this.count === this.offsets.length) this.grow();
    const line = this.count++;
    this.offsets[line] = ids.offset;
    this.bits[line] = pack(flags);
    this.uuids[line] = ids.uuid;
    this.parents[line] = ids.parent;
    this.logicalParents[line] = ids.logicalParent;
    this.messageIds[line] = ids.messageId;
    return line;
  }

  private grow(): void {
    const offsets = new Float64Array(this.offsets.length * 2);
    offsets.set(this.offsets);
    this.offsets = offsets;
    const bits = new Uint16Array(this.bits.length * 2);
    bits.set(this.bits);
    this.bits = bits;
    this.uuids = grown(this.uuids, this.count);
    this.parents = grown(this.parents, this.count);
    this.logicalParents = grown(this.logicalParents, this.count);
    this.messageIds = grown(this.messageIds, this.count);
  }

  offset(line: number): number {
    return this.offsets[line]!;
  }
  uuid(line: number): number {
    return this.uuids[line]!;
  }
  parent(line: number): number {
    return this.parents[line]!;
  }
  logicalParent(line: number): number {
    return this.logicalParents[line]!;
  }
  messageId(line: number): number {
    return this.messageIds[line]!;
  }
  kind(line: number): LineKind {
    return KINDS[this.bits[line]! & 3]!;
  }
  /** Neither a user, an assistant nor a system line (cheaper than kind() === 'other'). */
  isOther(line: number): boolean {
    return (this.bits[line]! & 3) === OTHER;
  }
  sidechain(line: number): boolean {
    return (this.bits[line]! & SIDECHAIN) !== 0;
  }
  meta(line: number): boolean {
    return (this.bits[line]! & META) !== 0;
  }
  command(line: number): boolean {
    return (this.bits[line]! & COMMAND) !== 0;
  }
  bash(line: number): boolean {
    return (this.bits[line]! & BASH) !== 0;
  }
  caveat(line: number): boolean {
    return (this.bits[line]! & CAVEAT) !== 0;
  }
  localOutput(line: number): boolean {
    return (this.bits[line]! & LOCAL_OUTPUT) !== 0;
  }
  toolResult(line: number): boolean {
    return (this.bits[line]! & TOOL_RESULT) !== 0;
  }
}

export { NO_ID };
