// The first-prompt check reads a transcript's head in one read and the rest, rarely, as a stream: where the head
// ends (mid-line, or past the line limit) must not change what it finds.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainFirstPrompt } from '../../src/history/firstPrompt.js';
import { assistantLine, type ConfigDir, configDir, text, userLine } from '../helpers/transcriptFiles.js';

const SESSION = '5e551011-0000-4000-8000-00000000f001';
const SUBAGENT = 'Look around the repo';
const c = (uuid: string, parentUuid: string | null, extra?: Record<string, unknown>) => ({ uuid, parentUuid, session: SESSION, ...(extra ? { extra } : {}) });
const command = userLine(c('u0', null), '<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>');
const own = userLine(c('u1', 'u0'), [text('<ide_selection>src/a.ts</ide_selection> Delegate the search')]);
const subagent = userLine(c('s1', null, { isSidechain: true }), SUBAGENT);
/** An assistant line of about `bytes` bytes. */
const big = (uuid: string, bytes: number) => assistantLine(c(uuid, 'u1'), `m-${uuid}`, [text('x'.repeat(bytes))]);
/** A short line that is no user message. */
const filler = (i: number) => ({ type: 'progress', n: i });

let dir: ConfigDir;
beforeAll(() => {
  dir = configDir();
});
afterAll(() => dir.remove());

describe('mainFirstPrompt', () => {
  it("finds the person's prompt in the head", async () => {
    const file = dir.write('head.jsonl', [command, own, subagent]);
    expect(await mainFirstPrompt(file, SUBAGENT)).toBe('Delegate the search');
  });

  it("leaves a prompt that is the person's own", async () => {
    const file = dir.write('own.jsonl', [command, own, subagent]);
    expect(await mainFirstPrompt(file, 'Delegate the search')).toBeUndefined();
  });

  it('finds a subagent line in a short file however JSON spaces its flag, and nothing in one without', async () => {
    const spaced = JSON.stringify(subagent).replace('"isSidechain":true', '"isSidechain" :\ttrue');
    expect(spaced).not.toContain('"isSidechain":true');
    expect(await mainFirstPrompt(dir.write('spaced.jsonl', [command, own, spaced]), SUBAGENT)).toBe('Delegate the search');
    const notSide = JSON.stringify(subagent).replace('"isSidechain":true', '"isSidechain":false');
    expect(await mainFirstPrompt(dir.write('main-only.jsonl', [command, own, notSide]), SUBAGENT)).toBeUndefined();
  });

  it('reads on past the head, through a line the head cut', async () => {
    for (const [name, size] of [
      ['cut.jsonl', 70_000],
      ['long.jsonl', 300_000],
    ] as const) {
      const file = dir.write(name, [command, big('a0', 60_000), own, big('a1', size), subagent]);
      expect(await mainFirstPrompt(file, SUBAGENT), name).toBe('Delegate the search');
    }
  });

  it('stops at a torn last line, in the head or past it', async () => {
    for (const [name, pad] of [
      ['torn-head.jsonl', 10],
      ['torn-rest.jsonl', 100_000],
    ] as const) {
      const whole = dir.write(`whole-${name}`, [command, own, big('a0', pad), subagent]);
      const torn = dir.write(name, [command, own, big('a0', pad), subagent]);
      writeFileSync(torn, readFileSync(torn, 'utf8').replace(/\n$/, '')); // the last line is still being written
      expect(await mainFirstPrompt(whole, SUBAGENT), name).toBe('Delegate the search');
      expect(await mainFirstPrompt(torn, SUBAGENT), name).toBeUndefined();
    }
  });

  it('reads 2,000 lines at most, counted across the head and the rest', async () => {
    // 60-byte fillers: 2,000 lines end past the 64 KB head, 500 lines inside it.
    const pad = (i: number) => ({ ...filler(i), pad: 'p'.repeat(30) });
    for (const [lines, found] of [
      [1997, 'Delegate the search'],
      [1998, undefined],
      [500, 'Delegate the search'],
    ] as const) {
      const file = dir.write(`limit-${lines}.jsonl`, [command, own, ...Array.from({ length: lines }, (_, i) => pad(i)), subagent]);
      expect(await mainFirstPrompt(file, SUBAGENT), `${lines} fillers`).toBe(found);
    }
  });
});
