// The checked-in console contract (app/protocol/schema/console.json) is exactly what src/protocol/console.ts
// renders: a call, push or shape changed there without running scripts/gen-protocol fails this test (and the Go
// and frontend generators read that file, so their own drift tests follow).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_CALLS, CONSOLE_PUSHES } from '../../src/protocol/console.js';
import { consoleSchemaDocument, consoleSchemaText } from '../../src/protocol/consoleSchema.js';
import { SIDECAR_ROOT } from '../helpers/fakeApi.js';

const SCHEMA = join(SIDECAR_ROOT, '..', 'app/protocol/schema/console.json');

describe('console.json', () => {
  it('is current (run scripts/gen-protocol after changing src/protocol/console.ts)', () => {
    expect(readFileSync(SCHEMA, 'utf8')).toBe(consoleSchemaText());
  });

  it('names every call and push, each shape by reference', () => {
    const doc = consoleSchemaDocument() as {
      'x-calls': Array<{ method: string; params: { $ref: string }; result: { $ref: string } }>;
      'x-pushes': Array<{ type: string }>;
    };
    expect(doc['x-calls'].map((c) => c.method)).toEqual(Object.keys(CONSOLE_CALLS));
    expect(doc['x-pushes'].map((p) => p.type)).toEqual(Object.keys(CONSOLE_PUSHES));
    for (const call of doc['x-calls']) {
      expect(call.params.$ref).toMatch(/^(wire\.schema\.json)?#\/\$defs\//);
      expect(call.result.$ref).toMatch(/^(wire\.schema\.json)?#\/\$defs\//);
    }
  });
});
