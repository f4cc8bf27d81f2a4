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
 * past): pass 2 decodes only the lines of the conversation it maps.
 */
export async function* readLines(path: string, from = 0, keep: (offset: number) => boolean = () => true): AsyncGenerator<RawLine> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let pos = from;
    let carry: Buffer[] = [];
    let lineStart = from;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, pos);
      if (bytesRead === 0) break;
      let start = 0;
      for (let nl = buffer.indexOf(NEWLINE, 0); nl >= 0 && nl < bytesRead; nl = buffer.indexOf(NEWLINE, start)) {
        const end = pos + nl + 1;
        if (keep(lineStart)) {
          const piece = buffer.subarray(start, nl);
          const bytes = carry.length > 0 ? Buffer.concat([...carry, piece]) : piece;
          yield { offset: lineStart, end, text: bytes.toString('utf8'), complete: true };
        } else {
          yield { offset: lineStart, end, complete: true };
        }
        carry = [];
        start = nl + 1;
        lineStart = end;
      }
      if (start < bytesRead) carry.push(Buffer.from(buffer.subarray(start, bytesRead)));
      pos += bytesRead;
    }
    if (carry.length > 0) yield { offset: lineStart, end: pos, text: Buffer.concat(carry).toString('utf8'), complete: false };
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
    let pos = from;
    let carry: Buffer[] = [];
    let lineStart = from;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, pos);
      if (bytesRead === 0) break;
      let start = 0;
      for (let nl = buffer.indexOf(NEWLINE, 0); nl >= 0 && nl < bytesRead; nl = buffer.indexOf(NEWLINE, start)) {
        const end = pos + nl + 1;
        // Each line decoded alone: a chunk's lines decoded at once were no faster (one non-ASCII byte in the chunk
        // makes every line a two-byte string).
        const text = carry.length > 0 ? Buffer.concat([...carry, buffer.subarray(start, nl)]).toString('utf8') : buffer.toString('utf8', start, nl);
        visit(text, lineStart, end);
        carry = [];
        start = nl + 1;
        lineStart = end;
      }
      if (start < bytesRead) carry.push(Buffer.from(buffer.subarray(start, bytesRead)));
      pos += bytesRead;
    }
  } finally {
    await handle.close();
  }
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
