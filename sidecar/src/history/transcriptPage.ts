// A transcript job's page as JSON text: each item is serialised once, when it is fitted to the line bound and
// measured, and the page is written from those strings straight into UTF-8 bytes, byte for byte what
// JSON.stringify writes for the page's payload (no page-wide string: a page with one character beyond Latin-1
// would be a UTF-16 string twice its size). Only the item's text waits for its page; its objects go once measured.
import { fitEventJson } from '../protocol/bounds.js';
import { RawJson } from '../protocol/rawJson.js';
import type { OkPayload, TranscriptResume } from '../protocol/schemas.js';
import type { Item } from './settleStream.js';

/** An item fitted to the line bound, as JSON text, and the bytes it adds to the page. */
export interface SizedItem {
  /** JSON.stringify(uuid), or undefined for an item with none (e.g. a settle). */
  uuid: string | undefined;
  event: string;
  /** The item's UTF-8 bytes in the page plus one (the comma after it, or the line's end). */
  size: number;
}

/** A page's payload serialised; done and bytesRead read back without parsing it. */
export class TranscriptPage extends RawJson<OkPayload<'transcript_next'>> {
  constructor(
    bytes: Uint8Array,
    readonly done: boolean,
    readonly bytesRead: number,
  ) {
    super(bytes);
  }
}

/** `{"uuid":…,"event":…}` and its comma or newline. */
const ITEM_FRAME_BYTES = '{"event":}'.length + 1;
const UUID_FRAME_BYTES = '"uuid":,'.length;

/** Fits the item's event to the line bound and serialises it, once: the text measured is the text written. */
export function sizedItem(item: Item): SizedItem {
  const { json, bytes } = fitEventJson(item.event);
  if (item.uuid === undefined) return { uuid: undefined, event: json, size: bytes + ITEM_FRAME_BYTES };
  const uuid = JSON.stringify(item.uuid);
  return { uuid, event: json, size: bytes + Buffer.byteLength(uuid, 'utf8') + UUID_FRAME_BYTES + ITEM_FRAME_BYTES };
}

const PAGE_HEAD = '{"items":[';

/** The page `{items, done, bytesRead, resume?}` in that key order, as the object's JSON.stringify writes it. */
export function transcriptPage(items: readonly SizedItem[], done: boolean, bytesRead: number, resume: TranscriptResume | undefined): TranscriptPage {
  const tail = `],"done":${done},"bytesRead":${JSON.stringify(bytesRead)}${resume !== undefined ? `,"resume":${JSON.stringify(resume)}` : ''}}`;
  let size = PAGE_HEAD.length + Buffer.byteLength(tail, 'utf8') - (items.length > 0 ? 1 : 0); // sizes count a comma each
  for (const item of items) size += item.size;
  const bytes = Buffer.allocUnsafe(size);
  let at = bytes.write(PAGE_HEAD, 0, 'latin1');
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    at += bytes.write(i === 0 ? '{' : ',{', at, 'latin1');
    if (item.uuid !== undefined) {
      at += bytes.write('"uuid":', at, 'latin1');
      at += bytes.write(item.uuid, at, 'utf8');
      at += bytes.write(',', at, 'latin1');
    }
    at += bytes.write('"event":', at, 'latin1');
    at += bytes.write(item.event, at, 'utf8');
    at += bytes.write('}', at, 'latin1');
  }
  at += bytes.write(tail, at, 'utf8');
  // The sizes are the strings' UTF-8 lengths, so this holds unless one was measured wrong.
  if (at !== size) throw new Error(`a transcript page came out ${at} bytes, not the ${size} measured`);
  return new TranscriptPage(bytes, done, bytesRead);
}
