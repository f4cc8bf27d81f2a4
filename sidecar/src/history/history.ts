// A session's transcript (getSessionMessages) mapped by the same Mapper as live messages.
//
// Turns in history: there is no live turn. A prompt (see mapper/prompts.ts) maps to turn.started with the
// prompt and its uuid, exactly as live, and its `turn` is that uuid; every later event carries the uuid of
// the prompt that began its turn. Events before the first prompt carry no turn. Live, turn.started reports
// the same uuid under the host's turn id, so a client can line the two up.
// Transcripts hold no stream events, results, system messages or tool_use_result, so history has no deltas,
// no usage or turn-end events, and tool.completed carries no `structured` / `fileBefore`.
import { getSessionMessages } from '@anthropic-ai/claude-agent-sdk';
import { Mapper } from '../mapper/mapper.js';
import { promptUuid } from '../mapper/prompts.js';
import { fitTail } from '../protocol/bounds.js';
import type { Event } from '../protocol/events.js';
import type { HistoryPayload } from '../protocol/schemas.js';
import { diag } from '../util/diagnostics.js';

/** Each transcript message with the events it maps to, in order. */
export function mapHistoryMessages(
  messages: readonly unknown[],
  session: string,
  now: () => Date,
): Array<{ message: unknown; events: Event[] }> {
  const mapper = new Mapper(session, now, { transcript: true });
  let turn: string | undefined;
  return messages.map((message) => {
    turn = promptUuid(message) ?? turn;
    return { message, events: mapper.map(message, { turn }) };
  });
}

export function mapHistory(messages: readonly unknown[], session: string, now: () => Date): Event[] {
  return mapHistoryMessages(messages, session, now).flatMap((mapped) => mapped.events);
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
 * Reads from the sidecar's own CLAUDE_CONFIG_DIR / HOME, the same the CLI children get.
 */
export async function readHistory(payload: HistoryPayload, now: () => Date): Promise<HistoryPage> {
  const messages = await getSessionMessages(payload.session, payload.cwd !== undefined ? { dir: payload.cwd } : {});
  const { dropped, ...page } = pageOf(mapHistory(messages, payload.session, now), payload);
  if (dropped > 0) diag(`history of ${payload.session}: dropped the ${dropped} oldest events of the page to fit one protocol line`);
  return page;
}
