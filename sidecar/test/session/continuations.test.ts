// The continuation bookkeeping as a state machine, with a fake clock: the order of the SDK's level signal and
// task edges is not fixed by contract, so these drive both orders and fire the quiescence grace by hand.
// (The real SDK runs in test/e2e/background.test.ts; a fake clock is what makes the grace's two sides exact.)
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import type { Event, EventBody } from '../../src/protocol/events.js';
import { stampEvent } from '../../src/protocol/events.js';
import { type ContinuationHost, Continuations, type Timers, type TurnEnd } from '../../src/session/continuations.js';

const SESSION = 's1';
const now = () => new Date(0);

/** Timers that fire only when the test says. */
class FakeTimers implements Timers {
  private next = 0;
  readonly pending = new Map<number, { fire: () => void; ms: number }>();
  set(fire: () => void, ms: number): unknown {
    this.next += 1;
    this.pending.set(this.next, { fire, ms });
    return this.next;
  }
  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** Fires every timer of that length set so far. */
  fire(ms: number): void {
    for (const [id, t] of [...this.pending]) {
      if (t.ms !== ms) continue;
      this.pending.delete(id);
      t.fire();
    }
  }
}

const GRACE = 250;
const DELAY = 30_000;

function setup(tasks: { live: number }) {
  const out: Event[] = [];
  let advanced = 0;
  const host: ContinuationHost = {
    emit: (body: EventBody, turn) => out.push(stampEvent(body, SESSION, now, turn)),
    send: (event) => out.push(event),
    advance: () => {
      advanced += 1;
    },
    liveTasks: () => tasks.live,
    promptWaiting: () => false,
    now: () => 0,
    interrupt: () => undefined,
  };
  const timers = new FakeTimers();
  const c = new Continuations(SESSION, host, { delayMs: DELAY, graceMs: GRACE, timers });
  return { c, out, timers, advanced: () => advanced };
}

const sys = (subtype: string, extra: object = {}) => ({ type: 'system', subtype, ...extra }) as unknown as SDKMessage;
const notification = sys('task_notification', { task_id: 'b1', status: 'completed' });
const emptyLevel = sys('background_tasks_changed', { tasks: [] });
const idle = sys('session_state_changed', { state: 'idle' });
const assistant = { type: 'assistant', message: { content: [] }, parent_tool_use_id: null } as unknown as SDKMessage;
const rootResult = { type: 'result', subtype: 'success' } as unknown as SDKMessage;
const followUpResult = { type: 'result', subtype: 'success', origin: { kind: 'task-notification' } } as unknown as SDKMessage;
const end = (turn: string, costUsd = 1): TurnEnd => stampEvent({ kind: 'turn.completed', durationMs: 1, numTurns: 1, costUsd }, SESSION, now, turn) as TurnEnd;

describe('continuations: the quiescence grace after the live set empties', () => {
  it('lets a notification that comes after the empty level keep the launching turn open for its follow-up', () => {
    const tasks = { live: 1 };
    const { c, out, timers } = setup(tasks);
    c.resultArrived(end('t1'), rootResult, 't1');
    expect(c.held?.turn).toBe('t1');
    // The level empties first, the task's own notification comes after it, inside the grace.
    tasks.live = 0;
    c.after(emptyLevel);
    expect(out).toEqual([]);
    c.before(notification, undefined);
    timers.fire(GRACE);
    expect(out).toEqual([]); // no end at the level, and no continuation turn of its own
    c.before(assistant, undefined);
    c.resultArrived(end('t1', 2), followUpResult, 't1');
    expect(out).toEqual([]);
    c.after(idle);
    expect(out).toMatchObject([{ kind: 'turn.completed', turn: 't1', costUsd: 3 }]);
  });

  it('ends the held turn once the grace passed with nothing due (a stopped task: no idle edge follows)', () => {
    const tasks = { live: 1 };
    const { c, out, timers, advanced } = setup(tasks);
    c.resultArrived(end('t1'), rootResult, 't1');
    tasks.live = 0;
    c.after(emptyLevel);
    expect(out).toEqual([]);
    timers.fire(GRACE);
    expect(out).toMatchObject([{ kind: 'turn.completed', turn: 't1' }]);
    expect(advanced()).toBe(1);
  });

  it('waits out the grace before an idle edge ends the turn, so an edge inside it still wins', () => {
    const tasks = { live: 1 };
    const { c, out, timers } = setup(tasks);
    c.resultArrived(end('t1'), rootResult, 't1');
    tasks.live = 0;
    c.after(emptyLevel);
    c.after(idle);
    expect(out).toEqual([]);
    c.before(notification, undefined);
    timers.fire(GRACE);
    expect(out).toEqual([]);
    c.before(assistant, undefined);
    c.resultArrived(end('t1'), followUpResult, 't1');
    c.after(idle);
    expect(out).toMatchObject([{ kind: 'turn.completed', turn: 't1' }]);
  });

  it('holds a root result that comes while the grace runs', () => {
    const tasks = { live: 0 };
    const { c, out, timers } = setup(tasks);
    c.after(emptyLevel);
    c.resultArrived(end('t1'), rootResult, 't1');
    expect(c.held?.turn).toBe('t1');
    c.after(idle);
    expect(out).toEqual([]);
    timers.fire(GRACE);
    expect(out).toMatchObject([{ kind: 'turn.completed', turn: 't1' }]);
  });
});

