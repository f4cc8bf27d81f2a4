// Runs sessions, lists and history through the real Claude Agent SDK.
import { getSessionInfo, getSessionMessages, query } from '@anthropic-ai/claude-agent-sdk';
import { readGoalStatuses, watchTranscript } from '../history/goalStatus.js';
import { type HistoryPage, readHistory, readMessageParent } from '../history/history.js';
import { forkStoredSession, readSessions, renameStoredSession } from '../history/sessions.js';
import { warmStreamPath } from '../mapper/warmUp.js';
import { diag, shortError } from '../util/diagnostics.js';
import type { EmitEvent, ModelEntry } from '../protocol/events.js';
import type {
  DiscoverModelsPayload,
  ForkSessionPayload,
  HistoryPayload,
  ListSessionsPayload,
  RenameSessionPayload,
  MessageParentPayload,
  OkPayload,
  SessionInfo,
  StartPayload,
} from '../protocol/schemas.js';
import { discoverModels } from './discovery.js';
import { resolveSdkBinary, selectExecutable } from './executable.js';
import { SdkSession } from './session.js';
import { settler } from './settle.js';
import { runWarmUp, type WarmUpSteps } from './warmUpSteps.js';

export class SdkBackend {
  /** Discovery queries still being torn down after their reply. */
  private readonly closing = new Set<Promise<void>>();
  /** The streaming path was warmed (mapper/warmUp.ts): once per process, at its first session. */
  private warmed = false;

  /** before and after run around the streaming path's warm-up (warmUpSteps.ts). */
  constructor(
    private readonly now: () => Date,
    private readonly warmUpSteps: Pick<WarmUpSteps, 'before' | 'after'> = { before: async () => {}, after: () => {} },
  ) {}

  async start(payload: StartPayload, context: { emit: EmitEvent; onEnded: () => void }): Promise<{ handle: SdkSession; executable: string }> {
    const choice = selectExecutable({ env: process.env, hostPath: payload.executable, resolveSdkBinary });
    const settling = settler(context.emit);
    const opening = SdkSession.open({
      start: payload,
      executable: choice.path,
      emit: settling.emit,
      revoked: settling.revoked,
      now: this.now,
      query,
      env: process.env,
      // The CLI's diagnostics stay on the sidecar's stderr, never stdout.
      stderr: (data) => process.stderr.write(data),
      onEnded: context.onEnded,
      sessionInfo: getSessionInfo,
      transcript: getSessionMessages,
      goalStatuses: { read: (session) => readGoalStatuses(session), watch: (session, onChange) => watchTranscript(session, onChange) },
      ...budgetsFrom(process.env),
    });
    if (!this.warmed) {
      this.warmed = true;
      // While claude starts, which takes far longer.
      setImmediate(() => void runWarmUp({ ...this.warmUpSteps, warm: () => warmUp(this.now) }));
    }
    const handle = await opening;
    return { handle, executable: choice.path };
  }

  listSessions(payload: ListSessionsPayload): Promise<SessionInfo[]> {
    return readSessions(payload);
  }

  renameSession(payload: RenameSessionPayload): Promise<void> {
    return renameStoredSession(payload);
  }

  history(payload: HistoryPayload): Promise<HistoryPage> {
    return readHistory(payload, this.now);
  }

  messageParent(payload: MessageParentPayload): Promise<OkPayload<'message_parent'>> {
    return readMessageParent(payload);
  }

  forkSession(payload: ForkSessionPayload): Promise<OkPayload<'fork_session'>> {
    return forkStoredSession(payload);
  }

  async discoverModels(payload: DiscoverModelsPayload): Promise<ModelEntry[]> {
    const choice = selectExecutable({ env: process.env, hostPath: payload.executable, resolveSdkBinary });
    const found = await discoverModels({
      cwd: payload.cwd,
      executable: choice.path,
      env: process.env,
      query,
      stderr: (data) => process.stderr.write(data),
    });
    const closed = found.closed.finally(() => this.closing.delete(closed));
    this.closing.add(closed);
    return found.models;
  }

  async shutdown(): Promise<void> {
    await Promise.allSettled([...this.closing]);
  }
}

/**
 * Budgets the environment may shorten, so tests never wait them out: BATON_CONTINUATION_DELAY_MS (the 30 s wait for
 * a follow-up after a background task) and BATON_GUIDE_ANSWER_BUDGET_MS (the 60 s a guided turn may show nothing of
 * its answer). A value that is not a positive integer keeps the default.
 */
function budgetsFrom(env: NodeJS.ProcessEnv): { continuationDelayMs?: number; guideAnswerBudgetMs?: number } {
  const continuationDelayMs = positiveMs(env['BATON_CONTINUATION_DELAY_MS']);
  const guideAnswerBudgetMs = positiveMs(env['BATON_GUIDE_ANSWER_BUDGET_MS']);
  return {
    ...(continuationDelayMs !== undefined ? { continuationDelayMs } : {}),
    ...(guideAnswerBudgetMs !== undefined ? { guideAnswerBudgetMs } : {}),
  };
}

function positiveMs(raw: string | undefined): number | undefined {
  const ms = raw !== undefined ? Number(raw) : Number.NaN;
  return Number.isInteger(ms) && ms > 0 ? ms : undefined;
}

/** A warm-up that fails (an SDK shape it does not expect) costs only its gain: said on stderr, never thrown. */
function warmUp(now: () => Date): void {
  try {
    warmStreamPath(now);
  } catch (error) {
    diag(`warming the streaming path failed: ${shortError(error)}`);
  }
}
