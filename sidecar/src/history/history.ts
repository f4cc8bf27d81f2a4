// A session's transcript, read by the sidecar itself (transcriptReader.ts) and mapped by the same Mapper as live
// messages: the whole conversation through compactions, subagents under their calls, tool_use_result for edits.
//
// Turns in history: there is no live turn. A prompt (see mapper/prompts.ts) maps to turn.started with the
// prompt and its uuid, exactly as live, and its `turn` is that uuid; every later event carries the uuid of
// the prompt that began its turn. Events before the first prompt carry no turn. Live, turn.started reports
// the same uuid under the host's turn id, so a client can line the two up.
// Transcripts hold no stream events or results, so history has no deltas, no usage or turn-end events (a
// Baton-run turn's end comes from its receipt).
import type { GoalObservation } from '../mapper/background.js';
import { Mapper } from '../mapper/mapper.js';
import { promptUuid } from '../mapper/prompts.js';
import { fitTail } from '../protocol/bounds.js';
import type { Event } from '../protocol/events.js';
import type { HistoryPayload, MessageParentPayload, OkPayload, ReceiptEnd } from '../protocol/schemas.js';
import { diag } from '../util/diagnostics.js';
import { transcriptPath } from './goalStatus.js';
import { GoalStage, ReceiptStage, runStage } from './settleStream.js';
import { chainTo, newestLeaf } from './chain.js';
import { NO_ID } from './idTable.js';
import { TranscriptReader } from './transcriptReader.js';
import { scanTranscript } from './transcriptScan.js';
import { isInterruptLine, isUnfinishedReply, markStopped, settleTools } from './settleHistory.js';

/** Each transcript message with the events it maps to, in order. */
export function mapHistoryMessages(messages: readonly unknown[], session: string, now: () => Date): Array<{ message: unknown; events: Event[] }> {
  const mapper = new Mapper(session, now, { transcript: true });
  let turn: string | undefined;
  return messages.map((message) => {
    turn = promptUuid(message) ?? turn;
    return { message, events: mapper.map(message, { turn }) };
  });
}

export function mapHistory(
  messages: readonly unknown[],
  session: string,
  now: () => Date,
  ends: readonly ReceiptEnd[] = [],
  goals: readonly GoalObservation[] = [],
): Event[] {
  const mapped = mapHistoryMessages(messages, session, now);
  // A reply cut off by an interrupt reads stopped, as live (settleHistory.ts).
  const events = mapped.flatMap(({ message, events }, i) =>
    isUnfinishedReply(message) && isInterruptLine(mapped[i + 1]?.message) ? markStopped(events) : events,
  );
  return settleTools(withReceiptEnds(withGoals(events, goals, session, now), ends, session));
}

/** Goal statuses where they were written (settleStream.ts GoalStage). */
export function withGoals(events: readonly Event[], goals: readonly GoalObservation[], session: string, now: () => Date): Event[] {
  return goals.length === 0 ? [...events] : runStage(new GoalStage(goals, session, now), events);
}

/** Each Baton-run turn's end from its receipt (settleStream.ts ReceiptStage). */
export function withReceiptEnds(events: readonly Event[], ends: readonly ReceiptEnd[], session: string): Event[] {
  return ends.length === 0 ? [...events] : runStage(new ReceiptStage(ends, session), events);
}

/** A page of a session's mapped history: positions `start` … `start + events.length - 1` of `total`. */
export interface HistoryPage {
  events: Event[];
  total: number;
  start: number;
}

/** The page of `all` that a request asks for; a page too large for one protocol line keeps its newest events. */
export function pageOf(all: readonly Event[], payload: Pick<HistoryPayload, 'before' | 'limit'>): HistoryPage & { dropped: number } {
  const end = Math.min(payload.before ?? all.length, all.length);
  const start = Math.max(0, end - (payload.limit ?? end));
  const { events, dropped } = fitTail(all.slice(start, end));
  return { events, total: all.length, start: start + dropped, dropped };
}

/**
 * Reads from the sidecar's own CLAUDE_CONFIG_DIR / HOME, the same the CLI children get. Maps the whole transcript
 * for every page (the host's index serves pages without that).
 */
export async function readHistory(payload: HistoryPayload, now: () => Date): Promise<HistoryPage> {
  const file = await transcriptPath(payload.session, payload.cwd);
  const window = new PageWindow(payload);
  if (file !== undefined) {
    const reader = await TranscriptReader.open({ session: payload.session, file, receipts: payload.receipts, at: payload.at }, now);
    for await (const item of reader.items()) window.push(item.event);
  }
  const { dropped, ...page } = window.page();
  if (dropped > 0) diag(`history of ${payload.session}: dropped the ${dropped} oldest events of the page to fit one protocol line`);
  return page;
}

/**
 * The page a request asks for, kept while the events stream past: only the events that may be on it are held (the
 * last `limit` before `before`), so a page of a huge transcript takes the page's memory, not the file's.
 */
export class PageWindow {
  private kept: Event[] = [];
  private count = 0;

  constructor(private readonly payload: Pick<HistoryPayload, 'before' | 'limit'>) {}

  push(event: Event): void {
    const position = this.count++;
    if (this.payload.before !== undefined && position >= this.payload.before) return;
    this.kept.push(event);
    const limit = this.payload.limit;
    if (limit !== undefined && this.kept.length > 2 * limit) this.kept = this.kept.slice(-limit);
  }

  page(): HistoryPage & { dropped: number } {
    const end = Math.min(this.payload.before ?? this.count, this.count);
    const start = Math.max(0, end - (this.payload.limit ?? end));
    const { events, dropped } = fitTail(this.kept.slice(this.kept.length - (end - start)));
    return { events, total: this.count, start: start + dropped, dropped };
  }
}

/**
 * The conversation up to and including message `at` (a session resumed or forked there continues from it); all
 * of it when `at` is not in the conversation.
 */
export function upTo<T>(messages: readonly T[], at: string): T[] {
  const end = messages.findIndex((m) => uuidOf(m) === at);
  return end < 0 ? [...messages] : messages.slice(0, end + 1);
}

/**
 * The message a user message follows: the one before it in the conversation's chain (getSessionMessages follows
 * parentUuid from the newest message). Resuming at it leaves the user message, and all after it, out.
 */
export function parentIn(messages: readonly unknown[], message: string): OkPayload<'message_parent'> {
  const at = messages.findIndex((m) => uuidOf(m) === message);
  if (at < 0) return { found: false };
  const parent = at > 0 ? uuidOf(messages[at - 1]) : undefined;
  return parent !== undefined ? { found: true, parent } : { found: true };
}

/** Reads the conversation's chain itself (chain.ts), so a message before a compaction is found too. */
export async function readMessageParent(payload: MessageParentPayload): Promise<OkPayload<'message_parent'>> {
  const file = await transcriptPath(payload.session, payload.cwd);
  if (file === undefined) return { found: false };
  const scan = await scanTranscript(file);
  const { lines, uuids } = scan;
  const leaf = newestLeaf(lines);
  const chain = leaf !== NO_ID ? chainTo(scan, leaf).chain : [];
  const messages = chain
    .filter((l) => (lines.kind(l) === 'user' || lines.kind(l) === 'assistant') && !lines.meta(l))
    .map((l) => ({ uuid: uuids.text(lines.uuid(l)) }));
  return parentIn(messages, payload.message);
}

function uuidOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const uuid = (message as { uuid?: unknown }).uuid;
  return typeof uuid === 'string' && uuid !== '' ? uuid : undefined;
}