describe('continuations: a continuation turn ends at idle', () => {
  it('keeps one continuation turn across two follow-up results, and ends it at the idle edge', () => {
    const tasks = { live: 0 };
    const { c, out } = setup(tasks);
    c.before(notification, undefined);
    expect(out).toMatchObject([{ kind: 'turn.started', origin: 'task_notification', turn: 's1:continuation:1' }]);
    c.before(assistant, undefined);
    c.resultArrived(end('s1:continuation:1'), followUpResult, undefined);
    c.before(notification, undefined);
    c.before(assistant, undefined);
    c.resultArrived(end('s1:continuation:1'), followUpResult, undefined);
    expect(out).toHaveLength(1);
    c.after(idle);
    expect(out.slice(1)).toMatchObject([{ kind: 'turn.completed', turn: 's1:continuation:1', costUsd: 2 }]);
  });

  it('ends an answered continuation at idle while another task is still live (its follow-up gets its own turn)', () => {
    const tasks = { live: 1 };
    const { c, out } = setup(tasks);
    c.before(notification, undefined);
    c.before(assistant, undefined);
    c.resultArrived(end('s1:continuation:1'), followUpResult, undefined);
    c.after(idle);
    expect(out.map((e) => [e.kind, e.turn])).toEqual([
      ['turn.started', 's1:continuation:1'],
      ['turn.completed', 's1:continuation:1'],
    ]);
    c.before(notification, undefined);
    expect(out.at(-1)).toMatchObject({ kind: 'turn.started', turn: 's1:continuation:2' });
  });

  it('ends an answered continuation when a person turn starts, before its output', () => {
    const { c, out } = setup({ live: 0 });
    c.before(notification, undefined);
    c.before(assistant, undefined);
    c.resultArrived(end('s1:continuation:1'), followUpResult, undefined);
    c.personTurnStarted();
    expect(out.map((e) => e.kind)).toEqual(['turn.started', 'turn.completed']);
    expect(c.continuationTurn).toBeUndefined();
  });
});

describe('continuations: a tool-use summary is a follow-up output', () => {
  const summary = { type: 'tool_use_summary', summary: 'Read 2 files', preceding_tool_use_ids: ['t1'] } as unknown as SDKMessage;

  it('counts as the follow-up showing output (its delay is no longer armed)', () => {
    const { c, timers } = setup({ live: 0 });
    c.before(notification, undefined);
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([DELAY]);
    c.before(summary, undefined);
    expect(timers.pending.size).toBe(0);
  });

  it('is dropped with the rest of a canceled follow-up, until its result', () => {
    const { c } = setup({ live: 0 });
    c.before(notification, undefined);
    c.cancel('s1:continuation:1');
    expect(c.rejects(summary, false)).toBe(true);
    expect(c.rejects(assistant, false)).toBe(true);
    expect(c.rejects(followUpResult, false)).toBe(true);
    expect(c.rejects(summary, false)).toBe(false);
  });
});
