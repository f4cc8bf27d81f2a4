// Error codes of the wire (PROTOCOL.md) and the failure type request handlers throw to produce an error reply.

export const ERROR_CODES = [
  'unsupported_version',
  'bad_request',
  'line_too_long',
  'unknown_session',
  'session_exists',
  'session_not_found',
  'unknown_turn',
  'unknown_request',
  'sdk_error',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A failure that becomes an `error` reply with this code and a message fit for a person. */
export class ProtocolFailure extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ProtocolFailure';
    this.code = code;
  }
}
