// The SDK's rate_limit_event (a plan limit's state after a request) maps to limit.updated: no unknown row.
import { describe, expect, it } from 'vitest';
import { Mapper } from '../../src/mapper/mapper.js';
import { eventSchema } from '../../src/protocol/events.js';
import { fixedClock } from '../helpers/clock.js';

const S = '5e551011-0000-4000-8000-000000000001';
const mapOne = (message: unknown) => new Mapper(S, fixedClock()).map(message, { turn: 't1' });

describe('rate_limit_event', () => {
  it('maps a warning with its window, reset time and use', () => {
    const events = mapOne({
      type: 'rate_limit_event',
      rate_limit_info: { status: 'allowed_warning', resetsAt: 1796040000, rateLimitType: 'five_hour', utilization: 0.92 },
      uuid: '0c7a1d2e-0000-4000-8000-000000000003',
      session_id: S,
    });
    expect(events).toHaveLength(1);
    expect(eventSchema.safeParse(events[0]).success).toBe(true);
    expect(events[0]).toMatchObject({
      kind: 'limit.updated',
      limitStatus: 'allowed_warning',
      window: 'five_hour',
      resetsAt: new Date(1796040000 * 1000).toISOString(),
      utilization: 0.92,
    });
  });

  // As the real CLI sends it (recorded from claude against the scripted API's plan headers, see
  // app/internal/fakeapi/ratelimit_cli_test.go): every window under unifiedWindows, for the plan meter.
  it('maps every window the CLI reported', () => {
    const [e] = mapOne({
      type: 'rate_limit_event',
      rate_limit_info: {
        status: 'allowed_warning',
        resetsAt: 1796236804,
        rateLimitType: 'five_hour',
        utilization: 0.92,
        isUsingOverage: false,
        surpassedThreshold: 0.9,
        unifiedWindows: {
          five_hour: { utilization: 0.92, resetsAt: 1796236804, surpassedThreshold: 0.9 },
          seven_day: { utilization: 0.4, resetsAt: 1796490604 },
        },
      },
      uuid: 'd28bbaa9-dfb2-4e7b-8aab-4ccce1bf95c8',
      session_id: S,
    });
    expect(eventSchema.safeParse(e).success).toBe(true);
    expect(e).toMatchObject({
      windows: [
        { window: 'five_hour', utilization: 0.92, resetsAt: new Date(1796236804 * 1000).toISOString() },
        { window: 'seven_day', utilization: 0.4, resetsAt: new Date(1796490604 * 1000).toISOString() },
      ],
    });
  });

  it('maps a rejection on overage, and a bare status', () => {
    const [rejected] = mapOne({ type: 'rate_limit_event', rate_limit_info: { status: 'rejected', rateLimitType: 'seven_day', isUsingOverage: true } });
    expect(rejected).toMatchObject({ kind: 'limit.updated', limitStatus: 'rejected', window: 'seven_day', overage: true });
    const [bare] = mapOne({ type: 'rate_limit_event', rate_limit_info: { status: 'allowed' } });
    expect(bare).toMatchObject({ kind: 'limit.updated', limitStatus: 'allowed' });
    expect(bare).not.toHaveProperty('resetsAt');
  });

  it('is unknown when its info does not parse', () => {
    expect(mapOne({ type: 'rate_limit_event', rate_limit_info: { status: 'maybe' } }).map((e) => e.kind)).toEqual(['unknown']);
  });
});
