// Event stamps carry microseconds and stay on the wall clock.
import { describe, expect, it } from 'vitest';
import { eventSchema, stampEvent } from '../../src/protocol/events.js';
import { isoNow, MicroDate, wallClock } from '../../src/util/clock.js';

/** A machine's clocks: time passes by `step` ms at each reading; the wall clock reads whole milliseconds. */
function machine(start: number, step: number) {
  const m = { now: start, offset: 12_345.678 };
  return {
    m,
    wall: () => {
      m.now += step;
      return Math.floor(m.now);
    },
    mono: () => {
      m.now += step;
      return m.now - m.offset;
    },
  };
}

describe('wallClock', () => {
  it('writes ISO times with microseconds that the event schema accepts', () => {
    const d = new MicroDate(Date.UTC(2026, 11, 1, 20, 0, 0, 4) * 1000 + 123);
    expect(d.toISOString()).toBe('2026-12-01T20:00:00.004123Z');
    expect(d.getTime()).toBe(Date.UTC(2026, 11, 1, 20, 0, 0, 4));
    const event = stampEvent({ kind: 'session.closed', reason: 'closed' }, '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b', () => d);
    expect(event.time).toBe('2026-12-01T20:00:00.004123Z');
    expect(eventSchema.safeParse(event).success).toBe(true);
  });

  it('reads the time to the microsecond, where the wall clock alone reads up to a millisecond early', () => {
    const { m, wall, mono } = machine(1_796_000_000_000.3, 0.001);
    const clock = wallClock(wall, mono);
    for (let i = 0; i < 50; i++) {
      m.now += 0.37;
      const read = clock().toISOString();
      const truth = new MicroDate(Math.round(m.now * 1000)).toISOString();
      expect(Math.abs(Date.parse(read) - Date.parse(truth))).toBeLessThanOrEqual(1);
      expect(Math.abs(micros(read) - micros(truth))).toBeLessThanOrEqual(10);
    }
  });

  it('writes the same ISO time straight from its reading as through its Date', () => {
    const { m, wall, mono } = machine(1_796_000_000_000.3, 0);
    const clock = wallClock(wall, mono);
    for (let i = 0; i < 20; i++) {
      m.now += 0.4567; // across milliseconds and, at i = 0 here, a second's start: the prefix is written again
      const viaDate = clock().toISOString();
      const straight = clock.iso();
      expect(straight).toBe(viaDate);
      expect(isoNow(clock)).toBe(viaDate);
    }
    expect(isoNow(() => new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))).toBe('2026-01-02T03:04:05.006Z');
  });

  it('anchors again when the system time is set', () => {
    const { m, wall, mono } = machine(1_796_000_000_000.3, 0.001);
    const clock = wallClock(wall, mono);
    clock();
    m.offset -= 5_000; // the wall clock jumps 5 s ahead of the monotonic one
    const read = clock();
    expect(Math.abs(read.getTime() - m.now)).toBeLessThan(1);
  });
});

function micros(iso: string): number {
  return Date.parse(iso) * 1000 + Number(iso.slice(-4, -1));
}
