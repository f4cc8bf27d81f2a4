// The console's side of the one wire schema: wire.gen.ts is current, and every kind the schema names (each has a
// line in the shared fixtures) is read as itself and folded into a session without being dropped.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvent } from '../src/protocol/events';
import { WIRE_EVENT_KINDS } from '../src/protocol/wire.gen';
import { foldEvents, newSession } from '../src/store/fold';

// Tests run from frontend/ (npm test); the schema and fixtures live beside it.
const root = `${resolve(process.cwd(), '..')}/`;
const fixture = (name: string): unknown[] =>
  readFileSync(`${root}sidecar/testdata/protocol/${name}`, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);

describe('wire.gen.ts', () => {
  it('is what app/protocol/schema generates (run scripts/gen-protocol after changing the schema)', () => {
    expect(() => execFileSync('node', [`${root}frontend/scripts/gen-protocol.mjs`, '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('names the same kinds as the schema', () => {
    const schema = JSON.parse(readFileSync(`${root}app/protocol/schema/wire.schema.json`, 'utf8')) as { 'x-events': Array<{ kind: string }> };
    expect([...WIRE_EVENT_KINDS]).toEqual(schema['x-events'].map((e) => e.kind));
  });
});

describe('every kind of the schema', () => {
  const sidecar = fixture('valid.ndjson').flatMap((line) => {
    const l = line as { type: string; event?: unknown };
    return l.type === 'event' ? [l.event] : [];
  });
  const events = [...sidecar, ...fixture('host.ndjson')];

  it('has a fixture, is read as itself, and folds', () => {
    const seen = new Set<string>();
    let state = newSession({ id: '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b', cwd: '/tmp/project' });
    for (const value of events) {
      const ev = readEvent(value);
      expect(ev, JSON.stringify(value)).toBeDefined();
      expect(ev!.kind.startsWith('unrecognized:'), `${ev!.kind} is not recognized`).toBe(false);
      seen.add(ev!.kind);
      state = foldEvents(state, [ev!]);
    }
    for (const kind of WIRE_EVENT_KINDS) expect(seen, `no fixture line for ${kind}`).toContain(kind);
  });
});
