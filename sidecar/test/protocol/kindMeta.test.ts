// The kinds' metadata (src/protocol/kindMeta.ts) and what scripts/gen-protocol writes from it: each kind's example
// is a valid event and the first line of its kind in the fixtures, and PROTOCOL.md's kinds table is current.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventSchema, hostEventSchemas } from '../../src/protocol/events.js';
import { type AnyKind, KIND_META } from '../../src/protocol/kindMeta.js';
import { type FixtureFile, fixtureText, protocolDocText } from '../../src/protocol/kindOutputs.js';
import { SIDECAR_ROOT } from '../helpers/fakeApi.js';

const read = (path: string) => readFileSync(join(SIDECAR_ROOT, path), 'utf8');
const hostEvent = hostEventSchemas.length === 1 ? hostEventSchemas[0] : undefined;

describe('kind metadata', () => {
  it('gives every kind an example its own schema accepts', () => {
    for (const kind of Object.keys(KIND_META) as AnyKind[]) {
      const example = KIND_META[kind].example;
      expect(example.kind, kind).toBe(kind);
      const schema = kind === hostEvent?.shape.kind.value ? hostEvent : eventSchema;
      expect(schema.safeParse(example).success, `${kind}: its example is not a valid event`).toBe(true);
    }
  });

  for (const file of ['valid.ndjson', 'host.ndjson'] as FixtureFile[]) {
    it(`makes each kind's first line of ${file} (run scripts/gen-protocol after changing kindMeta.ts)`, () => {
      const current = read(`testdata/protocol/${file}`);
      expect(current).toBe(fixtureText(current, file));
    });
  }

  it("is PROTOCOL.md's kinds table (run scripts/gen-protocol after changing kindMeta.ts)", () => {
    const doc = read('../app/protocol/PROTOCOL.md');
    expect(doc).toBe(protocolDocText(doc));
  });
});
