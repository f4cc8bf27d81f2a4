// Pass 1's line reader (eachLine) against readLines, the reader pass 2 and the first-prompt reader use: the same
// complete lines with the same offsets and text, whatever the chunking, the bytes or where reading starts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eachLine, readLines } from '../../src/history/transcriptLines.js';

const dir = mkdtempSync(join(tmpdir(), 'baton-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function fileOf(bytes: Buffer): string {
  const path = join(dir, `${++files}.jsonl`);
  writeFileSync(path, bytes);
  return path;
}

interface Line {
  text: string;
  offset: number;
  end: number;
}

async function byReadLines(path: string, from: number): Promise<Line[]> {
  const out: Line[] = [];
  for await (const line of readLines(path, from)) {
    if (!line.complete) break;
    out.push({ text: line.text ?? '', offset: line.offset, end: line.end });
  }
  return out;
}

async function byEachLine(path: string, from: number, chunkBytes?: number): Promise<Line[]> {
  const out: Line[] = [];
  await eachLine(path, from, (text, offset, end) => out.push({ text, offset, end }), chunkBytes);
  return out;
}

/** The complete lines of `bytes` from `from`, split here the plain way (the file held whole). */
function split(bytes: Buffer, from: number): Line[] {
  const out: Line[] = [];
  for (let start = from, nl = bytes.indexOf(0x0a, start); nl >= 0; start = nl + 1, nl = bytes.indexOf(0x0a, start)) {
    out.push({ text: bytes.subarray(start, nl).toString('utf8'), offset: start, end: nl + 1 });
  }
  return out;
}

const HOSTILE = Buffer.concat([
  Buffer.from('{"uuid":"a","text":"héllo ✓ 😀"}\n'),
  Buffer.from('\n   \n'),
  Buffer.from('{"crlf":true}\r\n'),
  Buffer.from([0xef, 0xbb, 0xbf]), // a byte order mark at a line's start
  Buffer.from('{"bom":1}\n'),
  Buffer.from([0x7b, 0xe2, 0x82, 0x0a]), // a UTF-8 sequence cut by the newline
  Buffer.from([0xff, 0xfe, 0x22, 0x0a]), // bytes that are never UTF-8
  Buffer.from(`${'x'.repeat(300)}\n`),
  Buffer.from('{"torn":'), // no newline: still being written
]);

describe('eachLine', () => {
  it('gives readLines’ complete lines, for any chunk size and any start', async () => {
    const path = fileOf(HOSTILE);
    const starts = [0, HOSTILE.indexOf(0x0a) + 1, HOSTILE.indexOf('{"bom"'), HOSTILE.length - 3];
    expect(split(HOSTILE, 0)).toHaveLength(8);
    for (const from of starts) {
      const want = await byReadLines(path, from);
      expect(want).toEqual(split(HOSTILE, from));
      for (const chunk of [1, 2, 3, 5, 7, 64, 1 << 20]) expect(await byEachLine(path, from, chunk), `from ${from}, chunk ${chunk}`).toEqual(want);
    }
  });

  it('leaves out a last line with no newline, and gives nothing for an empty file or a start at the end', async () => {
    const path = fileOf(Buffer.from('{"a":1}\n{"b":'));
    expect(await byEachLine(path, 0, 4)).toEqual([{ text: '{"a":1}', offset: 0, end: 8 }]);
    expect(await byEachLine(fileOf(Buffer.alloc(0)), 0)).toEqual([]);
    expect(await byEachLine(path, 13)).toEqual([]);
  });

  it('reads a line longer than many chunks whole', async () => {
    const long = `{"text":"${'é'.repeat(5000)}"}`;
    const path = fileOf(Buffer.from(`${long}\n{"b":2}\n`));
    const lines = await byEachLine(path, 0, 256);
    expect(lines.map((l) => l.text)).toEqual([long, '{"b":2}']);
    expect(lines[1]!.offset).toBe(Buffer.byteLength(long) + 1);
  });
});
