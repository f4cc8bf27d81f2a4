import { describe, expect, it } from 'vitest';
import { childEnv, SIDECAR_ONLY_ENV } from '../../src/session/childEnv.js';

describe('childEnv', () => {
  it('passes everything on except what the host set for the sidecar alone, and the list itself', () => {
    const env = { PATH: '/bin', BUN_JSC_useFTLJIT: '0', BUN_JSC_other: '1', [SIDECAR_ONLY_ENV]: 'BUN_JSC_useFTLJIT,' };
    expect(childEnv(env)).toEqual({ PATH: '/bin', BUN_JSC_other: '1' });
    expect(env.BUN_JSC_useFTLJIT).toBe('0'); // the sidecar's own environment is left alone
  });

  it('passes everything on when the host named nothing (a setting the person made stays theirs)', () => {
    expect(childEnv({ PATH: '/bin', BUN_JSC_useFTLJIT: '0' })).toEqual({ PATH: '/bin', BUN_JSC_useFTLJIT: '0' });
  });
});
