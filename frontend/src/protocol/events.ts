// The normalized activity events of app/protocol/PROTOCOL.md, as the console receives them (with `seq`), plus
// the host's own pushes (provisioning, sign-in) that travel on the same channel. One discriminated union, so
// every switch over `kind` is checked for exhaustiveness.
import type { AuthState, ProvisionState } from './api';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan' | 'dontAsk' | 'auto';
export const PERMISSION_MODES: readonly PermissionMode[] = [
  'default',
  'acceptEdits',
  'plan',
  'dontAsk',
  'auto',
  'bypassPermissions',
];

export type Verdict = 'allow' | 'allow_always' | 'deny';
export type SettledBy = 'user' | 'policy' | 'interrupt' | 'sidecar_exited';

export interface FileBefore {
  path: string;
  text: string | null;
}

export interface PlanItem {
  id: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  activeForm?: string;
}

interface Base {
  session: string;
  turn?: string;
  time: string;
  seq?: number;
  ephemeral?: boolean;
}

export interface SessionStartedEvent extends Base {
  kind: 'session.started';
  cwd: string;
  model: string;
  permissionMode: PermissionMode;
  resumed: boolean;
  forkedFrom?: string;
}
export interface SessionClosedEvent extends Base {
  kind: 'session.closed';
  reason: 'closed' | 'sidecar_exited' | 'error';
  message?: string;
}
export interface SessionUpdatedEvent extends Base {
  kind: 'session.updated';
  permissionMode?: PermissionMode;
  title?: string;
  model?: string;
  /** What the CLI is doing (requesting, compacting, idle); ephemeral, alone (protocol v2). */
  status?: string;
}
/** Made by the host: a prompt accepted, waiting for its turn (turn.started follows when it runs). */
export interface TurnQueuedEvent extends Base {
  kind: 'turn.queued';
  prompt: string;
}
export interface TurnStartedEvent extends Base {
  kind: 'turn.started';
  prompt: string;
  uuid?: string;
}
export interface TurnCompletedEvent extends Base {
  kind: 'turn.completed';
  result?: string;
  durationMs?: number;
  numTurns?: number;
  costUsd?: number;
  stopReason?: string;
}
export interface TurnFailedEvent extends Base {
  kind: 'turn.failed';
  code?: string;
  message?: string;
  /** The sidecar nests the failure; PROTOCOL.md flattens it. Both are read. */
  error?: { code?: string; message?: string } | string;
}
export interface TurnCanceledEvent extends Base {
  kind: 'turn.canceled';
  disposition: 'interrupted' | 'dequeued';
}
export interface MessageDeltaEvent extends Base {
  kind: 'message.delta';
  messageId: string;
  index: number;
  block: 'text' | 'thinking';
  text: string;
}
export interface MessageCompletedEvent extends Base {
  kind: 'message.completed';
  role: 'assistant' | 'user' | 'thinking';
  messageId?: string;
  uuid?: string;
  text: string;
  parentToolUseId?: string;
}
export interface ToolStartedEvent extends Base {
  kind: 'tool.started';
  toolUseId: string;
  name: string;
  input: Json;
  parentToolUseId?: string;
  fileBefore?: FileBefore;
}
export interface ToolUpdatedEvent extends Base {
  kind: 'tool.updated';
  toolUseId: string;
  elapsedSeconds?: number;
  summary?: string;
}
export interface ToolCompletedEvent extends Base {
  kind: 'tool.completed';
  toolUseId: string;
  name: string;
  output: string;
  structured?: Json;
  fileBefore?: FileBefore;
}
export interface ToolFailedEvent extends Base {
  kind: 'tool.failed';
  toolUseId: string;
  name: string;
  error: string;
}
export interface PermissionRequestedEvent extends Base {
  kind: 'permission.requested';
  requestId: string;
  toolUseId: string;
  toolName: string;
  input: Json;
  title?: string;
  description?: string;
  decisionReason?: string;
  suggestions?: Json[];
}
export interface PermissionSettledEvent extends Base {
  kind: 'permission.settled';
  requestId: string;
  verdict: Verdict;
  by: SettledBy;
  message?: string;
}
export interface PlanUpdatedEvent extends Base {
  kind: 'plan.updated';
  items: PlanItem[];
}
export interface UsageUpdatedEvent extends Base {
  kind: 'usage.updated';
  turnOutputTokens: number;
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheCreationTokens?: number;
  contextWindow?: number;
  contextTokens?: number;
}
export interface ModelResolvedEvent extends Base {
  kind: 'model.resolved';
  model: string;
}
/** Protocol v2: a model this session can switch to (`value` is what setModel takes). */
export interface ModelEntry {
  value: string;
  displayName?: string;
  description?: string;
  resolvedModel?: string;
}
/** Protocol v2: a slash command (name without the slash). */
export interface CommandEntry {
  name: string;
  description?: string;
  argumentHint?: string;
}
export interface ModelsUpdatedEvent extends Base {
  kind: 'models.updated';
  models: ModelEntry[];
}
export interface CommandsUpdatedEvent extends Base {
  kind: 'commands.updated';
  commands: CommandEntry[];
}
export interface ContextUpdatedEvent extends Base {
  kind: 'context.updated';
  totalTokens: number;
  maxTokens?: number;
  percentage?: number;
}
export interface ProtocolErrorEvent extends Base {
  kind: 'protocol.error';
  code: string;
  message: string;
}
export interface UnknownEvent extends Base {
  kind: 'unknown';
  raw: Json;
}

