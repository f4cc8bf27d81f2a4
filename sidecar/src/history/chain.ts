// The conversation a transcript shows: the newest leaf's chain, followed back through parentUuid and, at a
// compaction's boundary (parentUuid null), through logicalParentUuid, so everything before a `/compact` is there.
// A rewind leaves the old branch in the file; it is not on the chain. Also: which 1.0.x inline sidechain lines
// belong to which Task call, and which `<command-name>` lines ran locally.
import { NO_ID } from './idTable.js';
import type { LineFacts } from './lineFacts.js';
import type { AgentCall, TranscriptScan } from './transcriptScan.js';
import { WantedSet } from './wantedSet.js';

/** What chain.ts reads of a scan: lines are numbers of `lines`, uuids and message ids numbers of its tables. */
type Scan = Pick<TranscriptScan, 'lines' | 'uuids' | 'messageIds'>;

/** The newest main-conversation line: the leaf Claude Code resumes from (NO_ID: none). */
export function newestLeaf(lines: LineFacts): number {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines.uuid(i) !== NO_ID && !lines.sidechain(i) && !lines.isOther(i)) return i;
  }
  return NO_ID;
}

/** Never an id's number: what `stopAt` is when there is none or no line has it. */
const NEVER = -2;

/**
 * The chain from the root to `leaf`, in order (line numbers). `stopAt`: a uuid the walk ends at (a resume's last
 * mapped line), reported by `reached`.
 */
export function chainTo(scan: Scan, leaf: number, stopAt?: string): { chain: number[]; reached: boolean } {
  const { lines, uuids } = scan;
  const stop = stopAt !== undefined && uuids.find(stopAt) !== NO_ID ? uuids.find(stopAt) : NEVER;
  const replies = new Replies(scan);
  const chain: number[] = [];
  const seen = new Uint8Array(uuids.size);
  for (let at = leaf; at !== NO_ID; ) {
    const uuid = lines.uuid(at);
    if (uuid === NO_ID || seen[uuid] === 1) break;
    if (uuid === stop) return { chain: chain.reverse(), reached: true };
    seen[uuid] = 1;
    chain.push(at);
    const next = lines.parent(at) !== NO_ID ? lines.parent(at) : lines.logicalParent(at);
    if (next === stop) return { chain: chain.reverse(), reached: true };
    at = next !== NO_ID ? uuids.lineOf(next) : originalOfCopy(chain, lines, replies);
  }
  return { chain: chain.reverse(), reached: false };
}

/**
 * The main-conversation lines of each API message id, newest first: made the first time a copy's original is
 * looked for (most chains end at a root that copies nothing).
 */
class Replies {
  private previous: Int32Array | undefined;
  private newest: Int32Array | undefined;

  constructor(private readonly scan: Scan) {}

  /** The last main-conversation line with message id `id` before line `before` (NO_ID: none). */
  lastBefore(id: number, before: number): number {
    if (this.previous === undefined || this.newest === undefined) this.index();
    let line = this.newest![id]!;
    while (line !== NO_ID && line >= before) line = this.previous![line]!;
    return line;
  }

  private index(): void {
    const { lines, messageIds } = this.scan;
    const newest = new Int32Array(messageIds).fill(NO_ID);
    const previous = new Int32Array(lines.length).fill(NO_ID);
    for (let line = 0; line < lines.length; line++) {
      const id = lines.messageId(line);
      if (id === NO_ID || lines.sidechain(line)) continue;
      previous[line] = newest[id]!;
      newest[id] = line;
    }
    this.newest = newest;
    this.previous = previous;
  }
}

/**
 * 1.0.x, on resume, stores the conversation's replies again from an unlinked root (leaving the prompts out): the
 * copied run (the root and the copies after it, `chain` read from its end) gives way to the originals, and the
 * walk goes on from the original of the last copy. NO_ID when the root copies nothing.
 */
function originalOfCopy(chain: number[], lines: LineFacts, replies: Replies): number {
  const root = chain.at(-1)!;
  // Lines are in file order: "before the root in the file" is a smaller line number.
  const originalOf = (line: number): number => (lines.messageId(line) === NO_ID ? NO_ID : replies.lastBefore(lines.messageId(line), root));
  if (originalOf(root) === NO_ID) return NO_ID;
  let last = chain.length - 1;
  for (let i = chain.length - 1; i >= 0; i--) {
    if (lines.messageId(chain[i]!) === NO_ID) continue;
    if (originalOf(chain[i]!) === NO_ID) break;
    last = i;
  }
  const original = originalOf(chain[last]!);
  chain.splice(last);
  return original;
}

