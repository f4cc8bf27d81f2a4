// The shared fixtures (sidecar/testdata/protocol, also read by the Go host's tests).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeLine } from '../../src/protocol/codec.js';
import { eventSchema, hostEventSchemas } from '../../src/protocol/events.js';
import { errorReplySchema, eventLineSchema, okPayloads, okReplySchema, REQUEST_TYPES, type RequestType, requestSchema } from '../../src/protocol/schemas.js';
import { PROTOCOL_VERSION } from '../../src/protocol/version.js';
import { SIDECAR_ROOT } from '../helpers/fakeApi.js';

const FIXTURES = join(SIDECAR_ROOT, 'testdata/protocol');
const lines = (name: string): string[] =>
  readFileSync(join(FIXTURES, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');

describe('valid.ndjson', () => {
  const valid = lines('valid.ndjson');
  const requestTypes = new Map<string, RequestType>();

  it('has requests, replies and events', () => {
    const types = new Set(valid.map((l) => (JSON.parse(l) as { type: string }).type));
    expect(types).toContain('ok');
    expect(types).toContain('error');
    expect(types).toContain('event');
    expect(types).toContain('start');
  });

  // Every kind and request the schema names has a line (and every request an ok reply): adding one to the
  // schema without a fixture fails here and in the Go host's TestValidFixturesDecode.
  it('covers every event kind, request type and ok reply of the schema', () => {
    const values = valid.map((l) => JSON.parse(l) as { type: string; id?: string; event?: { kind: string } });
    const kinds = new Set(values.flatMap((v) => (v.type === 'event' && v.event !== undefined ? [v.event.kind] : [])));
    for (const option of eventSchema.options) expect(kinds, `no ${option.shape.kind.value} event`).toContain(option.shape.kind.value);
    const byId = new Map(values.filter((v) => REQUEST_TYPES.includes(v.type as RequestType)).map((v) => [v.id, v.type]));
    const replied = new Set(values.filter((v) => v.type === 'ok').map((v) => byId.get(v.id)));
    for (const type of REQUEST_TYPES) {
      expect([...byId.values()], `no ${type} request`).toContain(type);
      expect(replied.has(type), `no ok reply to a ${type} request`).toBe(true);
    }
  });

  for (const [index, line] of valid.entries()) {
    it(`line ${index + 1} decodes and validates`, () => {
      const value = JSON.parse(line) as { type: string; id?: string; payload?: unknown };
      switch (value.type) {
        case 'ok': {
          expect(okReplySchema.safeParse(value).error).toBeUndefined();
          // An ok payload must fit the request with the same id in the fixtures.
          const type = requestTypes.get(value.id!);
          expect(type, `no request with id ${value.id} before this reply`).toBeDefined();
          expect(okPayloads[type!].safeParse(value.payload).error).toBeUndefined();
          return;
        }
        case 'error':
          expect(errorReplySchema.safeParse(value).error).toBeUndefined();
          return;
        case 'event':
          expect(eventLineSchema.safeParse(value).error).toBeUndefined();
          return;
        default: {
          expect(requestSchema.safeParse(value).error).toBeUndefined();
          const decoded = decodeLine(line);
          expect(decoded.kind).toBe('request');
          if (decoded.kind === 'request') requestTypes.set(decoded.request.id, decoded.request.type);
        }
      }
    });
  }
});

describe('host.ndjson', () => {
  const host = lines('host.ndjson').map((l) => JSON.parse(l) as unknown);
  const hostEvent = z.union(hostEventSchemas.length === 1 ? [hostEventSchemas[0], eventSchema] : [eventSchema, ...hostEventSchemas]);
  it('covers every host-made kind, and each line fits the schema', () => {
    for (const value of host) expect(hostEvent.safeParse(value).error).toBeUndefined();
    const kinds = new Set(host.map((v) => (v as { kind: string }).kind));
    for (const schema of hostEventSchemas) expect(kinds).toContain(schema.shape.kind.value);
  });
});

describe('invalid-events.ndjson', () => {
  // What the Go host refuses (activity.DecodeEvent) the sidecar's own schema refuses too.
  for (const [index, line] of lines('invalid-events.ndjson').entries()) {
    it(`line ${index + 1} is refused`, () => {
      expect(eventSchema.safeParse(JSON.parse(line)).success).toBe(false);
    });
  }
});

describe('invalid.ndjson', () => {
  // PROTOCOL.md: a missing or other `v` → unsupported_version; not JSON or not a valid request → bad_request;
  // reported as an error reply when an id can be read, else as a protocol.error event.
  function expected(line: string): { kind: 'reject' | 'protocol_error'; code: string; id?: string } {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { kind: 'protocol_error', code: 'bad_request' };
    }
    const fields = value as { v?: unknown; id?: unknown };
    const code = fields.v === PROTOCOL_VERSION ? 'bad_request' : 'unsupported_version';
    return typeof fields.id === 'string' ? { kind: 'reject', code, id: fields.id } : { kind: 'protocol_error', code };
  }

  const invalid = lines('invalid.ndjson');
  it('covers version, shape and JSON errors', () => {
    const codes = invalid.map((l) => expected(l).code);
    expect(codes).toContain('unsupported_version');
    expect(codes).toContain('bad_request');
    expect(invalid.map((l) => expected(l).kind)).toContain('protocol_error');
  });

  for (const [index, line] of invalid.entries()) {
    it(`line ${index + 1} is rejected with ${expected(line).code}`, () => {
      const decoded = decodeLine(line);
      expect(decoded).toMatchObject(expected(line));
      if (decoded.kind !== 'request') expect(decoded.message.length).toBeGreaterThan(10);
    });
  }
});
