// A written time must read as toISOString of its Date did, for every timestamp checkTimestamp passes (the
// corpus's are checked in fastParse.test.ts, with checkTimestamp).
import { describe, expect, it } from 'vitest';
import { checkTimestamp } from '../../src/mapper/fastParse.js';
import { isoTime } from '../../src/mapper/writtenTime.js';

const asBefore = (timestamp: string) => expect(isoTime(timestamp), timestamp).toBe(new Date(timestamp).toISOString());

describe('isoTime', () => {
  it('reads edge dates and other forms as their Date did', () => {
    const candidates = [
      '0000-01-01T00:00:00.000Z',
      '0050-06-15T12:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2000-02-29T12:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '9999-12-31T23:59:59.999Z',
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00.1Z',
      '2026-01-01T00:00:00.123456Z',
      '2026-01-01T01:00:00.000+01:00',
      '2026-12-31T23:30:00.000-01:00',
    ];
    const checked = candidates.flatMap((c) => checkTimestamp(c) ?? []);
    expect(checked.length).toBeGreaterThan(8);
    for (const timestamp of checked) asBefore(timestamp);
    // Offsets are written in UTC, not kept.
    expect(isoTime('2026-01-01T01:00:00.000+01:00')).toBe('2026-01-01T00:00:00.000Z');
  });
});
