// What the runtime needs from whatever runs sessions: the SDK (session/sdkBackend.ts) or the deterministic
// test driver (driver/testDriver.ts). Both satisfy these shapes structurally, without importing the runtime.
import type { HistoryPage } from '../history/history.js';
import type { EmitEvent, ModelEntry, PermissionMode, Verdict } from '../protocol/events.js';
import type {
  CancelBudgets,
  CancelReply,
  DiscoverModelsPayload,
  HistoryPayload,
  ListSessionsPayload,
  OkPayload,
  SessionInfo,
  StartPayload,
} from '../protocol/schemas.js';

export interface SessionHandle {
  exec(turn: string, prompt: string): { queued: boolean };
  cancel(turn: string | undefined, budgets: CancelBudgets): Promise<CancelReply>;
  /** Steers the running turn; guided false when no turn runs in the SDK (nothing was sent). */
  guide(prompt: string): Promise<{ guided: boolean; turn?: string }>;
  permission(requestId: string, verdict: Verdict, message: string | undefined, by: 'user' | 'policy'): { settled: boolean };
  setModel(model: string): Promise<void>;
  setPermissionMode(mode: PermissionMode): Promise<PermissionMode>;
  rewindFiles(message: string, dryRun: boolean): Promise<OkPayload<'rewind_files'>>;
  /** The host's answer to a tool.called event of a restricted run. */
  toolResult(callId: string, output: string, isError: boolean): { settled: boolean };
  /** Stops one background task (its task.completed follows). */
  stopTask(taskId: string): Promise<Record<string, never>>;
  /** Sends running foreground work to the background; false when nothing matched. */
  backgroundTask(toolUseId: string | undefined): Promise<{ backgrounded: boolean }>;
  /** Resolves after the session shut down and emitted session.closed. */
  close(): Promise<void>;
  /** Called once the start reply went out (side reads begin only then). */
  opened?(): void;
}

export interface StartContext {
  emit: EmitEvent;
  /** Called once when the session ended, by close or by failing. */
  onEnded: () => void;
}

export interface Backend {
  start(payload: StartPayload, context: StartContext): Promise<{ handle: SessionHandle; executable: string }>;
  listSessions(payload: ListSessionsPayload): Promise<SessionInfo[]>;
  history(payload: HistoryPayload): Promise<HistoryPage>;
  discoverModels(payload: DiscoverModelsPayload): Promise<ModelEntry[]>;
  /** Waits for background work that outlives its reply (a discovery query being torn down). */
  shutdown?(): Promise<void>;
}
