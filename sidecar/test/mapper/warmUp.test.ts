// The warm-up maps a made-up reply through the real mapper: if the SDK's shapes (or the mapper) change so that a
// message of it maps to `unknown`, it would warm the wrong path, and this fails.
import { describe, expect, it } from 'vitest';
import { WARM_DELTAS, warmStreamPath } from '../../src/mapper/warmUp.js';

describe('warmStreamPath', () => {
  it('maps every message of its reply to Baton events, none unknown', () => {
    const kinds = warmStreamPath(() => new Date('2026-12-01T20:00:00.000Z'));
    expect(kinds.get('unknown')).toBeUndefined();
    expect(kinds.get('message.delta')).toBeGreaterThanOrEqual(WARM_DELTAS);
    for (const kind of ['message.completed', 'model.resolved', 'usage.updated', 'turn.completed'] as const) {
      expect(kinds.get(kind), kind).toBeGreaterThan(0);
    }
  });
});
