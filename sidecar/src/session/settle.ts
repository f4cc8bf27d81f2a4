// Every turn that is canceled or fails leaves nothing open (PROTOCOL.md, "Settling"): before its terminal event,
// each tool call it started and did not end gets tool.interrupted, and each reply block it was streaming becomes
// a stopped message.completed holding what had streamed. Wraps the session's event sink, so every path that ends
// a turn (cancel, identity, failure, close) settles the same way.
import type { EmitEvent, Event } from '../protocol/events.js';
import { interrupted, OpenTools } from './openTools.js';
import { OpenStreams } from './openStreams.js';

/** The session's event sink, settling; `revoked()` says the query generation was revoked (a dispatched stop). */
export interface Settler {
  emit: EmitEvent;
  revoked(): void;
}

export function settler(emit: EmitEvent): Settler {
  const tools = new OpenTools();
  const streams = new OpenStreams();
  let revoked = false;
  const settle = (event: Event): void => {
    switch (event.kind) {
      case 'turn.canceled':
      case 'turn.failed':
        if (event.turn !== undefined) {
          for (const message of streams.take(event)) emit(message);
          // A revoked generation routes nothing more: every call of it still open ends here, a background
          // agent's on an earlier turn too. Any other end closes only its own turn's calls.
          const open = revoked ? tools.takeAll() : tools.take(event.turn);
          revoked = false;
          for (const tool of open) emit(interrupted(tool, event));
        }
        break;
      case 'turn.completed':
      case 'turn.guided':
        // Completed: whatever streamed is in its messages. Guided: the interrupted reply's rows settle in the
        // console at turn.guided, and Claude Code sends the cut-off message itself (aborted: stopped).
        if (event.turn !== undefined) streams.forget(event.turn);
        break;
      default:
        tools.observe(event);
        streams.observe(event);
    }
    emit(event);
  };
  return { emit: settle, revoked: () => (revoked = true) };
}
