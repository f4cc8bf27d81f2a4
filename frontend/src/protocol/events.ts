// The normalized activity events of app/protocol/PROTOCOL.md, as the console receives them (with `seq`), plus
// the host's own pushes (provisioning, sign-in) that travel on the same channel. One discriminated union, so
// every switch over `kind` is checked for exhaustiveness.
import type { AuthState, IndexState, ProvisionState } from './hostState';
import type { ChangesUpdate } from './api.gen';
import type { Json } from './wire.gen';

import { type PermissionMode, PERMISSION_MODE_VALUES, type ProtocolErrorEvent, WIRE_EVENT_KINDS, type WireEvent } from './wire.gen';

// The event shapes are generated from the wire's one schema (wire.gen.ts); this file adds what only the console
// has: the host's whole-state pushes, kinds this build does not know, and the order modes are offered in.
export type {
  CanceledDisposition,
  CommandEntry,
  CommandsUpdatedEvent,
  ContextUpdatedEvent,
  EventBase,
  FileBefore,
  Json,
  MessageCompletedEvent,
  MessageDeltaEvent,
  ModelEntry,
  ModelResolvedEvent,
  ModelsUpdatedEvent,
  PermissionMode,
  PermissionRequestedEvent,
  PermissionSettledEvent,
  PlanItem,
  PlanUpdatedEvent,
  ProtocolErrorEvent,
  QuestionAnswer,
  RetryInfo,
  SessionActivity,
  SessionClosedEvent,
  SessionStartedEvent,
  SessionUpdatedEvent,
  SettledBy,
  ToolCompletedEvent,
  ToolFailedEvent,
  ToolKind,
  ToolStartedEvent,
  ToolUpdatedEvent,
  TurnCanceledEvent,
  TurnCompletedEvent,
  TurnFailedEvent,
  TurnFailureCode,
  TurnQueuedEvent,
  TurnStartedEvent,
  UnknownEvent,
  UsageUpdatedEvent,
  Verdict,
  WireEvent,
} from './wire.gen';

/** The modes in the order the console offers them (bypass last); every mode of the wire, checked below. */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'auto', 'bypassPermissions'] as const satisfies readonly PermissionMode[];
// A mode added to the schema and not offered here fails the typecheck.
const _everyModeOffered: readonly (typeof PERMISSION_MODES)[number][] = PERMISSION_MODE_VALUES;
void _everyModeOffered;

interface Base {
  session: string;
  turn?: string;
  time: string;
  seq?: number;
  ephemeral?: boolean;
}

/** Every kind of the wire except protocol.error, which is about the runtime rather than a session. */
export type SessionEvent = Exclude<WireEvent, ProtocolErrorEvent>;

/** A new sign-in state: the whole state, as the Go host pushes it (WebSocket `{type:"auth"}`, Wails "baton:auth"). */
export interface AuthChangedEvent extends Base {
  kind: 'auth.changed';
  auth: AuthState;
}
/** A whole new provisioning state, as the Go host pushes it (WebSocket `{type:"provision"}`, Wails "baton:provision"). */
export interface ProvisionStateEvent extends Base {
  kind: 'provision.state';
  provisioning: ProvisionState;
}

/** A whole new state of the session index, as the Go host pushes it (WebSocket `{type:"index"}`, Wails "baton:index"). */
export interface IndexStateEvent extends Base {
  kind: 'index.state';
  index: IndexState;
}

/** Stored sessions changed outside this Baton (WebSocket `{type:"sessions"}`, Wails "baton:sessions"): list them again. */
export interface SessionsChangedEvent extends Base {
  kind: 'sessions.changed';
}

/** An open session's change counts, pushed as its folder changes (WebSocket `{type:"changes"}`, Wails "baton:changes").
 * Its own session is the payload's: the event is the host's, so `session` stays empty. */
export interface ChangesUpdatedEvent extends Base {
  kind: 'changes.updated';
  changes: ChangesUpdate;
}

