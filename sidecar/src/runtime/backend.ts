// What the runtime needs from whatever runs sessions: the SDK (session/sdkBackend.ts) or the deterministic
// test driver (driver/testDriver.ts). Both satisfy these shapes structurally, without importing the runtime.
import type { HistoryPage } from '../history/history.js';
import type { EmitEvent, ModelEntry, PermissionMode, QuestionAnswer, Verdict } from '../protocol/events.js';
import type {
  CancelBudgets,
  CancelReply,
  DiscoverModelsPayload,
  ForkSessionPayload,
  HistoryPayload,
  ListSessionsPayload,
  RenameSessionPayload,
  MessageParentPayload,
  OkPayload,
  PromptImage,
  SessionInfo,
  StartPayload,
} from '../protocol/schemas.js';

export interface SessionHandle {
  /** images (pasted into the prompt) go before its text as image blocks. */
  exec(turn: string, prompt: string, images?: PromptImage[]): { queued: boolean };
  cancel(turn: string | undefined, budgets: CancelBudgets): Promise<CancelReply>;
  /** Steers the running turn; guided false when no turn runs in the SDK (nothing was sent). */
  guide(prompt: string, images?: PromptImage[]): Promise<{ guided: boolean; turn?: string }>;
  /** Settles once; a repeated or late answer gets the recorded one (settled false). */
  permission(requestId: string, verdict: Verdict, by: 'user' | 'policy', detail: PermissionDetail): OkPayload<'permission'>;
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

/** What an answer carries beyond its verdict: a denial's message, AskUserQuestion's answers, a plan's mode. */
export interface PermissionDetail {
  message?: string | undefined;
  answers?: QuestionAnswer[] | undefined;
  mode?: PermissionMode | undefined;
}

export interface StartContext {
  emit: EmitEvent;
  /** Called once when the session ended, by close or by failing. */
  onEnded: () => void;
}

export interface Backend {
  start(payload: StartPayload, context: StartContext): Promise<{ handle: SessionHandle; executable: string }>;
  listSessions(payload: ListSessionsPayload): Promise<SessionInfo[]>;
  /** Sets a stored session's own title. */
  renameSession(payload: RenameSessionPayload): Promise<void>;
  history(payload: HistoryPayload): Promise<HistoryPage>;
  /** Which message `message` follows in its session's conversation. */
  messageParent(payload: MessageParentPayload): Promise<OkPayload<'message_parent'>>;
  /** A new session holding the conversation up to a message (how a rewind reaches before a /compact). */
  forkSession(payload: ForkSessionPayload): Promise<OkPayload<'fork_session'>>;
  discoverModels(payload: DiscoverModelsPayload): Promise<ModelEntry[]>;
  /** Waits for background work that outlives its reply (a discovery query being torn down). */
  shutdown?(): Promise<void>;
}
