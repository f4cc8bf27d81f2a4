import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/protocol/events.js';
import { IdleTrim, QUIET_MS, type Schedule } from '../../src/runtime/idleTrim.js';

/** A schedule the test runs by hand: the one pending callback, if any. */
function manualTimers(): { schedule: Schedule; pending: () => number; fire: () => void } {
  let next: { run: () => void; ms: number } | undefined;
  return {
    schedule: (run, ms) => {
      const timer = { run, ms };
      next = timer;
      return () => {
        if (next === timer) next = undefined;
      };
    },
    pending: () => next?.ms ?? 0,
    fire: () => {
      const timer = next;
      next = undefined;
      timer?.run();
    },
  };
}

const time = '2026-12-03T12:00:00.000Z';
const started = (session: string, turn: string): Event => ({ kind: 'turn.started', session, turn, time, prompt: 'p' });
const completed = (session: string, turn: string): Event => ({
  kind: 'turn.completed',
  session,
  turn,
  time,
  durationMs: 1,
  numTurns: 1,
  costUsd: 0,
});
const delta = (session: string, turn: string): Event => ({
  kind: 'message.delta',
  session,
  turn,
  time,
  ephemeral: true,
  messageId: 'm',
  index: 0,
  block: 'text',
  text: 'x',
});

function setUp(): { trim: IdleTrim; timers: ReturnType<typeof manualTimers>; trims: () => number } {
  const timers = manualTimers();
  let count = 0;
  return { trim: new IdleTrim(() => count++, timers.schedule), timers, trims: () => count };
}

describe('IdleTrim', () => {
  it('trims once the sidecar stayed quiet after the warm-up, and only once', () => {
    const { trim, timers, trims } = setUp();
    trim.traffic();
    expect(timers.pending()).toBe(0); // nothing wanted yet
    trim.warmedUp();
    expect(timers.pending()).toBe(QUIET_MS);
    timers.fire();
    expect(trims()).toBe(1);
    trim.traffic();
    expect(timers.pending()).toBe(0);
  });

  it('waits for quiet again after every line either way', () => {
    const { trim, timers, trims } = setUp();
    trim.warmedUp();
    trim.traffic();
    trim.event(delta('s', 'other'));
    expect(timers.pending()).toBe(QUIET_MS);
    expect(trims()).toBe(0);
  });

  it('never trims while a turn runs, and trims once every turn ended', () => {
    const { trim, timers, trims } = setUp();
    trim.warmedUp();
    trim.event(started('s1', 't1'));
    trim.event(started('s2', 't2'));
    expect(timers.pending()).toBe(0);
    trim.event(delta('s1', 't1'));
    trim.event(completed('s1', 't1'));
    expect(timers.pending()).toBe(0); // s2's turn still runs
    trim.event(completed('s2', 't2'));
    expect(timers.pending()).toBe(QUIET_MS);
    timers.fire();
    expect(trims()).toBe(1);
  });

  it('forgets the turns of a closed session', () => {
    const { trim, timers, trims } = setUp();
    trim.event(started('s1', 't1'));
    trim.event(completed('s2', 't2'));
    expect(timers.pending()).toBe(0);
    trim.event({ kind: 'session.closed', session: 's1', time, reason: 'closed' });
    expect(timers.pending()).toBe(QUIET_MS);
    timers.fire();
    expect(trims()).toBe(1);
  });
});