export type HostEvent = ProtocolErrorEvent | ProvisionStateEvent | AuthChangedEvent | IndexStateEvent | SessionsChangedEvent | ChangesUpdatedEvent;

/** A kind this console does not know yet: shown as a raw row, never dropped. */
export interface UnrecognizedEvent extends Base {
  kind: `unrecognized:${string}`;
  original: Json;
}

export type ConsoleEvent = SessionEvent | HostEvent | UnrecognizedEvent;

export type SessionEventKind = SessionEvent['kind'];

const SESSION_KINDS: ReadonlySet<string> = new Set<string>(WIRE_EVENT_KINDS.filter((k) => k !== 'protocol.error'));

const HOST_KINDS: ReadonlySet<string> = new Set<HostEvent['kind']>([
  'protocol.error',
  'provision.state',
  'auth.changed',
  'index.state',
  'sessions.changed',
  'changes.updated',
]);

export function isSessionEvent(ev: ConsoleEvent): ev is SessionEvent {
  return SESSION_KINDS.has(ev.kind);
}

export function isUnrecognized(ev: ConsoleEvent): ev is UnrecognizedEvent {
  return ev.kind.startsWith('unrecognized:');
}

export function isHostEvent(ev: ConsoleEvent): ev is HostEvent {
  return HOST_KINDS.has(ev.kind);
}

/** The host's whole-state pushes, by their WebSocket type. */
export type HostPush = 'auth' | 'provision' | 'index' | 'sessions' | 'changes';
const HOST_PUSHES: ReadonlySet<string> = new Set<HostPush>(['auth', 'provision', 'index', 'sessions', 'changes']);

/** Whether a WebSocket message's type is one of the host's whole-state pushes. */
export function isHostPush(type: unknown): type is HostPush {
  return typeof type === 'string' && HOST_PUSHES.has(type);
}

/** The Go host's pushes (sign-in, provisioning, the index, sessions changed), as events of this union. */
export function hostStateEvent(type: HostPush, payload: unknown): ConsoleEvent | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const time = new Date().toISOString();
  if (type === 'sessions') return { kind: 'sessions.changed', session: '', time };
  if (type === 'changes') return { kind: 'changes.updated', session: '', time, changes: payload as ChangesUpdate };
  if (type === 'auth') return { kind: 'auth.changed', session: '', time, auth: payload as AuthState };
  if (type === 'index') return { kind: 'index.state', session: '', time, index: payload as IndexState };
  return { kind: 'provision.state', session: '', time, provisioning: payload as ProvisionState };
}

/**
 * Reads one pushed event from the wire. The transport is trusted to deliver objects; a kind this build does not
 * know becomes a raw row (never dropped).
 */
export function readEvent(value: unknown): ConsoleEvent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const obj = value as Record<string, unknown>;
  if (typeof obj['kind'] !== 'string') return undefined;
  const session = typeof obj['session'] === 'string' ? obj['session'] : '';
  const time = typeof obj['time'] === 'string' ? obj['time'] : new Date().toISOString();
  const kind = obj['kind'];
  // The host writes every field a kind requires, empty ones included (its encoding is generated from the same
  // schema), so a known kind is taken as it is.
  if (SESSION_KINDS.has(kind) || HOST_KINDS.has(kind)) return { ...obj, session, time } as unknown as ConsoleEvent;
  const unrecognized: UnrecognizedEvent = { kind: `unrecognized:${kind}`, session, time, original: obj as Json };
  if (typeof obj['turn'] === 'string') unrecognized.turn = obj['turn'];
  if (typeof obj['seq'] === 'number') unrecognized.seq = obj['seq'];
  return unrecognized;
}

/** Events inside a call's result (a snapshot's sessions, a history page), read like pushed ones. */
export function readEvents(values: unknown): ConsoleEvent[] {
  if (!Array.isArray(values)) return [];
  const out: ConsoleEvent[] = [];
  for (const value of values) {
    const ev = readEvent(value);
    if (ev !== undefined) out.push(ev);
  }
  return out;
}
