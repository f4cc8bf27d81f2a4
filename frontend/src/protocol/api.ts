// The console API (app/console/API.md, version 1): every call's params and result, keyed by method name, so
// `transport.call('startSession', {...})` is checked end to end.
import type { ConsoleEvent, ModelEntry, PermissionMode, SessionEvent, Verdict } from './events';
import type { AuthState, ProvisionState } from './hostState';
import type { CancelDisposition, CancelPhase, ConsoleErrorCode, ConsoleMethod, QuestionAnswer, SessionState as SleepState } from './wire.gen';

export interface Capabilities {
  transport: 'wails' | 'websocket';
  folderPicker: boolean;
  notifications: boolean;
  version: string;
}

export interface LiveSession {
  session: string;
  cwd: string;
  requestedModel: string;
  effectiveModel: string;
  permissionMode: PermissionMode;
  /** asleep: the session holds no process; its next prompt or setting wakes it. */
  state?: SleepState;
  events: ConsoleEvent[];
}

export interface Snapshot {
  sessions: LiveSession[];
  provisioning: ProvisionState;
  auth: AuthState;
  /** How long an open session may sit idle before it sleeps, in seconds (0: never). */
  sessionIdleSeconds?: number;
}

export interface SessionInfo {
  session: string;
  title: string;
  cwd?: string;
  lastModified: number;
  createdAt?: number;
  gitBranch?: string;
  firstPrompt?: string;
  live: boolean;
  /** Baton's own marks (setSessionFlags), kept in its data dir. */
  pinned?: boolean;
  archived?: boolean;
  /** The session a fork started in Baton was made from. */
  forkOf?: string;
}

/** One folder that completes a typed path (completePath). */
export interface PathEntry {
  name: string;
  path: string;
}

export interface StartSessionParams {
  cwd: string;
  model?: string;
  permissionMode?: PermissionMode;
  resume?: string;
  forkFrom?: string;
  at?: string;
}

export interface RewindFilesResult {
  canRewind: boolean;
  error?: string;
  filesChanged?: string[];
  insertions?: number;
  deletions?: number;
}

export interface HistoryPage {
  events: SessionEvent[];
  total: number;
  start: number;
}

export interface ApiMethods {
  capabilities: { params: Record<string, never>; result: Capabilities };
  snapshot: { params: Record<string, never>; result: Snapshot };
  pickFolder: { params: Record<string, never>; result: { path: string | null } };
  startSession: { params: StartSessionParams; result: { session: string } };
  sendPrompt: { params: { session: string; prompt: string }; result: { turn: string; queued: boolean } };
  /** Exactly one disposition; budgets default to the host's (3000 ms each; interruptBudgetMs 0 stops at once). */
  cancelTurn: {
    params: { session: string; turn?: string; interruptBudgetMs?: number; drainBudgetMs?: number };
    result: { disposition: CancelDisposition; turn?: string; phase: CancelPhase; forced: boolean };
  };
  /** Steers the running turn (interrupts its response, sends prompt on the same turn); guided false: no turn ran,
   * so it was sent as an ordinary prompt with its own turn. */
  guideTurn: { params: { session: string; prompt: string }; result: { turn: string; guided: boolean } };
  /** AskUserQuestion's answers, or the mode an approved plan continues in, come with an allow. A request already
   * settled changes nothing: settled false, with the answer recorded then. */
  answerPermission: {
    params: { session: string; requestId: string; verdict: Verdict; message?: string; answers?: QuestionAnswer[]; mode?: PermissionMode };
    result: { settled: boolean; verdict?: Verdict; answers?: QuestionAnswer[]; mode?: PermissionMode };
  };
  setModel: { params: { session: string; model: string }; result: Record<string, never> };
  setPermissionMode: { params: { session: string; mode: PermissionMode }; result: { mode: PermissionMode } };
  closeSession: { params: { session: string }; result: Record<string, never> };
  listSessions: { params: { cwd?: string; limit?: number }; result: { sessions: SessionInfo[] } };
  history: {
    params: { session: string; cwd?: string; before?: number; limit?: number };
    result: HistoryPage;
  };
  rewindFiles: { params: { session: string; message: string; dryRun: boolean }; result: RewindFilesResult };
  rewindConversation: { params: { session: string; message: string }; result: { session: string } };
  /** Native notification (only where capabilities.notifications). */
  notify: { params: { title: string; body: string }; result: Record<string, never> };
  /** The provisioning screen's Retry. */
  retryProvision: { params: Record<string, never>; result: Record<string, never> };
  /** Opens a terminal running Claude Code's own sign-in (fails `unavailable` where none can be opened). */
  signIn: { params: Record<string, never>; result: Record<string, never> };
  /** The models the signed-in account offers, for a session not yet open (cached per account by the host). */
  listModels: { params: Record<string, never>; result: { models: ModelEntry[]; account: string } };
  /** The session's own title (Claude Code's custom title); the result is the title as stored. */
  renameSession: { params: { session: string; title: string; cwd?: string }; result: { title: string } };
  /** Pins or archives a session (Baton's own marks); an absent field is left as it is. */
  setSessionFlags: { params: { session: string; pinned?: boolean; archived?: boolean }; result: { pinned: boolean; archived: boolean } };
  /** The folders that complete a typed path, read from the host's file system (one folder, at most 50 answers). */
  completePath: { params: { path: string }; result: { dir: string; entries: PathEntry[]; truncated: boolean } };
  /** How long an open session may sit idle before it sleeps (0: never), for this Baton's run. */
  setSessionIdle: { params: { seconds: number }; result: { seconds: number } };
  /** Stops one background task; its task.completed {taskEnd: "stopped"} follows. */
  stopTask: { params: { session: string; taskId: string }; result: Record<string, never> };
  /** Moves a running Bash command or agent (all foreground work without toolUseId) to the background. */
  sendToBackground: { params: { session: string; toolUseId?: string }; result: { backgrounded: boolean } };
}

export type Method = keyof ApiMethods;

// The method set is console.json's list (generated into wire.gen.ts; the Go host is checked against the same
// list): a call added or removed on one side only fails the typecheck here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _methodsMatchConsoleSchema: Same<Method, ConsoleMethod> = true;
void _methodsMatchConsoleSchema;
export type Params<M extends Method> = ApiMethods[M]['params'];
export type Result<M extends Method> = ApiMethods[M]['result'];

/** The host's codes (console.json), and `disconnected`, which the transport makes itself. */
export type ApiErrorCode = ConsoleErrorCode | 'disconnected';

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
