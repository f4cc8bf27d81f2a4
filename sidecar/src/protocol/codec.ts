// Turns one input line into a validated request or into the rejection PROTOCOL.md prescribes, and builds the
// output lines (replies and event lines).
import { z } from 'zod';
import type { ErrorCode } from './errors.js';
import type { Event } from './events.js';
import { RawJson } from './rawJson.js';
import { type Request, REQUEST_TYPES, requestSchema } from './schemas.js';
import { PROTOCOL_VERSION } from './version.js';

export type Decoded =
  | { kind: 'request'; request: Request }
  /** Answer with an error reply under this id. */
  | { kind: 'reject'; id: string; code: ErrorCode; message: string }
  /** No id could be read: report with a protocol.error event. */
  | { kind: 'protocol_error'; code: ErrorCode; message: string };

/** Any JSON object: enough to read `v`, `id` and `type` before the request is validated. */
const envelopeSchema = z.record(z.string(), z.unknown());

export function decodeLine(line: string): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'protocol_error', code: 'bad_request', message: 'a line was not valid JSON' };
  }
  const envelope = envelopeSchema.safeParse(value);
  if (!envelope.success) {
    return { kind: 'protocol_error', code: 'bad_request', message: 'a line was not a JSON object' };
  }
  const fields = envelope.data;
  const id = typeof fields['id'] === 'string' && fields['id'] !== '' ? fields['id'] : undefined;
  const reject = (code: ErrorCode, message: string): Decoded =>
    id === undefined ? { kind: 'protocol_error', code, message } : { kind: 'reject', id, code, message };

  if (!('v' in fields)) {
    return reject('unsupported_version', `the line carries no protocol version "v"; this sidecar speaks version ${PROTOCOL_VERSION}`);
  }
  if (fields['v'] !== PROTOCOL_VERSION) {
    return reject('unsupported_version', `protocol version ${JSON.stringify(fields['v'])} is not supported; this sidecar speaks version ${PROTOCOL_VERSION}`);
  }
  const parsed = requestSchema.safeParse(value);
  if (!parsed.success) return reject('bad_request', describeInvalid(fields['type'], parsed.error));
  return { kind: 'request', request: parsed.data };
}

function describeInvalid(type: unknown, error: z.ZodError): string {
  if (typeof type !== 'string' || !(REQUEST_TYPES as readonly string[]).includes(type)) {
    return `unknown request type ${JSON.stringify(type)}; expected one of ${REQUEST_TYPES.join(', ')}`;
  }
  const problems = error.issues.slice(0, 3).map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message));
  return `invalid ${type} request: ${problems.join('; ')}`;
}

/** A line the sidecar writes. Ok payloads are typed per request by the dispatcher (OkPayload). */
export type WireLine =
  | { v: typeof PROTOCOL_VERSION; id: string; type: 'ok'; payload: object }
  | { v: typeof PROTOCOL_VERSION; id: string; type: 'error'; error: { code: ErrorCode; message: string } }
  | { v: typeof PROTOCOL_VERSION; type: 'event'; event: Event };

export function okLine(id: string, payload: object): WireLine {
  return { v: PROTOCOL_VERSION, id, type: 'ok', payload };
}

/** A line already serialised, in parts written one after the other (its newline included): the line writer
 * writes it as it is. */
export class SerialisedLine {
  constructor(readonly parts: readonly (string | Uint8Array)[]) {}
}

/** The ok reply to a request: okLine's, or for a payload already serialised the same bytes around it. */
export function okReply(id: string, payload: object): WireLine | SerialisedLine {
  if (!(payload instanceof RawJson)) return okLine(id, payload);
  // okLine's keys in its order.
  return new SerialisedLine([`{"v":${JSON.stringify(PROTOCOL_VERSION)},"id":${JSON.stringify(id)},"type":"ok","payload":`, payload.bytes, '}\n']);
}

export function errorLine(id: string, code: ErrorCode, message: string): WireLine {
  return { v: PROTOCOL_VERSION, id, type: 'error', error: { code, message } };
}

export function eventLine(event: Event): WireLine {
  return { v: PROTOCOL_VERSION, type: 'event', event };
}
