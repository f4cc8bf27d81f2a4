// Every turn that is canceled or fails leaves nothing open (PROTOCOL.md, "Settling"): before its terminal event,
// each tool call it started and did not end gets tool.interrupted, and each reply block it was streaming becomes
// a stopped message.completed holding what had streamed. Wraps the session's event sink, so every path that ends
// a turn (cancel, identity, failure, close) settles the same way.
import type { EmitEvent, Event } from '../protocol/events.js';
import { interrupted, OpenTools } from './openTools.js';
import { OpenStreams } from './openStreams.js';

export function settlingEmit(emit: EmitEvent): EmitEvent {
  const tools = new OpenTools();
  const streams = new OpenStreams();
  return (event: Event) => {
    switch (event.kind) {
      case 'turn.canceled':
      case 'turn.failed':
        if (event.turn !== undefined) {
          for (const message of streams.take(event)) emit(message);
          for (const tool of tools.take(event.turn)) emit(interrupted(tool, event));
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
}
