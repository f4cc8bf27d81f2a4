// Pass 1's uuid table: each uuid gets one number, found again by its text, whatever its form, past many growths.
import { describe, expect, it } from 'vitest';
import { NO_ID, UuidTable } from '../../src/history/idTable.js';

/** A canonical uuid made from n (distinct n, distinct uuids; neighbours differ in a few digits, as copies do). */
const uuidOf = (n: number) => `${n.toString(16).padStart(8, '0')}-0000-4000-8000-${(n * 7).toString(16).padStart(12, '0')}`;

describe('UuidTable', () => {
  it('numbers each uuid once and gives its text back, across the table growing', () => {
    const table = new UuidTable();
    const ids = Array.from({ length: 20_000 }, (_, n) => table.intern(uuidOf(n)));
    expect(ids).toEqual(Array.from({ length: 20_000 }, (_, n) => n));
    expect(table.size).toBe(20_000);
    for (const n of [0, 1, 1023, 1024, 4097, 19_999]) {
      expect(table.intern(uuidOf(n))).toBe(n);
      expect(table.find(uuidOf(n))).toBe(n);
      expect(table.text(n)).toBe(uuidOf(n));
    }
    expect(table.find(uuidOf(20_000))).toBe(NO_ID);
    expect(table.size).toBe(20_000);
  });

  it('keeps any other text as it is, apart from the canonical uuid it resembles', () => {
    const table = new UuidTable();
    const lower = 'a1b2c3d4-e5f6-4789-9abc-def012345678';
    const texts = [lower, lower.toUpperCase(), '', 'not-a-uuid', `${lower} `, lower.replaceAll('-', '_')];
    const ids = texts.map((t) => table.intern(t));
    expect(new Set(ids).size).toBe(texts.length);
    texts.forEach((t, i) => {
      expect(table.find(t)).toBe(ids[i]);
      expect(table.text(ids[i]!)).toBe(t);
      expect(table.intern(t)).toBe(ids[i]);
    });
    expect(table.find('b1b2c3d4-e5f6-4789-9abc-def012345678')).toBe(NO_ID);
  });

  it('gives the same numbers through its cache of the last two uuids as through its tables', () => {
    const table = new UuidTable();
    const empty = table.intern(''); // the cache starts empty: '' is a text like any other
    expect(empty).not.toBe(NO_ID);
    const a = table.intern(uuidOf(1));
    const b = table.intern(uuidOf(2));
    const again = [uuidOf(2), uuidOf(1), '', uuidOf(1), uuidOf(3), uuidOf(2)].map((t) => table.intern(t));
    expect(again).toEqual([b, a, empty, a, 3, b]);
    expect(new Set([empty, a, b]).size).toBe(3);
  });

  it('keeps the first line of each uuid, and none for a uuid only named as a parent', () => {
    const table = new UuidTable();
    const parent = table.intern(uuidOf(1));
    const own = table.intern(uuidOf(2));
    table.noteLine(own, 5);
    table.noteLine(own, 9);
    expect(table.lineOf(own)).toBe(5);
    expect(table.lineOf(parent)).toBe(NO_ID);
  });
});
