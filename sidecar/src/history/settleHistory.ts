// History settles what a transcript leaves open (PROTOCOL.md, "Settling"). A transcript has no turn ends, so:
// - a tool_use with no tool_result is closed (tool.interrupted) once its turn is known to have ended: by the
//   turn's end from its receipt (before that end), or because a later turn exists (before that turn's start);
//   the calls still open where the transcript ends are interrupted by `session_ended` (settleStream.ts; the
//   array form here leaves them open unless asked);
// - an interruption whose cause the transcript cannot tell (`turn_ended`) takes its turn's end from the receipt;
// - the reply block Claude Code filed unfinished (no stop reason) right before "[Request interrupted by user]" is
//   marked stopped, as live.
import type { Event } from '../protocol/events.js';
import { runStage, ToolStage, type TurnEnd } from './settleStream.js';

/** Closes the calls each ended turn left open and names each interruption's cause. */
export function settleTools(events: readonly Event[], atEnd: 'open' | 'session_ended' = 'open'): Event[] {
  const ends = new Map<string, TurnEnd>();
  for (const e of events) if ((e.kind === 'turn.canceled' || e.kind === 'turn.failed') && e.turn !== undefined) ends.set(e.turn, e);
  return runStage(new ToolStage(ends, atEnd), events);
}

const INTERRUPTED = '[Request interrupted by user]';

/** Whether a transcript message is Claude Code's "[Request interrupted by user]" line. */
export function isInterruptLine(message: unknown): boolean {
  const inner = (message as { type?: unknown; message?: { content?: unknown } } | null)?.message?.content;
  if ((message as { type?: unknown } | null)?.type !== 'user') return false;
  if (typeof inner === 'string') return inner.trim() === INTERRUPTED;
  return Array.isArray(inner) && inner.length === 1 && (inner[0] as { text?: unknown })?.text === INTERRUPTED;
}

/** Whether a transcript message is an assistant block Claude Code filed before its stop reason came. */
export function isUnfinishedReply(message: unknown): boolean {
  const m = message as { type?: unknown; message?: { stop_reason?: unknown } } | null;
  return m?.type === 'assistant' && m.message !== undefined && (m.message.stop_reason === null || m.message.stop_reason === undefined);
}

/** Marks the reply events of a block that was cut off by an interrupt as stopped. */
export function markStopped(events: Event[]): Event[] {
  return events.map((e) => (e.kind === 'message.completed' && e.role !== 'user' ? { ...e, stopped: true } : e));
}
