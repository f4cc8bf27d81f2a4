// Keeps outgoing lines under the 8 MiB bound the host enforces: the host drops a longer line whole, so a huge
// tool output would otherwise make its whole event vanish. Big fields shrink, in order of how little they matter.
import type { Event, Image } from './events.js';
import { KIND_META, type SizeRule } from './kindMeta.js';
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

/** Returns the event unchanged when it fits, else a copy with its large fields cut down (kindMeta.ts: `size`). */
export function fitEvent(event: Event, maxBytes: number = MAX_EVENT_BYTES): Event {
  // A stream piece is a few characters, thousands of times a reply: it fits by far (a character is at most 6
  // bytes of JSON), so it is not serialised once more just to be measured.
  if (event.kind === 'message.delta' && event.text.length * 6 < maxBytes / 2) return event;
  if (byteLength(event) <= maxBytes) return event;
  return shrink(event);
}

/** fitEvent's result as JSON.stringify writes it, with its UTF-8 size: a page serialises each event once, to
 * measure it and to write it (an event that fits is serialised once, a shrunk one once more). */
export function fitEventJson(event: Event, maxBytes: number = MAX_EVENT_BYTES): { json: string; bytes: number } {
  const json = JSON.stringify(event);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes <= maxBytes) return { json, bytes };
  const fitted = shrink(event);
  if (fitted === event) return { json, bytes };
  const shrunk = JSON.stringify(fitted);
  return { json: shrunk, bytes: Buffer.byteLength(shrunk, 'utf8') };
}

function shrink(event: Event): Event {
  const rule: SizeRule<Event> = KIND_META[event.kind].size as SizeRule<Event>;
  if ('short' in rule) return event;
  const out: Record<string, unknown> = { ...event };
  for (const field of rule.drop ?? []) delete out[field];
  for (const field of rule.stub ?? []) out[field] = { truncated: true };
  for (const field of rule.empty ?? []) out[field] = [];
  for (const field of rule.truncate) {
    const text = out[field];
    if (typeof text === 'string') out[field] = truncate(text);
  }
  const images = out['images'];
  if (rule.images && Array.isArray(images)) out['images'] = images.map(withoutData);
  return out as Event;
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
