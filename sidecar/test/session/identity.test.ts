// The identity barrier's transcript fallback: exactly one persisted user message with the uuid binds the turn.
import { describe, expect, it } from 'vitest';
import { resolveFromTranscript } from '../../src/session/identity.js';

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
