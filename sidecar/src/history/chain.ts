// The conversation a transcript shows: the newest leaf's chain, followed back through parentUuid and, at a
// compaction's boundary (parentUuid null), through logicalParentUuid, so everything before a `/compact` is there.
// A rewind leaves the old branch in the file; it is not on the chain. Also: which 1.0.x inline sidechain lines
// belong to which Task call, and which `<command-name>` lines ran locally.
import type { LineMeta } from './lineMeta.js';
import type { AgentCall, TranscriptScan } from './transcriptScan.js';
import { WantedSet } from './wantedSet.js';

/** The newest main-conversation line: the leaf Claude Code resumes from. */
export function newestLeaf(lines: readonly LineMeta[]): LineMeta | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.uuid !== undefined && !line.sidechain && line.kind !== 'other') return line;
  }
  return undefined;
}

/**
 * The chain from the root to `leaf`, in order. `stopAt`: a uuid the walk ends at (a resume's last mapped line),
 * reported by `reached`.
 */
export function chainTo(scan: Pick<TranscriptScan, 'lines' | 'byUuid'>, leaf: LineMeta, stopAt?: string): { chain: LineMeta[]; reached: boolean } {
  const index = { byUuid: scan.byUuid, byReply: repliesOf(scan.lines) };
  const chain: LineMeta[] = [];
  const seen = new UuidMarks(scan);
  for (let at: LineMeta | undefined = leaf; at !== undefined; ) {
    if (at.uuid === undefined || seen.has(at.uuid)) break;
    if (at.uuid === stopAt) return { chain: chain.reverse(), reached: true };
    seen.add(at.uuid);
    chain.push(at);
    const next: string | undefined = at.parent ?? at.logicalParent;
    if (next !== undefined && next === stopAt) return { chain: chain.reverse(), reached: true };
    at = next !== undefined ? index.byUuid.get(next) : originalOfCopy(chain, index);
  }
  return { chain: chain.reverse(), reached: false };
}

/**
 * A set of uuids as marks on their first lines (a long transcript's chain holds ~150 k: a Set of them was megabytes
 * at pass 1's peak). A uuid no line has is never in it.
 */
class UuidMarks {
  private readonly marks: Uint8Array;
  private readonly byUuid: ReadonlyMap<string, LineMeta>;

  constructor(scan: Pick<TranscriptScan, 'lines' | 'byUuid'>) {
    this.marks = new Uint8Array(scan.lines.length);
    this.byUuid = scan.byUuid;
  }

  has(uuid: string): boolean {
    const line = this.byUuid.get(uuid);
    return line !== undefined && this.marks[line.index] === 1;
  }

  add(uuid: string): void {
    const line = this.byUuid.get(uuid);
    if (line !== undefined) this.marks[line.index] = 1;
  }
}

interface LineIndex {
  byUuid: Map<string, LineMeta>;
  /** The main-conversation lines of each API message id, in file order. */
  byReply: Map<string, LineMeta[]>;
}

function repliesOf(lines: readonly LineMeta[]): Map<string, LineMeta[]> {
  const byReply = new Map<string, LineMeta[]>();
  for (const line of lines) {
    if (line.messageId === undefined || line.sidechain) continue;
    const reply = byReply.get(line.messageId);
    if (reply === undefined) byReply.set(line.messageId, [line]);
    else reply.push(line);
  }
  return byReply;
}

/**
 * 1.0.x, on resume, stores the conversation's replies again from an unlinked root (leaving the prompts out): the
 * copied run (the root and the copies after it, `chain` read from its end) gives way to the originals, and the
 * walk goes on from the original of the last copy. Undefined when the root copies nothing.
 */
function originalOfCopy(chain: LineMeta[], index: LineIndex): LineMeta | undefined {
  const root = chain.at(-1)!;
  const originalOf = (line: LineMeta): LineMeta | undefined =>
    line.messageId === undefined
      ? undefined
      : index.byReply
          .get(line.messageId)
          ?.filter((l) => l.offset < root.offset)
          .at(-1);
  if (originalOf(root) === undefined) return undefined;
  let last = chain.length - 1;
  for (let i = chain.length - 1; i >= 0; i--) {
    if (chain[i]!.messageId === undefined) continue;
    if (originalOf(chain[i]!) === undefined) break;
    last = i;
  }
  const original = originalOf(chain[last]!);
  chain.splice(last);
  return original;
}

