// A payload serialised before its reply is made: the reply line is written from its bytes as they are, so a
// large payload whose parts were serialised anyway (a transcript page's events, measured against the line bound)
// is not serialised a second time as a whole, nor held as one more string on its way to the pipe.

/** UTF-8 JSON text, exactly what JSON.stringify writes for the T it stands for. */
export class RawJson<T> {
  /** What the text encodes: for the type checker only. */
  declare readonly encodes?: T;

  constructor(readonly bytes: Uint8Array) {}

  /** The text (for a caller that reads the payload back). */
  text(): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString('utf8');
  }
}
