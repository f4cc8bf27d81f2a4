// Splits a byte stream into lines without ever holding more than maxBytes of one line: an overlong line is
// skipped to its newline (its bytes are dropped as they arrive) and reported once.

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface LineSink {
  line(text: string): void;
  /** A line exceeded the bound; called once per such line, as soon as the bound is crossed. */
  tooLong(): void;
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
        this.parts = [];
        this.size = 0;
        this.sink.tooLong();
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
