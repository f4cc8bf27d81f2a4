// The lines pass 2 maps (chain.ts wantedLines), by byte offset, and what each is. A long conversation has ~150 k of
// them and pass 2 holds the set for the whole job: sorted offsets in a typed array (a binary search per line read)
// instead of a Map entry per line. Only the few inline subagent lines carry a value of their own (a Map).

/** What pass 2 maps at one line: the conversation's lines, and inline subagent lines under their call. */
export interface Wanted {
  parentToolUseId?: string;
  /** A `<command-name>` line whose output follows (the command ran without the model). */
  localCommand?: boolean;
}

// Shared by every line they describe (read only).
const PLAIN: Wanted = Object.freeze({});
const LOCAL_COMMAND: Wanted = Object.freeze({ localCommand: true });

export class WantedSet {
  /** Each conversation line's offset × 2, plus 1 for a local command: sorted, so one array holds both. */
  private readonly keys: Float64Array;
  private readonly subagent = new Map<number, Wanted>();

  /**
   * `keys`: the conversation's lines, each WantedSet.key (any order; sorted here, in place); `subagent`: inline
   * subagent lines' offsets → their call, which win over a conversation line at the same offset.
   */
  constructor(keys: Float64Array, subagent: ReadonlyMap<number, string>) {
    this.keys = keys.sort();
    for (const [offset, parentToolUseId] of subagent) this.subagent.set(offset, { parentToolUseId });
  }

  static key(offset: number, localCommand: boolean): number {
    return offset * 2 + (localCommand ? 1 : 0);
  }

  has(offset: number): boolean {
    return this.subagent.has(offset) || this.search(offset) >= 0;
  }

  get(offset: number): Wanted | undefined {
    const sub = this.subagent.get(offset);
    if (sub !== undefined) return sub;
    const at = this.search(offset);
    if (at < 0) return undefined;
    return this.keys[at]! % 2 === 1 ? LOCAL_COMMAND : PLAIN;
  }

  /** The index of `offset`'s key, or -1. */
  private search(offset: number): number {
    let lo = 0;
    let hi = this.keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = Math.floor(this.keys[mid]! / 2);
      if (at === offset) return mid;
      if (at < offset) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
