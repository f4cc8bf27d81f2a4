// History settles what a transcript leaves open (PROTOCOL.md, "Settling"). A transcript has no turn ends, so:
// - a tool_use with no tool_result is closed (tool.interrupted) once its turn is known to have ended: by the
//   turn's end from its receipt (before that end), or because a later turn exists (before that turn's start);
//   the last turn's open calls stay open when nothing says it ended (it may still run);
// - an interruption whose cause the transcript cannot tell (`turn_ended`) takes its turn's end from the receipt;
// - the reply block Claude Code filed unfinished (no stop reason) right before "[Request interrupted by user]" is
//   marked stopped, as live.
import type { Event, EventOf, ToolInterruptCause } from '../protocol/events.js';

type TurnEnd = EventOf<'turn.canceled'> | EventOf<'turn.failed'>;

function causeOf(end: TurnEnd | undefined): ToolInterruptCause {
  if (end === undefined) return 'turn_ended';
  if (end.kind === 'turn.canceled') return 'cancel';
  return end.code === 'host_exited' ? 'host_exited' : 'failure';
}

/** Closes the calls each ended turn left open and names each interruption's cause. */
export function settleTools(events: readonly Event[]): Event[] {
  const ends = new Map<string, TurnEnd>();
  for (const e of events) if ((e.kind === 'turn.canceled' || e.kind === 'turn.failed') && e.turn !== undefined) ends.set(e.turn, e);
  const out: Event[] = [];
  let open = new Map<string, EventOf<'tool.started'>>();
  let turn: string | undefined;
  const close = (at: Event, cause: ToolInterruptCause) => {
    for (const start of open.values()) {
      out.push({
        kind: 'tool.interrupted',
        session: start.session,
        time: at.time,
        ...(start.turn !== undefined ? { turn: start.turn } : {}),
        toolUseId: start.toolUseId,
        name: start.name,
        cause,
      });
    }
    open = new Map();
  };
  for (const e of events) {
    if (e.kind === 'turn.started' && e.turn !== turn) {
      close(e, causeOf(turn !== undefined ? ends.get(turn) : undefined));
      turn = e.turn;
    } else if ((e.kind === 'turn.canceled' || e.kind === 'turn.failed') && e.turn === turn) {
      close(e, causeOf(e));
    } else if (e.kind === 'tool.started') {
      open.set(e.toolUseId, e);
    } else if (e.kind === 'tool.completed' || e.kind === 'tool.failed' || e.kind === 'tool.interrupted') {
      open.delete(e.toolUseId);
    }
    if (e.kind === 'tool.interrupted' && e.cause === 'turn_ended' && e.turn !== undefined && ends.has(e.turn)) {
      out.push({ ...e, cause: causeOf(ends.get(e.turn)) });
      continue;
    }
    out.push(e);
  }
  return out;
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
