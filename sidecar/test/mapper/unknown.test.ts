// Messages a live run against the fake API cannot produce: future or rare SDK messages and blocks. Each maps
// to the kinds the fixture names; unknown events carry the message exactly as received.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Mapper } from '../../src/mapper/mapper.js';
import { eventSchema } from '../../src/protocol/events.js';
import { fixedClock } from '../helpers/clock.js';
import { SIDECAR_ROOT } from '../helpers/fakeApi.js';
import { readJsonl } from '../helpers/recording.js';

const fixtureSchema = z.object({ note: z.string(), message: z.unknown(), kinds: z.array(z.string()) });
const fixtures = readJsonl(join(SIDECAR_ROOT, 'testdata/mapper/unknown-messages.jsonl')).map((line) => fixtureSchema.parse(line));

describe('messages the mapper does not know', () => {
  it('has fixtures', () => {
    expect(fixtures.length).toBeGreaterThan(10);
  });

  for (const fixture of fixtures) {
    it(fixture.note, () => {
      const events = new Mapper('5e551011-0000-4000-8000-000000000001', fixedClock()).map(fixture.message, { turn: 't1' });
      expect(events.map((e) => e.kind)).toEqual(fixture.kinds);
      for (const event of events) {
        expect(eventSchema.safeParse(event).success).toBe(true);
        expect(event.turn).toBe('t1');
        if (event.kind === 'unknown') expect(event.raw).toEqual(fixture.message);
      }
    });
  }
});
