// The identity barrier's transcript fallback: exactly one persisted user message with the uuid binds the turn.
import { describe, expect, it } from 'vitest';
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { IdentityBarrier, outputReleased, resolveFromTranscript } from '../../src/session/identity.js';

const base = { session: 's', cwd: '/p', uuid: 'u1', stillWanted: () => true };

describe('resolveFromTranscript', () => {
  it('binds once the prompt shows up in the transcript (write delay)', async () => {
    let reads = 0;
    const transcript = () =>
      Promise.resolve(
        ++reads < 3
          ? []
          : [
              { type: 'user', uuid: 'u1' },
              { type: 'assistant', uuid: 'a' },
            ],
      );
    await expect(resolveFromTranscript({ ...base, transcript, deadlineMs: 5_000 })).resolves.toEqual({ bound: true });
    expect(reads).toBe(3);
  });

  it('fails on ambiguity and on absence at the deadline', async () => {
    const twice = () =>
      Promise.resolve([
        { type: 'user', uuid: 'u1' },
        { type: 'user', uuid: 'u1' },
      ]);
    await expect(resolveFromTranscript({ ...base, transcript: twice })).resolves.toMatchObject({ bound: false, reason: expect.stringMatching(/2 persisted/) });
    const never = () => Promise.resolve([{ type: 'assistant', uuid: 'u1' }]);
    await expect(resolveFromTranscript({ ...base, transcript: never, deadlineMs: 150 })).resolves.toMatchObject({
      bound: false,
      reason: expect.stringMatching(/within 150 ms/),
    });
  });

  it('stops when the turn is no longer waiting', async () => {
    let wanted = true;
    const transcript = () => {
      wanted = false;
      return Promise.resolve([]);
    };
    await expect(resolveFromTranscript({ ...base, transcript, stillWanted: () => wanted, deadlineMs: 60_000 })).resolves.toMatchObject({ bound: false });
  });
});

// Messages as the SDK delivers them, cut to the fields the barrier reads.
const echo = { type: 'user', uuid: 'u1', message: { role: 'user', content: 'hi' } } as unknown as SDKMessage;
const reply = { type: 'assistant', uuid: 'a1', message: { role: 'assistant', content: [] } } as unknown as SDKMessage;
const otherUser = { type: 'user', uuid: 'u0', message: { role: 'user', content: 'earlier' } } as unknown as SDKMessage;
const status = { type: 'system', subtype: 'status', status: 'requesting' } as unknown as SDKMessage;

describe('IdentityBarrier', () => {
  it('holds output until the echo binds the turn, then hands it back in order', () => {
    const barrier = new IdentityBarrier('u1');
    expect(barrier.bound).toBe(false);
    expect(barrier.admit(reply)).toBe('held');
    expect(barrier.admit(otherUser)).toBe('held');
    expect(barrier.admit(echo)).toBe('echo');
    expect(barrier.bound).toBe(false); // the echo is news; binding is the session's act
    expect(barrier.bind()).toEqual([reply, otherUser]);
    expect(barrier.bound).toBe(true);
    expect(barrier.admit(reply)).toBe('pass');
    expect(barrier.bind()).toEqual([]);
  });

  it('lets bookkeeping through while unbound', () => {
    const barrier = new IdentityBarrier('u1');
    expect(barrier.admit(status)).toBe('pass');
    expect(barrier.bind()).toEqual([]);
  });

  it('starts one transcript search, and none once bound', () => {
    const searching = new IdentityBarrier('u1');
    expect(searching.beginResolving()).toBe(true);
    expect(searching.beginResolving()).toBe(false);
    searching.bind();
    expect(searching.beginResolving()).toBe(false);
    const bound = new IdentityBarrier('u1');
    bound.bind();
    expect(bound.beginResolving()).toBe(false);
  });

  it('releases output only for a bound turn, no turn, or a reserved continuation', () => {
    const barrier = new IdentityBarrier('u1');
    expect(outputReleased({ barrier }, false)).toBe(false);
    expect(outputReleased({}, false)).toBe(false); // not dispatched yet
    expect(outputReleased({ barrier }, true)).toBe(true);
    expect(outputReleased(undefined, false)).toBe(true);
    barrier.bind();
    expect(outputReleased({ barrier }, false)).toBe(true);
  });
});

describe('IdentityBarrier begun', () => {
  it('begins with its query (system/init) or its binding; a guidance waits on it, bounded', async () => {
    const waiting = new IdentityBarrier('u1');
    expect(waiting.begun).toBe(false);
    await expect(waiting.begunWithin(10)).resolves.toBe(false);
    const began = waiting.begunWithin(60_000);
    waiting.queryBegan();
    await expect(began).resolves.toBe(true);
    expect(waiting.bound).toBe(false); // begun is not bound: its output still waits for the echo
    const bound = new IdentityBarrier('u2');
    bound.bind();
    expect(bound.begun).toBe(true);
  });
});
