// The checked-in JSON Schema (app/protocol/schema/wire.schema.json) is exactly what the zod schemas render:
// a kind, field or request changed here without running scripts/gen-protocol fails this test (and the Go and
// frontend generators read that file, so their own drift tests follow).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventSchema, hostEventSchemas } from '../../src/protocol/events.js';
import { REQUEST_TYPES } from '../../src/protocol/schemas.js';
import { wireSchemaDocument, wireSchemaText } from '../../src/protocol/wireSchema.js';
import { SIDECAR_ROOT } from '../helpers/fakeApi.js';

const SCHEMA = join(SIDECAR_ROOT, '..', 'app/protocol/schema/wire.schema.json');

describe('wire.schema.json', () => {
  it('is current (run scripts/gen-protocol after changing src/protocol)', () => {
    expect(readFileSync(SCHEMA, 'utf8')).toBe(wireSchemaText());
  });

  it('names every event kind and request type', () => {
    const doc = wireSchemaDocument() as { 'x-events': Array<{ kind: string }>; 'x-requests': Array<{ type: string }> };
    const kinds = [...eventSchema.options, ...hostEventSchemas].map((o) => o.shape.kind.value);
    expect(doc['x-events'].map((e) => e.kind).sort()).toEqual([...kinds].sort());
    expect(doc['x-requests'].map((r) => r.type)).toEqual([...REQUEST_TYPES]);
  });
});
