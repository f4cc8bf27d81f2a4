// Turn ordering and the SDK input queue.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InputQueue } from '../../src/session/inputQueue.js';
import { type Turn, TurnScheduler } from '../../src/session/turns.js';

const turn = (id: string): Turn => ({ id, prompt: `prompt ${id}`, uuid: randomUUID(), dispatched: false });

describe('TurnScheduler', () => {
  it('releases the first turn at once and queues the rest until each result', () => {
    const s = new TurnScheduler();
    const [a, b, c] = [turn('a'), turn('b'), turn('c')];
    expect(s.submit(a)).toBe(a);
    expect(s.submit(b)).toBeUndefined();
    expect(s.submit(c)).toBeUndefined();
    expect(s.running).toBe(a);
    expect(s.finish()).toEqual({ finished: a, next: b });
    expect(s.finish()).toEqual({ finished: b, next: c });
    expect(s.finish()).toEqual({ finished: c, next: undefined });
    expect(s.running).toBeUndefined();
    // Idle again: the next prompt goes straight in.
    const d = turn('d');
    expect(s.submit(d)).toBe(d);
  });

  it('finds each turn in its phase: queued, dispatched, finished or nowhere', () => {
    const s = new TurnScheduler();
    const [a, b, c] = [turn('a'), turn('b'), turn('c')];
    s.submit(a);
    s.submit(b);
    s.submit(c);
    // Released but not yet handed to the SDK (its query generation is still opening): still removable locally.
    expect(s.find('a')).toEqual({ phase: 'queued', turn: a, running: true });
    a.dispatched = true;
    expect(s.find('b')).toEqual({ phase: 'queued', turn: b, running: false });
    expect(s.find()).toEqual({ phase: 'dispatched', turn: a });
    expect(s.find('a')).toEqual({ phase: 'dispatched', turn: a });
    expect(s.find('zzz')).toEqual({ phase: 'none' });
    s.dequeue('b');
    expect(s.find('b')).toEqual({ phase: 'finished', turn: 'b' });
    // The dequeued one never runs; an ended turn is remembered as finished, never as absent.
    expect(s.finish()).toEqual({ finished: a, next: c });
    expect(s.find('a')).toEqual({ phase: 'finished', turn: 'a' });
    expect(s.has('a')).toBe(true);
  });

  it('does not start queued turns when finishing without promotion (closing)', () => {
    const s = new TurnScheduler();
    const [a, b] = [turn('a'), turn('b')];
    s.submit(a);
    s.submit(b);
    expect(s.finish(false)).toEqual({ finished: a, next: undefined });
    expect(s.drain()).toEqual({ running: undefined, queued: [b] });
  });

  it('finds nothing when nothing runs', () => {
    expect(new TurnScheduler().find()).toEqual({ phase: 'none' });
  });

  it('drains running and queued turns when the session ends', () => {
    const s = new TurnScheduler();
    const [a, b] = [turn('a'), turn('b')];
    s.submit(a);
    s.submit(b);
    expect(s.has('b')).toBe(true);
    expect(s.drain()).toEqual({ running: a, queued: [b] });
    expect(s.running).toBeUndefined();
    expect(s.find('b')).toEqual({ phase: 'finished', turn: 'b' });
  });
});

describe('InputQueue', () => {
  it('hands out pushed items in order and waits across turns until closed', async () => {
    const q = new InputQueue<number>();
    const it = q[Symbol.asyncIterator]();
    q.push(1);
    await expect(it.next()).resolves.toEqual({ value: 1, done: false });
    const waiting = it.next();
    q.push(2);
    await expect(waiting).resolves.toEqual({ value: 2, done: false });
    q.push(3);
    q.close();
    // Items pushed before close are still delivered, then the iteration ends.
    await expect(it.next()).resolves.toEqual({ value: 3, done: false });
    await expect(it.next()).resolves.toEqual({ value: undefined, done: true });
    expect(() => q.push(4)).toThrow(/closed/);
  });

  it('ends a pending read when closed', async () => {
    const q = new InputQueue<number>();
    const pending = q[Symbol.asyncIterator]().next();
    q.close();
    await expect(pending).resolves.toEqual({ value: undefined, done: true });
  });
});