/** The lines pass 2 maps, by offset: the chain's messages and the inline subagent lines of its Task calls. */
export function wantedLines(scan: TranscriptScan, chain: readonly number[]): WantedSet {
  const { lines: withSiblings, on: shown } = withParallelResults(scan, chain);
  const facts = scan.lines;
  const lines = withSiblings.filter((l) => !facts.isOther(l));
  const keys = new Float64Array(lines.length);
  let count = 0;
  lines.forEach((line, i) => {
    if (facts.meta(line)) return;
    // Claude Code files its caveat right before a local command (one it ran without the model, e.g. /context);
    // a prompt command (/goal …) has none. A bash-mode command never reaches the model either.
    const localCommand = (facts.command(line) && i > 0 && facts.caveat(lines[i - 1]!)) || facts.bash(line);
    keys[count++] = WantedSet.key(facts.offset(line), localCommand);
  });
  // A subagent's lines show under a call that is shown: not a rewound branch's, nor one after `at`.
  const calls = scan.agentCalls.filter((c) => c.line !== undefined && isMarked(shown, scan.uuids.find(c.line)));
  return new WantedSet(keys.subarray(0, count), inlineSidechains(scan, calls));
}

/** Whether uuid `id` is marked in `marks` (a set of uuids as a byte by uuid number). */
function isMarked(marks: Uint8Array, id: number): boolean {
  return id !== NO_ID && marks[id] === 1;
}

/**
 * The chain with what parallel tool calls hang off it: Claude Code files each call of one reply as a line of its
 * own (same message id) and each result after its own call, so all but one call and result are siblings of the
 * chain, not on it. In file order, with the uuids of all it holds.
 */
function withParallelResults(scan: Scan, chain: readonly number[]): { lines: number[]; on: Uint8Array } {
  const { lines } = scan;
  const on = new Uint8Array(scan.uuids.size);
  const replies = new Uint8Array(scan.messageIds);
  for (const l of chain) {
    if (lines.uuid(l) !== NO_ID) on[lines.uuid(l)] = 1;
    if (lines.messageId(l) !== NO_ID) replies[lines.messageId(l)] = 1;
  }
  const last = chain.length > 0 ? lines.offset(chain.at(-1)!) : -1;
  const added: number[] = [];
  const hangsOff = (l: number) =>
    !lines.sidechain(l) && lines.uuid(l) !== NO_ID && !isMarked(on, lines.uuid(l)) && isMarked(on, lines.parent(l)) && lines.offset(l) < last;
  for (let line = 0; line < lines.length; line++) {
    // File order: a sibling's own siblings come after it, so one pass finds them all.
    if (!hangsOff(line) || !(lines.toolResult(line) || isMarked(replies, lines.messageId(line)))) continue;
    on[lines.uuid(line)] = 1;
    added.push(line);
  }
  // Line numbers rise with the offset: sorted by number is in file order.
  return { lines: added.length === 0 ? [...chain] : [...chain, ...added].sort((a, b) => a - b), on };
}

/** 1.0.x: sidechain lines (offset → the Task call they ran under), matched to calls by the prompt given. */
function inlineSidechains(scan: TranscriptScan, shownCalls: readonly AgentCall[]): Map<number, string> {
  const out = new Map<number, string>();
  if (scan.sidechainRoots.size === 0) return out;
  const shown = new Set(shownCalls.map((c) => c.toolUseId));
  const { lines, uuids } = scan;
  const callOfRoot = new Map<number, string>();
  for (const [root, call] of matchRoots(scan.sidechainRoots, scan.agentCalls)) if (shown.has(call)) callOfRoot.set(uuids.find(root), call);
  const roots = new Set([...scan.sidechainRoots.keys()].map((root) => uuids.find(root)));
  // Each sidechain uuid's parent (its last line's, as a Map filled in file order would hold).
  const parentOf = new Int32Array(uuids.size).fill(NO_ID);
  for (let line = 0; line < lines.length; line++) if (lines.uuid(line) !== NO_ID && lines.sidechain(line)) parentOf[lines.uuid(line)] = lines.parent(line);
  const rootOf = new Map<number, number>();
  const root = (uuid: number): number => {
    const known = rootOf.get(uuid);
    if (known !== undefined) return known;
    const seen = new Set<number>();
    let at = uuid;
    while (parentOf[at] !== NO_ID && !seen.has(at)) {
      seen.add(at);
      at = parentOf[at]!;
    }
    rootOf.set(uuid, at);
    return at;
  };
  for (let line = 0; line < lines.length; line++) {
    const uuid = lines.uuid(line);
    if (!lines.sidechain(line) || uuid === NO_ID || lines.meta(line) || lines.isOther(line)) continue;
    // The prompt the subagent was given is the call's input; live, the SDK does not send it either.
    if (roots.has(uuid)) continue;
    const call = callOfRoot.get(root(uuid));
    if (call !== undefined) out.set(lines.offset(line), call);
  }
  return out;
}

/** Each sidechain root's Task call: the first call not yet matched whose prompt is the root's text. */
function matchRoots(roots: ReadonlyMap<string, string>, calls: readonly AgentCall[]): Map<string, string> {
  const used = new Set<string>();
  const out = new Map<string, string>();
  for (const [root, prompt] of roots) {
    const call = calls.find((c) => !used.has(c.toolUseId) && c.prompt.trim() === prompt.trim());
    if (call === undefined) continue; // Claude Code's warm-up sidechains run under no call
    used.add(call.toolUseId);
    out.set(root, call.toolUseId);
  }
  return out;
}
