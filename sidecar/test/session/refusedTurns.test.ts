import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUTH_REFUSED_MESSAGE, RefusedTurns } from '../../src/session/refusedTurns.js';
import type { Turn } from '../../src/session/turns.js';

const retry = (status: number | null) => ({ type: 'system', subtype: 'api_retry', attempt: 1, max_retries: 10, retry_delay_ms: 500, error_status: status });
const turn = (dispatched = true): Turn => ({ id: 't1', prompt: 'p', uuid: randomUUID(), dispatched });

describe('refused turns', () => {
  it('refuse the running turn at its first 401 retry, once', () => {
    const r = new RefusedTurns();
    const t = turn();
    expect(r.refuses(retry(401), t, false)).toBe(true);
    expect(r.refuses(retry(401), t, false)).toBe(false); // already being stopped
  });

  it('leave other retries, undispatched turns and background follow-ups alone', () => {
    const r = new RefusedTurns();
    expect(r.refuses(retry(529), turn(), false)).toBe(false);
    expect(r.refuses(retry(null), turn(), false)).toBe(false);
    expect(r.refuses({ type: 'system', subtype: 'status', status: 'requesting' }, turn(), false)).toBe(false);
    expect(r.refuses(retry(401), turn(false), false)).toBe(false);
    expect(r.refuses(retry(401), undefined, false)).toBe(false);
    expect(r.refuses(retry(401), turn(), true)).toBe(false);
  });

  it('turn the refused turn’s end, however the stop ended it, into an auth failure', () => {
    const r = new RefusedTurns();
    r.refuses(retry(401), turn(), false);
    const delta = { kind: 'message.delta', ephemeral: true, messageId: 'm', index: 0, block: 'text', text: 'x' } as const;
    expect(r.end(delta, 't1')).toBe(delta);
    expect(r.end({ kind: 'turn.canceled', disposition: 'provider_active', forced: false }, 'other')).toMatchObject({ kind: 'turn.canceled' });
    expect(r.end({ kind: 'turn.canceled', disposition: 'provider_active', forced: false }, 't1')).toEqual({
      kind: 'turn.failed',
      code: 'auth',
      message: AUTH_REFUSED_MESSAGE,
    });
    // Once: a later turn with the same id (none) or a stray second end passes unchanged.
    expect(r.end({ kind: 'turn.failed', code: 'sdk_error', message: 'drain' }, 't1')).toMatchObject({ code: 'sdk_error' });
  });
});
