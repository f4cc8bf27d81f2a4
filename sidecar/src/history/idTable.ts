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

/**
 * Uuids, each with the first line that has it (chain.ts follows parents through it). A long transcript has ~190 k:
 * as strings in a Map they were most of pass 1's heap, so a canonical uuid (lowercase, 8-4-4-4-12) is kept as its
 * 16 bytes in one typed array, found through an open-addressing table of numbers; any other text in a Map.
 */
export class UuidTable {
  private count = 0;
  private words = new Uint32Array(4 * 1024);
  private slots = new Int32Array(2048).fill(NO_ID);
  private firstLines = new Int32Array(1024).fill(NO_ID);
  private readonly odd = new IdTable();
  /** An odd text's number in `odd` → its number here, and back. */
  private readonly oddIds: number[] = [];
  private readonly oddTexts = new Map<number, string>();
  /** The uuid being looked up, as words (one buffer: no garbage per lookup). */
  private readonly key = new Uint32Array(4);
  /**
   * The last two uuids interned, and their numbers. Pass 1 interns a line's uuid, then its parent: mostly the
   * line before's uuid, found here without parsing it again or a lookup in the tables (a miss in the cache, often).
   */
  private last: string | undefined;
  private lastId = NO_ID;
  private before: string | undefined;
  private beforeId = NO_ID;

  get size(): number {
    return this.count;
  }

  /** The uuid's number, given it if it is new. */
  intern(text: string): number {
    if (text === this.last) return this.lastId;
    if (text === this.before) return this.beforeId;
    const id = this.lookUp(text);
    this.before = this.last;
    this.beforeId = this.lastId;
    this.last = text;
    this.lastId = id;
    return id;
  }

  private lookUp(text: string): number {
    if (!parseUuid(text, this.key)) return this.internOdd(text);
    const slot = this.slotOf(this.key);
    if (this.slots[slot] !== NO_ID) return this.slots[slot]!;
    const id = this.add();
    this.words.set(this.key, id * 4);
    this.slots[slot] = id;
    if (this.count * 2 > this.slots.length) this.rehash();
    return id;
  }

  /** The uuid's number, or NO_ID when it was never seen. */
  find(text: string): number {
    if (!parseUuid(text, this.key)) {
      const odd = this.odd.find(text);
      return odd === NO_ID ? NO_ID : this.oddIds[odd]!;
    }
    return this.slots[this.slotOf(this.key)]!;
  }

  text(id: number): string {
    return this.oddTexts.get(id) ?? formatUuid(this.words, id * 4);
  }

  /** Notes that `line` has uuid `id` (the first such line is kept). */
  noteLine(id: number, line: number): void {
    if (id >= this.firstLines.length) this.firstLines = grown(this.firstLines, id);
    if (this.firstLines[id] === NO_ID) this.firstLines[id] = line;
  }

  /** The first line with uuid `id`, or NO_ID (a parent no line of the file has). */
  lineOf(id: number): number {
    return id < this.firstLines.length ? this.firstLines[id]! : NO_ID;
  }

  private internOdd(text: string): number {
    const odd = this.odd.intern(text);
    if (odd < this.oddIds.length) return this.oddIds[odd]!;
    const id = this.add();
    this.oddIds.push(id);
    this.oddTexts.set(id, text);
    return id;
  }

  private add(): number {
    if ((this.count + 1) * 4 > this.words.length) {
      const words = new Uint32Array(this.words.length * 2);
      words.set(this.words);
      this.words = words;
    }
    return this.count++;
  }

  /** The slot `key` is in, or the empty one it would take. */
  private slotOf(key: Uint32Array): number {
    const mask = this.slots.length - 1;
    for (let slot = hash(key, 0) & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id === NO_ID || this.sameAs(id, key)) return slot;
    }
  }

  private sameAs(id: number, key: Uint32Array): boolean {
    const at = id * 4;
    const w = this.words;
    return !this.oddTexts.has(id) && w[at] === key[0] && w[at + 1] === key[1] && w[at + 2] === key[2] && w[at + 3] === key[3];
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(NO_ID);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      if (this.oddTexts.has(id)) continue;
      let slot = hash(this.words, id * 4) & mask;
      while (slots[slot] !== NO_ID) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
  }
}

/** The four words of a uuid at `at`, mixed (copied transcripts' uuids may differ in a few digits only). */
function hash(words: Uint32Array, at: number): number {
  let h = Math.imul(words[at]! ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ words[at + 1]! ^ (h >>> 15), 0xc2b2ae35);
  h = Math.imul(h ^ words[at + 2]! ^ (h >>> 13), 0x85ebca6b);
  h = Math.imul(h ^ words[at + 3]! ^ (h >>> 16), 0xc2b2ae35);
  return (h ^ (h >>> 15)) >>> 0;
}

const DASHES = [8, 13, 18, 23];

/** Reads a canonical uuid (lowercase hex, 8-4-4-4-12) into `out`'s four words; false for any other text. */
function parseUuid(text: string, out: Uint32Array): boolean {
  if (text.length !== 36) return false;
  let word = 0;
  let nibbles = 0;
  for (let i = 0; i < 36; i++) {
    const c = text.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
      continue;
    }
    let v: number;
    if (c >= 48 && c <= 57) v = c - 48;
    else if (c >= 97 && c <= 102) v = c - 87;
    else return false;
    word = (word << 4) | v;
    if (++nibbles % 8 === 0) {
      out[nibbles / 8 - 1] = word >>> 0;
      word = 0;
    }
  }
  return true;
}

function formatUuid(words: Uint32Array, at: number): string {
  const hex = [0, 1, 2, 3].map((i) => words[at + i]!.toString(16).padStart(8, '0')).join('');
  return DASHES.reduce((text, dash) => `${text.slice(0, dash)}-${text.slice(dash)}`, hex);
}

/** `array` doubled until `index` fits, the new part NO_ID. */
export function grown(array: Int32Array<ArrayBuffer>, index: number): Int32Array<ArrayBuffer> {
  let length = array.length * 2;
  while (length <= index) length *= 2;
  const out = new Int32Array(length).fill(NO_ID);
  out.set(array);
  return out;
}