/** The lines pass 2 maps, by offset: the chain's messages and the inline subagent lines of its Task calls. */
export function wantedLines(scan: TranscriptScan, chain: readonly LineMeta[]): WantedSet {
  const { lines: withSiblings, on: shown } = withParallelResults(scan, chain);
  const lines = withSiblings.filter((l) => l.kind !== 'other');
  const keys = new Float64Array(lines.length);
  let count = 0;
  lines.forEach((line, i) => {
    if (line.meta) return;
    // Claude Code files its caveat right before a local command (one it ran without the model, e.g. /context);
    // a prompt command (/goal …) has none. A bash-mode command never reaches the model either.
    const localCommand = (line.command && lines[i - 1]?.caveat === true) || line.bash;
    keys[count++] = WantedSet.key(line.offset, localCommand);
  });
  // A subagent's lines show under a call that is shown: not a rewound branch's, nor one after `at`.
  const calls = scan.agentCalls.filter((c) => c.line !== undefined && shown.has(c.line));
  return new WantedSet(keys.subarray(0, count), inlineSidechains(scan, calls));
}

/**
 * The chain with what parallel tool calls hang off it: Claude Code files each call of one reply as a line of its
 * own (same message id) and each result after its own call, so all but one call and result are siblings of the
 * chain, not on it. In file order, with the uuids of all it holds.
 */
function withParallelResults(scan: TranscriptScan, chain: readonly LineMeta[]): { lines: LineMeta[]; on: UuidMarks } {
  const on = new UuidMarks(scan);
  const replies = new Set<string>();
  for (const l of chain) {
    if (l.uuid !== undefined) on.add(l.uuid);
    if (l.messageId !== undefined) replies.add(l.messageId);
  }
  const last = chain.at(-1)?.offset ?? -1;
  const added: LineMeta[] = [];
  const hangsOff = (l: LineMeta) => !l.sidechain && l.uuid !== undefined && !on.has(l.uuid) && l.parent !== undefined && on.has(l.parent) && l.offset < last;
  for (const line of scan.lines) {
    // File order: a sibling's own siblings come after it, so one pass finds them all.
    if (!hangsOff(line) || !(line.toolResult || (line.messageId !== undefined && replies.has(line.messageId)))) continue;
    on.add(line.uuid!);
    added.push(line);
  }
  return { lines: added.length === 0 ? [...chain] : [...chain, ...added].sort((a, b) => a.offset - b.offset), on };
}

/** 1.0.x: sidechain lines (offset → the Task call they ran under), matched to calls by the prompt given. */
function inlineSidechains(scan: TranscriptScan, shownCalls: readonly AgentCall[]): Map<number, string> {
  const out = new Map<number, string>();
  if (scan.sidechainRoots.size === 0) return out;
  const shown = new Set(shownCalls.map((c) => c.toolUseId));
  const callOfRoot = new Map([...matchRoots(scan.sidechainRoots, scan.agentCalls)].filter(([, call]) => shown.has(call)));
  const rootOf = new Map<string, string>();
  const parentOf = new Map(scan.lines.flatMap((l) => (l.uuid !== undefined && l.sidechain ? [[l.uuid, l.parent]] : [])));
  const root = (uuid: string): string => {
    const known = rootOf.get(uuid);
    if (known !== undefined) return known;
    const seen = new Set<string>();
    let at = uuid;
    while (parentOf.get(at) !== undefined && !seen.has(at)) {
      seen.add(at);
      at = parentOf.get(at)!;
    }
    rootOf.set(uuid, at);
    return at;
  };
  for (const line of scan.lines) {
    if (!line.sidechain || line.uuid === undefined || line.meta || line.kind === 'other') continue;
    // The prompt the subagent was given is the call's input; live, the SDK does not send it either.
    if (scan.sidechainRoots.has(line.uuid)) continue;
    const call = callOfRoot.get(root(line.uuid));
    if (call !== undefined) out.set(line.offset, call);
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
