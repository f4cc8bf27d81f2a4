// The lines pass 2 maps, kept as sorted offsets: membership and what each line is, whatever order they came in.
import { describe, expect, it } from 'vitest';
import { WantedSet } from '../../src/history/wantedSet.js';

const keys = (...lines: Array<[number, boolean]>) => Float64Array.from(lines.map(([offset, local]) => WantedSet.key(offset, local)));

describe('WantedSet', () => {
  it('answers for the offsets it was given, in any order, and for no other', () => {
    const set = new WantedSet(keys([900, false], [0, false], [4096, true], [37, false]), new Map());
    for (const offset of [0, 37, 900, 4096]) expect(set.has(offset)).toBe(true);
    for (const offset of [1, 36, 38, 899, 901, 4095, 4097, 1e9]) expect(set.has(offset)).toBe(false);
    expect(set.get(37)).toEqual({});
    expect(set.get(4096)).toEqual({ localCommand: true });
    expect(set.get(38)).toBeUndefined();
  });

  it('gives an inline subagent line its call, over a conversation line at the same offset', () => {
    const set = new WantedSet(
      keys([10, true], [20, false]),
      new Map([
        [10, 'toolu_1'],
        [30, 'toolu_2'],
      ]),
    );
    expect(set.get(10)).toEqual({ parentToolUseId: 'toolu_1' });
    expect(set.get(30)).toEqual({ parentToolUseId: 'toolu_2' });
    expect(set.has(30)).toBe(true);
    expect(set.get(20)).toEqual({});
  });

  it('holds nothing when no line is wanted', () => {
    const set = new WantedSet(new Float64Array(0), new Map());
    expect(set.has(0)).toBe(false);
    expect(set.get(0)).toBeUndefined();
  });
});
