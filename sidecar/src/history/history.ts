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

/**
 * Reads from the sidecar's own CLAUDE_CONFIG_DIR / HOME, the same the CLI children get. The reply is one
 * protocol line, so a transcript too large for it keeps its newest events (a client reads from the tail).
 */
export async function readHistory(payload: HistoryPayload, now: () => Date): Promise<Event[]> {
  const messages = await getSessionMessages(payload.session, payload.cwd !== undefined ? { dir: payload.cwd } : {});
  const { events, dropped } = fitTail(mapHistory(messages, payload.session, now));
  if (dropped > 0) diag(`history of ${payload.session}: dropped the ${dropped} oldest events to fit one protocol line`);
  return events;
}
