// A session's transcript (getSessionMessages) mapped by the same Mapper as live messages.
//
// Turns in history: there is no live turn. A prompt (see mapper/prompts.ts) maps to turn.started with the
// prompt and its uuid, exactly as live, and its `turn` is that uuid; every later event carries the uuid of
// the prompt that began its turn. Events before the first prompt carry no turn. Live, turn.started reports
// the same uuid under the host's turn id, so a client can line the two up.
// Transcripts hold no stream events, results, system messages or tool_use_result, so history has no deltas,
// no usage or turn-end events, and tool.completed carries no `structured` / `fileBefore`.
import { getSessionMessages } from '@anthropic-ai/claude-agent-sdk';
import type { GoalObservation } from '../mapper/background.js';
import { Mapper } from '../mapper/mapper.js';
import { promptUuid } from '../mapper/prompts.js';
import { fitTail } from '../protocol/bounds.js';
import type { Event } from '../protocol/events.js';
import type { HistoryPayload, MessageParentPayload, OkPayload, ReceiptEnd } from '../protocol/schemas.js';
import { assertNever } from '../util/assertNever.js';
import { diag } from '../util/diagnostics.js';
import { readGoalStatuses } from './goalStatus.js';
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

/**
 * Puts each goal status where it was written (by time, in the turn of the event before it), and a goal's clear
 * after the `/goal clear` turn, as the live session reports them.
 */
export function withGoals(events: readonly Event[], goals: readonly GoalObservation[], session: string, now: () => Date): Event[] {
  if (goals.length === 0) return [...events];
  const mapper = new Mapper(session, now, { transcript: true });
  const pending = [...goals].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  const out: Event[] = [];
  let turn: string | undefined;
  let clearing = false;
  const flushUntil = (time: number) => {
    while (pending.length > 0 && Date.parse(pending[0]!.timestamp) <= time) {
      out.push(...mapper.goalObserved([pending.shift()!], { turn }));
    }
  };
  const endTurn = () => {
    if (clearing) out.push(...mapper.goalTurnEnded({ turn }));
    clearing = false;
  };
  for (const event of events) {
    flushUntil(Date.parse(event.time));
    if (event.kind === 'turn.started') {
      endTurn();
      turn = event.turn;
      mapper.notePromptText(event.prompt);
      clearing = /^\/goal\s+clear\s*$/i.test(event.prompt.trim());
    }
    out.push(event);
  }
  flushUntil(Number.POSITIVE_INFINITY);
  endTurn();
  return out;
}

/**
 * Puts each Baton-run turn's end, as its receipt says, after the turn's last event (a transcript has no results):
 * a turn that was running when Baton died reads turn.failed {code: host_exited}.
 */
export function withReceiptEnds(events: readonly Event[], ends: readonly ReceiptEnd[], session: string): Event[] {
  if (ends.length === 0) return [...events];
  const byMessage = new Map(ends.map((e) => [e.providerMessage, e]));
  const out: Event[] = [];
  let open: ReceiptEnd | undefined;
  let openTurn: string | undefined;
  const close = () => {
    if (open !== undefined && openTurn !== undefined) out.push(receiptEvent(open, openTurn, session));
    open = undefined;
  };
  for (const event of events) {
    if (event.kind === 'turn.started') {
      close();
      open = event.uuid !== undefined ? byMessage.get(event.uuid) : undefined;
      openTurn = event.turn;
    }
    out.push(event);
  }
  close();
  return out;
}

function receiptEvent(end: ReceiptEnd, turn: string, session: string): Event {
  const common = { session, turn, time: end.endedAt };
  switch (end.outcome) {
    case 'completed':
      return { kind: 'turn.completed', ...common, durationMs: end.durationMs ?? 0, numTurns: 0, costUsd: end.costUsd ?? 0 };
    case 'canceled':
      return { kind: 'turn.canceled', ...common, disposition: 'provider_active', ...(end.forced !== undefined ? { forced: end.forced } : {}) };
    case 'failed': {
      const code = end.code ?? 'sdk_error';
      return { kind: 'turn.failed', ...common, code, message: code === 'host_exited' ? HOST_EXITED_MESSAGE : `The turn failed (${code})` };
    }
    default:
      return assertNever(end.outcome);
  }
}

const HOST_EXITED_MESSAGE = 'Baton stopped while this turn ran; it was cut off';

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
 * Reads from the sidecar's own CLAUDE_CONFIG_DIR / HOME, the same the CLI children get.
 */
export async function readHistory(payload: HistoryPayload, now: () => Date): Promise<HistoryPage> {
  const all = await getSessionMessages(payload.session, payload.cwd !== undefined ? { dir: payload.cwd } : {});
  const messages = payload.at !== undefined ? upTo(all, payload.at) : all;
  const goals = await readGoalStatuses(payload.session);
  const { dropped, ...page } = pageOf(mapHistory(messages, payload.session, now, payload.receipts, goals), payload);
  if (dropped > 0) diag(`history of ${payload.session}: dropped the ${dropped} oldest events of the page to fit one protocol line`);
  return page;
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

export async function readMessageParent(payload: MessageParentPayload): Promise<OkPayload<'message_parent'>> {
  const messages = await getSessionMessages(payload.session, payload.cwd !== undefined ? { dir: payload.cwd } : {});
  return parentIn(messages, payload.message);
}

function uuidOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const uuid = (message as { uuid?: unknown }).uuid;
  return typeof uuid === 'string' && uuid !== '' ? uuid : undefined;
}
