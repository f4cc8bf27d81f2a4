// The console API (app/console/API.md, version 1): every call's params and result are generated from its contract
// (api.gen.ts, from sidecar/src/protocol/console.ts), keyed by method name, so `transport.call('startSession',
// {...})` is checked end to end. This file keeps what only the console adds: the names it reads them by and the
// error it rejects with.
import type * as gen from './api.gen';
import type { ConsoleEvent, SessionEvent } from './events';

export type { Capabilities, PathEntry, SearchHit, SessionInfo, Settings, Theme, WorktreeDefaults } from './api.gen';

// The console reads every event it receives as a ConsoleEvent (events.ts readEvent), so the calls' results carry
// those.
export type ApiMethods = gen.ApiMethods<ConsoleEvent>;
export type ConsolePushes = gen.ConsolePushes<ConsoleEvent>;
export type LiveSession = gen.LiveSession<ConsoleEvent>;
export type Snapshot = gen.Snapshot<ConsoleEvent>;
export type StartSessionParams = gen.StartParams;
export type RewindFilesResult = gen.RewindFilesReply;

/** A history page as the store keeps it: its events read as session events (protocol.error never lands there). */
export type HistoryPage = gen.HistoryResult<SessionEvent>;

export type Method = keyof ApiMethods;
export type Params<M extends Method> = ApiMethods[M]['params'];
export type Result<M extends Method> = ApiMethods[M]['result'];

/** The host's codes (the contract's), and `disconnected`, which the transport makes itself. */
export type ApiErrorCode = gen.ConsoleErrorCode | 'disconnected';

/** A failed call. `message` is written for a person: show it as is. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode | string,
    message: string,
    readonly method?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Reads `{code, message}` out of whatever a transport rejected with. */
export function toApiError(err: unknown, method?: string): ApiError {
  if (err instanceof ApiError) return err;
  if (typeof err === 'object' && err !== null) {
    const obj = err as Record<string, unknown>;
    const message = typeof obj['message'] === 'string' ? obj['message'] : undefined;
    const code = typeof obj['code'] === 'string' ? obj['code'] : 'internal';
    if (message !== undefined) return new ApiError(code, message, method);
  }
  if (typeof err === 'string') {
    // Wails rejects with the Go error's text; the host may encode {code, message} in it.
    try {
      const parsed: unknown = JSON.parse(err);
      if (typeof parsed === 'object' && parsed !== null) return toApiError(parsed, method);
    } catch {
      // plain text: fall through
    }
    return new ApiError('internal', err, method);
  }
  return new ApiError('internal', String(err), method);
}
