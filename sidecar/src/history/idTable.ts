// Ids (uuids, message ids) interned as small numbers: pass 1 stores a line's links as numbers in typed arrays
// (lineFacts.ts) instead of a string per link, and keeps each id's text once.

/** An id's number in its table; NO_ID: no id (the field is absent). */
export const NO_ID = -1;

export class IdTable {
  private readonly ids = new Map<string, number>();
  private readonly texts: string[] = [];

  get size(): number {
    return this.texts.length;
  }

  /** The id's number, given it if it is new. */
  intern(text: string): number {
    const known = this.ids.get(text);
    if (known !== undefined) return known;
    const id = this.texts.length;
    this.ids.set(text, id);
    this.texts.push(text);
    return id;
  }

  /** The id's number, or NO_ID when it was never seen. */
  find(text: string): number {
    return this.ids.get(text) ?? NO_ID;
  }

  text(id: number): string {
    return this.texts[id]!;
  }
}

/** Uuids, each with the first line that has it (chain.ts follows parents through it). */
export class UuidTable extends IdTable {
  private firstLines = new Int32Array(1024).fill(NO_ID);

  /** Notes that `line` has uuid `id` (the first such line is kept). */
  noteLine(id: number, line: number): void {
    if (id >= this.firstLines.length) this.firstLines = grown(this.firstLines, id);
    if (this.firstLines[id] === NO_ID) this.firstLines[id] = line;
  }

  /** The first line with uuid `id`, or NO_ID (a parent no line of the file has). */
  lineOf(id: number): number {
    return id < this.firstLines.length ? this.firstLines[id]! : NO_ID;
  }
}

/** `array` doubled until `index` fits, the new part NO_ID. */
export function grown(array: Int32Array<ArrayBuffer>, index: number): Int32Array<ArrayBuffer> {
  let length = array.length * 2;
  while (length <= index) length *= 2;
  const out = new Int32Array(length).fill(NO_ID);
  out.set(array);
  return out;
}
