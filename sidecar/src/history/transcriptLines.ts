// A transcript file read line by line with bounded memory: one chunk and the line being assembled at a time, so a
// 120 MB transcript is never held whole. Offsets are byte offsets; a line's `end` is just past its newline.
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

export interface RawLine {
  offset: number;
  end: number;
  /** Absent for a line the caller skipped (not decoded). */
  text?: string;
  /** False for a last line with no newline yet (torn, or still being written). */
  complete: boolean;
}

/**
 * The lines of `path` from byte `from` on. `keep(offset)` false skips decoding a line (its bytes are still read
 * past): pass 2 decodes only the lines of the conversation it maps. Each line is kept or not just before it is
 * given, after the line before it was used.
 */
export async function* readLines(path: string, from = 0, keep: (offset: number) => boolean = () => true): AsyncGenerator<RawLine> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const cut: Cut = { carry: [], lineStart: from };
    let pos = from;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, pos);
      if (bytesRead === 0) break;
      const lines: LineBytes[] = [];
      splitChunk(buffer, bytesRead, pos, cut, (bytes, start, stop, offset, end) => lines.push({ bytes, start, stop, offset, end }));
      // The buffer is read into again only after the chunk's lines are all given.
      for (const { bytes, start, stop, offset, end } of lines) {
        yield keep(offset) ? { offset, end, text: bytes.toString('utf8', start, stop), complete: true } : { offset, end, complete: true };
      }
      pos += bytesRead;
    }
    if (cut.carry.length > 0) yield { offset: cut.lineStart, end: pos, text: Buffer.concat(cut.carry).toString('utf8'), complete: false };
  } finally {
    await handle.close();
  }
}

/** A complete line's text (the newline excluded), its byte offset and the offset just past its newline. */
export type LineVisitor = (text: string, offset: number, end: number) => void;

/**
 * Calls `visit` for each complete line of `path` from byte `from` on, in order; a last line with no newline yet
 * (torn, or still being written) is left for next time. For a pass over every line of a file: a callback, not
 * readLines' generator, whose resumption per line cost a whole-file pass more than the rest of its reading.
 * `chunkBytes`: how much is read at a time (tests make it small, to cut lines across reads).
 */
export async function eachLine(path: string, from: number, visit: LineVisitor, chunkBytes = CHUNK_BYTES): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    const cut: Cut = { carry: [], lineStart: from };
    // Each line decoded alone: a chunk's lines decoded at once were no faster (one non-ASCII byte in the chunk
    // makes every line a two-byte string).
    const line: LineSink = (bytes, start, stop, offset, end) => visit(bytes.toString('utf8', start, stop), offset, end);
    for (let pos = from; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, pos);
      if (bytesRead === 0) break;
      splitChunk(buffer, bytesRead, pos, cut, line);
      pos += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** A complete line as bytes[start, stop), the newline excluded. */
interface LineBytes {
  bytes: Buffer;
  start: number;
  stop: number;
  offset: number;
  end: number;
}
type LineSink = (bytes: Buffer, start: number, stop: number, offset: number, end: number) => void;

/** A line the chunks read so far cut: its bytes, and its offset. */
interface Cut {
  carry: Buffer[];
  lineStart: number;
}

/**
 * Gives `line` each line ending in buffer[0, bytesRead) (read at file offset `pos`), the first one joined to the
 * bytes `cut` carried from the chunks before; what follows the last newline is carried on.
 */
function splitChunk(buffer: Buffer, bytesRead: number, pos: number, cut: Cut, line: LineSink): void {
  let start = 0;
  for (let nl = buffer.indexOf(NEWLINE, 0); nl >= 0 && nl < bytesRead; nl = buffer.indexOf(NEWLINE, start)) {
    const end = pos + nl + 1;
    if (cut.carry.length > 0) {
      const bytes = Buffer.concat([...cut.carry, buffer.subarray(start, nl)]);
      cut.carry = [];
      line(bytes, 0, bytes.length, cut.lineStart, end);
    } else {
      line(buffer, start, nl, cut.lineStart, end);
    }
    start = nl + 1;
    cut.lineStart = end;
  }
  if (start < bytesRead) cut.carry.push(Buffer.from(buffer.subarray(start, bytesRead)));
}

/** The file's size, or undefined when it is not there. */
export async function fileSize(path: string): Promise<number | undefined> {
  try {
    const handle = await open(path, 'r');
    try {
      return (await handle.stat()).size;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