// Host pushes (API.md, "Events"); they carry session "".
export interface ProvisionProgressEvent extends Base {
  kind: 'provision.progress';
  bytes: number;
  total?: number;
  rate?: number;
  source?: string;
}
export interface ProvisionDoneEvent extends Base {
  kind: 'provision.done';
}
export interface ProvisionFailedEvent extends Base {
  kind: 'provision.failed';
  message: string;
  hints?: string[];
}
/** A new sign-in state: `auth` is the whole state (what the Go host pushes); `state` alone is API.md's form. */
export interface AuthChangedEvent extends Base {
  kind: 'auth.changed';
  state?: string;
  auth?: AuthState;
}
/** A whole new provisioning state, as the Go host pushes it (WebSocket `{type:"provision"}`, Wails "baton:provision"). */
export interface ProvisionStateEvent extends Base {
  kind: 'provision.state';
  provisioning: ProvisionState;
}

export type SessionEvent =
  | SessionStartedEvent
  | SessionClosedEvent
  | SessionUpdatedEvent
  | TurnQueuedEvent
  | TurnStartedEvent
  | TurnCompletedEvent
  | TurnFailedEvent
  | TurnCanceledEvent
  | MessageDeltaEvent
  | MessageCompletedEvent
  | ToolStartedEvent
  | ToolUpdatedEvent
  | ToolCompletedEvent
  | ToolFailedEvent
  | PermissionRequestedEvent
  | PermissionSettledEvent
  | PlanUpdatedEvent
  | UsageUpdatedEvent
  | ModelResolvedEvent
  | ModelsUpdatedEvent
  | CommandsUpdatedEvent
  | ContextUpdatedEvent
  | UnknownEvent;

export type HostEvent =
  | ProtocolErrorEvent
  | ProvisionProgressEvent
  | ProvisionDoneEvent
  | ProvisionFailedEvent
  | ProvisionStateEvent
  | AuthChangedEvent;

/** A kind this console does not know yet: shown as a raw row, never dropped. */
export interface UnrecognizedEvent extends Base {
  kind: `unrecognized:${string}`;
  original: Json;
}

export type ConsoleEvent = SessionEvent | HostEvent | UnrecognizedEvent;

export type SessionEventKind = SessionEvent['kind'];

const SESSION_KINDS: ReadonlySet<string> = new Set<SessionEventKind>([
  'session.started',
  'session.closed',
  'session.updated',
  'turn.queued',
  'turn.started',
  'turn.completed',
  'turn.failed',
  'turn.canceled',
  'message.delta',
  'message.completed',
  'tool.started',
  'tool.updated',
  'tool.completed',
  'tool.failed',
  'permission.requested',
  'permission.settled',
  'plan.updated',
  'usage.updated',
  'model.resolved',
  'models.updated',
  'commands.updated',
  'context.updated',
  'unknown',
]);

const HOST_KINDS: ReadonlySet<string> = new Set<HostEvent['kind']>([
  'protocol.error',
  'provision.progress',
  'provision.done',
  'provision.failed',
  'provision.state',
  'auth.changed',
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

/**
 * Fields each kind always has. The Go host encodes events with `omitempty`, so an empty text, an empty plan or
 * an empty tool input arrives as a missing field; the console reads them as their empty values.
 */
const DEFAULTS: Partial<Record<string, Record<string, Json>>> = {
  'session.started': { cwd: '', model: 'default', permissionMode: 'default', resumed: false },
  'turn.queued': { prompt: '' },
  'turn.started': { prompt: '' },
  'message.delta': { messageId: '', index: 0, block: 'text', text: '' },
  'message.completed': { role: 'assistant', text: '' },
  'tool.started': { name: '', input: {} },
  'tool.completed': { name: '', output: '' },
  'tool.failed': { name: '', error: '' },
  'permission.requested': { toolUseId: '', toolName: '', input: {}, suggestions: [] },
  'permission.settled': { verdict: 'deny', by: 'user' },
  'plan.updated': { items: [] },
  'usage.updated': { turnOutputTokens: 0 },
  'model.resolved': { model: '' },
  'models.updated': { models: [] },
  'commands.updated': { commands: [] },
  'context.updated': { totalTokens: 0 },
  'protocol.error': { code: 'internal', message: '' },
  'turn.canceled': { disposition: 'interrupted' },
  'session.closed': { reason: 'closed' },
  unknown: { raw: null },
  'provision.progress': { bytes: 0 },
  'provision.failed': { message: '' },
};

/** The Go host's whole-state pushes (sign-in, provisioning), as events of this union. */
export function hostStateEvent(type: 'auth' | 'provision', payload: unknown): ConsoleEvent | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const time = new Date().toISOString();
  if (type === 'auth') return { kind: 'auth.changed', session: '', time, auth: payload as AuthState };
  return { kind: 'provision.state', session: '', time, provisioning: payload as ProvisionState };
}

/**
 * Reads one pushed event from the wire. The transport is trusted to deliver objects; this only makes sure
 * the fields every consumer relies on exist, and turns a kind this build does not know into a raw row.
 */
export function readEvent(value: unknown): ConsoleEvent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const obj = value as Record<string, unknown>;
  if (typeof obj['kind'] !== 'string') return undefined;
  const session = typeof obj['session'] === 'string' ? obj['session'] : '';
  const time = typeof obj['time'] === 'string' ? obj['time'] : new Date().toISOString();
  const kind = obj['kind'];
  if (SESSION_KINDS.has(kind) || HOST_KINDS.has(kind)) {
    const defaults = DEFAULTS[kind] ?? {};
    const filled: Record<string, unknown> = { ...obj, session, time };
    for (const [field, value] of Object.entries(defaults)) if (filled[field] === undefined || filled[field] === null) filled[field] = value;
    return filled as unknown as ConsoleEvent;
  }
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
