// Splits a byte stream into lines without ever holding more than maxBytes of one line: an overlong line is
// skipped to its newline (its bytes are dropped as they arrive) and reported once, with its first bytes so the
// caller can answer the request's id.

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** How much of an overlong line is kept to read its id from. */
export const HEAD_BYTES = 256;

export interface LineSink {
  line(text: string): void;
  /** A line exceeded the bound; called once per such line, as soon as the bound is crossed, with its first
   * HEAD_BYTES bytes (where an envelope carries its id). */
  tooLong(head: string): void;
}

export class BoundedLineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(
    private readonly maxBytes: number,
    private readonly sink: LineSink,
  ) {}

  push(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, pos);
      const end = newline === -1 ? chunk.length : newline;
      if (this.discarding) {
        if (newline === -1) return;
        this.discarding = false;
      } else if (this.size + (end - pos) > this.maxBytes) {
        const head = this.head(chunk.subarray(pos, end));
        this.parts = [];
        this.size = 0;
        this.sink.tooLong(head);
        if (newline === -1) {
          this.discarding = true;
          return;
        }
      } else {
        this.append(chunk.subarray(pos, end));
        if (newline === -1) return;
        this.flushLine();
      }
      pos = end + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.size > 0) this.flushLine();
    this.discarding = false;
  }

  /** The first HEAD_BYTES of the line held so far followed by piece (a cut character reads as U+FFFD). */
  private head(piece: Buffer): string {
    const pieces: Buffer[] = [];
    let size = 0;
    for (const part of [...this.parts, piece]) {
      if (size >= HEAD_BYTES) break;
      pieces.push(part.subarray(0, HEAD_BYTES - size));
      size += pieces[pieces.length - 1]!.length;
    }
    return Buffer.concat(pieces, size).toString('utf8');
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    // Copy: the stream may reuse the chunk's memory after push returns.
    this.parts.push(Buffer.from(piece));
    this.size += piece.length;
  }

  private flushLine(): void {
    let bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, -1);
    if (bytes.length === 0) return;
    this.sink.line(bytes.toString('utf8'));
  }
}
