// What pass 1 keeps of one transcript line (transcriptScan.ts): its ids and what it is. A long transcript has
// ~190 k lines and every one's facts are live until the conversation is found, so they are packed: the kind and
// the flags in one number read through getters (on the prototype, not in each object).

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

export interface LineIds {
  offset: number;
  /** Its place in the scan's lines (chain.ts marks lines in a typed array by it). */
  index: number;
  uuid?: string | undefined;
  parent?: string | undefined;
  /** A compact boundary's link to the message before the compaction (its parentUuid is null). */
  logicalParent?: string | undefined;
  /** An assistant line's API message id (1.0.x may store a reply again, unlinked, when a session resumes). */
  messageId?: string | undefined;
}

const KINDS: readonly LineKind[] = ['user', 'assistant', 'system', 'other'];
const SIDECHAIN = 1 << 2;
const META = 1 << 3;
const COMMAND = 1 << 4;
const BASH = 1 << 5;
const CAVEAT = 1 << 6;
const LOCAL_OUTPUT = 1 << 7;
const TOOL_RESULT = 1 << 8;

export class LineMeta implements LineFlags {
  readonly offset: number;
  readonly index: number;
  readonly uuid: string | undefined;
  readonly parent: string | undefined;
  readonly logicalParent: string | undefined;
  readonly messageId: string | undefined;
  private readonly bits: number;

  constructor(ids: LineIds, flags: LineFlags) {
    this.offset = ids.offset;
    this.index = ids.index;
    this.uuid = ids.uuid;
    this.parent = ids.parent;
    this.logicalParent = ids.logicalParent;
    this.messageId = ids.messageId;
    this.bits =
      KINDS.indexOf(flags.kind) |
      (flags.sidechain ? SIDECHAIN : 0) |
      (flags.meta ? META : 0) |
      (flags.command ? COMMAND : 0) |
      (flags.bash ? BASH : 0) |
      (flags.caveat ? CAVEAT : 0) |
      (flags.localOutput ? LOCAL_OUTPUT : 0) |
      (flags.toolResult ? TOOL_RESULT : 0);
  }

  get kind(): LineKind {
    return KINDS[this.bits & 3]!;
  }
  get sidechain(): boolean {
    return (this.bits & SIDECHAIN) !== 0;
  }
  get meta(): boolean {
    return (this.bits & META) !== 0;
  }
  get command(): boolean {
    return (this.bits & COMMAND) !== 0;
  }
  get bash(): boolean {
    return (this.bits & BASH) !== 0;
  }
  get caveat(): boolean {
    return (this.bits & CAVEAT) !== 0;
  }
  get localOutput(): boolean {
    return (this.bits & LOCAL_OUTPUT) !== 0;
  }
  get toolResult(): boolean {
    return (this.bits & TOOL_RESULT) !== 0;
  }
}
