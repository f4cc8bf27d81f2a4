// The tail read of a background command's output file: bounded in bytes and lines, never a partial first line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTail, TAIL_BYTES, TAIL_LINES } from '../../src/session/outputTails.js';

const dir = mkdtempSync(join(tmpdir(), 'baton-tail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readTail', () => {
  it('keeps the last lines of a short file whole', async () => {
    const file = join(dir, 'short');
    writeFileSync(file, 'one\ntwo\n');
    expect(await readTail(file)).toBe('one\ntwo\n');
  });

  it('keeps at most TAIL_LINES lines', async () => {
    const file = join(dir, 'many');
    writeFileSync(file, Array.from({ length: 100 }, (_, i) => `l${i}\n`).join(''));
    const tail = (await readTail(file)) ?? '';
    expect(tail.split('\n').filter((l) => l !== '')).toHaveLength(TAIL_LINES);
    expect(tail.endsWith('l99\n')).toBe(true);
  });

  it('reads no more than TAIL_BYTES and drops the line the cut fell in', async () => {
    const file = join(dir, 'wide');
    writeFileSync(file, `${'é'.repeat(3000)}\n${'x'.repeat(100)}\n`);
    const tail = (await readTail(file)) ?? '';
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(TAIL_BYTES);
    expect(tail).toBe(`${'x'.repeat(100)}\n`);
  });

  it('is undefined for a file that is not there', async () => {
    expect(await readTail(join(dir, 'missing'))).toBeUndefined();
  });
});
