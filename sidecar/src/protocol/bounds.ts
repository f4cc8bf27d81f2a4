// Keeps outgoing lines under the 8 MiB bound the host enforces: the host drops a longer line whole, so a huge
// tool output would otherwise make its whole event vanish. Big fields shrink, in order of how little they matter.
import type { Event, Image } from './events.js';
import { assertNever } from '../util/assertNever.js';
import { MAX_LINE_BYTES } from './version.js';

/** Room left for the envelope and for the other events of a history reply. */
export const MAX_EVENT_BYTES = MAX_LINE_BYTES - 64 * 1024;
const TEXT_KEEP_CHARS = 256 * 1024;
const TRUNCATION_MARK = '\n… [truncated by the sidecar: too large for one protocol line]';

export function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

function truncate(text: string): string {
  return text.length <= TEXT_KEEP_CHARS ? text : text.slice(0, TEXT_KEEP_CHARS) + TRUNCATION_MARK;
}

/** Returns the event unchanged when it fits, else a copy with its large fields cut down. */
export function fitEvent(event: Event, maxBytes: number = MAX_EVENT_BYTES): Event {
  // A stream piece is a few characters, thousands of times a reply: it fits by far (a character is at most 6
  // bytes of JSON), so it is not serialised once more just to be measured.
  if (event.kind === 'message.delta' && event.text.length * 6 < maxBytes / 2) return event;
  if (byteLength(event) <= maxBytes) return event;
  switch (event.kind) {
    case 'tool.completed': {
      const { structured: _structured, fileBefore: _fileBefore, ...rest } = event;
      return { ...rest, output: truncate(event.output), ...(event.images !== undefined ? { images: event.images.map(withoutData) } : {}) };
    }
    case 'tool.started': {
      const { fileBefore: _fileBefore, ...rest } = event;
      return { ...rest, input: { truncated: true } };
    }
    case 'permission.requested':
      return { ...event, input: { truncated: true }, suggestions: [] };
    case 'unknown':
      return { ...event, raw: { truncated: true } };
    case 'message.completed':
    case 'message.delta':
      return { ...event, text: truncate(event.text) };
    case 'turn.started':
      return { ...event, prompt: truncate(event.prompt), ...(event.images !== undefined ? { images: event.images.map(withoutData) } : {}) };
    case 'turn.guided':
      return { ...event, prompt: truncate(event.prompt) };
    case 'tool.failed':
      return { ...event, error: truncate(event.error) };
    case 'turn.completed':
      return event.result === undefined ? event : { ...event, result: truncate(event.result) };
    case 'compact.summary':
    case 'command.output':
      return { ...event, text: truncate(event.text) };
    case 'api.error':
      return { ...event, message: truncate(event.message) };
    case 'hook.ran':
      return event.output === undefined ? event : { ...event, output: truncate(event.output) };
    case 'task.completed':
      return event.summary === undefined ? event : { ...event, summary: truncate(event.summary) };
    case 'session.started':
    case 'session.closed':
    case 'session.updated':
    case 'turn.accepted':
    case 'turn.failed':
    case 'turn.canceled':
    case 'tool.updated':
    case 'tool.interrupted':
    case 'permission.settled':
    case 'plan.updated':
    case 'usage.updated':
    case 'model.resolved':
    case 'commands.updated':
    case 'models.updated':
    case 'context.updated':
    // Task lists, goals and compaction markers are short by nature (descriptions, one condition).
    case 'tasks.updated':
    case 'task.started':
    case 'task.updated':
    case 'goal.updated':
    case 'session.compacted':
    case 'protocol.error':
    case 'command.ran':
    case 'transcript.unreadable':
    // The host needs a tool call's whole input; a model's output (at most 128k tokens) is far below the bound.
    case 'tool.called':
      return event;
    default:
      return assertNever(event);
  }
}

/** An image too large for the line keeps its type and size: the console says what it was. */
function withoutData(image: Image): Image {
  return { mediaType: image.mediaType, bytes: image.bytes };
}

/** Keeps the newest events whose total size fits: history is read from its tail. */
export function fitTail(events: readonly Event[], maxBytes: number = MAX_EVENT_BYTES): { events: Event[]; dropped: number } {
  const kept: Event[] = [];
  let total = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = fitEvent(events[i]!);
    const size = byteLength(event) + 1;
    if (total + size > maxBytes) return { events: kept.reverse(), dropped: i + 1 };
    total += size;
    kept.push(event);
  }
  return { events: kept.reverse(), dropped: 0 };
}
