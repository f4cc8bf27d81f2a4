// One open Claude Code session: one SDK query() fed by an input queue that stays open across turns. Prompts
// wait in the TurnScheduler until the running turn's result arrived; the mapper turns SDK messages into events.
import { randomUUID } from 'node:crypto';
import type { CanUseTool, Options, Query, SDKMessage, SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { Mapper } from '../mapper/mapper.js';
import { ProtocolFailure } from '../protocol/errors.js';
import {
  type EmitEvent,
  type EventBody,
  type PermissionMode,
  permissionModeSchema,
  stampEvent,
  type Verdict,
} from '../protocol/events.js';
import type { CancelDisposition, OkPayload, StartPayload } from '../protocol/schemas.js';
import { assertNever } from '../util/assertNever.js';
import { diag, shortError } from '../util/diagnostics.js';
import { ClaudeProcess } from './claudeProcess.js';
import { HostToolBroker, hostToolServer } from './hostTools.js';
import { InputQueue } from './inputQueue.js';
import { PermissionBroker } from './permissions.js';
import { buildQueryOptions } from './queryOptions.js';
import { buildRestrictedOptions, isRestricted } from './restrictedOptions.js';
import { type SessionInfoFn, SideReader } from './sideReads.js';
import { type Turn, TurnScheduler } from './turns.js';

type RewindResult = OkPayload<'rewind_files'>;
/** Who decided a permission request the host answered. */
export type DecidedBy = 'user' | 'policy';

export type QueryFn = (params: { prompt: AsyncIterable<SDKUserMessage>; options: Options }) => Query;

export interface SessionDeps {
  start: StartPayload;
  executable: string;
  emit: EmitEvent;
  now: () => Date;
  query: QueryFn;
  env: NodeJS.ProcessEnv;
  /** Where the CLI's stderr goes (the sidecar's stderr). */
  stderr: (data: string) => void;
  /** The session ended (closed or failed); the registry forgets it. */
  onEnded: () => void;
  /** Reads the session's stored info (its title) for the side reads. */
  sessionInfo: SessionInfoFn;
}

// The CLI reports its mode in the initialize response; the field is not in the SDK's types, so it is read
// defensively and the session falls back to "default" when it is missing.
const initializeModeSchema = z.looseObject({ current_permission_mode: permissionModeSchema });

export class SdkSession {
  readonly id: string;
  private readonly mapper: Mapper;
  private readonly permissions: PermissionBroker;
  private readonly hostTools: HostToolBroker;
  private readonly turns = new TurnScheduler();
  private readonly input = new InputQueue<SDKUserMessage>();
  private readonly claude: ClaudeProcess;
  private query: Query | undefined;
  private sideReads: SideReader | undefined;
  private loop: Promise<void> = Promise.resolve();
  private started = false;
  private ending = false;
  private closing: Promise<void> | undefined;
  private startFailure: ((error: unknown) => void) | undefined;
  private early: SDKMessage[] = [];

  private constructor(private readonly deps: SessionDeps) {
    this.id = deps.start.session;
    this.mapper = new Mapper(this.id, deps.now);
    this.claude = new ClaudeProcess(deps.stderr);
    this.permissions = new PermissionBroker((body) => this.emit(body, this.turns.running?.id));
    this.hostTools = new HostToolBroker((body) => this.emit(body, this.turns.running?.id));
  }

  /** Starts the CLI and waits for its initialize handshake; a CLI that fails to start rejects here. */
  static async open(deps: SessionDeps): Promise<SdkSession> {
    const session = new SdkSession(deps);
    await session.begin();
    return session;
  }

  private async begin(): Promise<void> {
    const { start } = this.deps;
    const canUseTool: CanUseTool = (toolName, input, options) =>
      this.permissions.request({ toolName, input, ...options });
    const common = {
      executable: this.deps.executable,
      stderr: this.deps.stderr,
      spawn: this.claude.spawn,
      env: this.deps.env,
    };
    // A restricted run's tool schemas are checked here, before any process starts.
    const options = isRestricted(start)
      ? buildRestrictedOptions({ ...common, start, server: hostToolServer(start.restricted.tools, this.hostTools) })
      : buildQueryOptions({ ...common, start, canUseTool, runningAsRoot: runningAsRoot() });
    const query = this.deps.query({ prompt: this.input, options });
    this.query = query;
    // A restricted run is a program's: nobody looks at its command palette, models or title.
    if (!isRestricted(start)) {
      this.sideReads = new SideReader({
        session: this.id,
        cwd: start.cwd,
        source: query,
        sessionInfo: this.deps.sessionInfo,
        emit: (body) => this.emit(body),
        isOpen: () => !this.ending,
        log: diag,
      });
    }
    const failedEarly = new Promise<never>((_, reject) => {
      this.startFailure = reject;
    });
    this.loop = this.consume(query);
    let initialize: unknown;
    try {
      initialize = await Promise.race([query.initializationResult(), failedEarly]);
    } catch (error) {
      this.ending = true;
      this.input.close();
      query.close();
      await this.loop;
      await this.claude.stop();
      throw await this.explainStartFailure(start, error);
    }
    const reported = initializeModeSchema.safeParse(initialize);
    const mode: PermissionMode = start.permissionMode ?? (reported.success ? reported.data.current_permission_mode : 'default');
    this.mapper.notePermissionMode(mode);
    this.started = true;
    this.emit({
      kind: 'session.started',
      cwd: start.cwd,
      model: start.model ?? 'default',
      permissionMode: mode,
      resumed: start.resume === true,
      ...(start.forkFrom !== undefined ? { forkedFrom: start.forkFrom } : {}),
    });
    for (const message of this.early.splice(0)) this.onMessage(message);
  }

  /** The start reply went out: read the side data now (never before, so opening never waits on it). */
  opened(): void {
    void this.sideReads?.refresh();
  }

  exec(turnId: string, prompt: string): { queued: boolean } {
    this.assertOpen();
    if (this.turns.has(turnId)) throw new ProtocolFailure('bad_request', `turn ${turnId} is already running or queued`);
    const released = this.turns.submit({ id: turnId, prompt, uuid: randomUUID() });
    if (released !== undefined) this.release(released);
    return { queued: released === undefined };
  }

  async cancel(turnId?: string): Promise<CancelDisposition> {
    this.assertOpen();
    const outcome = this.turns.cancel(turnId);
    switch (outcome.disposition) {
      case 'idle':
        return 'idle';
      case 'unknown_turn':
        throw new ProtocolFailure('unknown_turn', `turn ${turnId ?? ''} is neither running nor queued in this session`);
      case 'dequeued':
        this.emit({ kind: 'turn.canceled', disposition: 'dequeued' }, outcome.turn.id);
        return 'dequeued';
      case 'interrupted':
        // Settle first: a tool waiting for a verdict or a host answer would otherwise hold the interrupt up.
        this.permissions.settleAll('interrupt');
        this.hostTools.settleAll(CANCELED_CALL);
        await this.requireQuery().interrupt();
        return 'interrupted';
      default:
        return assertNever(outcome);
    }
  }

  permission(requestId: string, verdict: Verdict, message: string | undefined, by: DecidedBy): { settled: boolean } {
    this.assertOpen();
    const outcome = this.permissions.settle(requestId, verdict, by, message);
    if (outcome === 'unknown') {
      throw new ProtocolFailure('unknown_request', `no permission request ${requestId} in this session`);
    }
    return { settled: outcome === 'settled' };
  }

  async setModel(model: string): Promise<void> {
    this.assertOpen();
    await this.requireQuery().setModel(model === 'default' ? undefined : model);
    this.emit({ kind: 'session.updated', model });
  }

  /** The host's answer to a tool.called event. */
  toolResult(callId: string, output: string, isError: boolean): { settled: boolean } {
    this.assertOpen();
    const outcome = this.hostTools.answer(callId, output, isError);
    if (outcome === 'unknown') throw new ProtocolFailure('unknown_request', `no tool call ${callId} in this session`);
    return { settled: outcome === 'settled' };
  }

  async setPermissionMode(mode: PermissionMode): Promise<PermissionMode> {
    this.assertOpen();
    if (isRestricted(this.deps.start)) {
      throw new ProtocolFailure('bad_request', 'a restricted run keeps its permission mode');
    }
    const response = await this.requireQuery().setPermissionMode(mode);
    // Record the mode the CLI reports, which is not always the one asked for.
    const reported = permissionModeSchema.safeParse(response?.mode);
    const actual = reported.success ? reported.data : mode;
    if (this.mapper.notePermissionMode(actual)) this.emit({ kind: 'session.updated', permissionMode: actual });
    return actual;
  }

  /** The SDK's file checkpoints: undo file changes made since the user message `message` (a turn's uuid). */
  async rewindFiles(message: string, dryRun: boolean): Promise<RewindResult> {
    this.assertOpen();
    const result = await this.requireQuery().rewindFiles(message, { dryRun });
    return {
      canRewind: result.canRewind,
      ...(result.error !== undefined ? { error: result.error } : {}),
      ...(result.filesChanged !== undefined ? { filesChanged: result.filesChanged } : {}),
      ...(result.insertions !== undefined ? { insertions: result.insertions } : {}),
      ...(result.deletions !== undefined ? { deletions: result.deletions } : {}),
    };
  }

  /** Ends the session and resolves once the SDK query has shut down and session.closed was emitted. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.ending = true;
    this.permissions.settleAll('interrupt');
    this.hostTools.settleAll(CLOSED_CALL);
    this.input.close();
    this.query?.close();
    await this.loop;
    await this.claude.stop();
    const { running, queued } = this.turns.drain();
    if (running !== undefined) this.emit({ kind: 'turn.canceled', disposition: 'interrupted' }, running.id);
    for (const turn of queued) this.emit({ kind: 'turn.canceled', disposition: 'dequeued' }, turn.id);
    this.emit({ kind: 'session.closed', reason: 'closed' });
    this.deps.onEnded();
  }

  private async consume(query: Query): Promise<void> {
    try {
      for await (const message of query) this.onMessage(message);
      if (!this.ending) this.ended(new Error('the claude process ended unexpectedly'));
    } catch (error) {
      if (!this.ending) this.ended(error);
    }
  }

  private ended(error: unknown): void {
    if (this.started) this.fail(error);
    else this.startFailure?.(error);
  }

  private onMessage(message: SDKMessage): void {
    // Before the handshake completed nothing is reported: a session that fails to start (e.g. resuming an
    // unknown id yields an error result first) answers start with an error and leaves no events behind.
    if (!this.started) {
      this.early.push(message);
      return;
    }
    const running = this.turns.running;
    for (const event of this.mapper.map(message, { turn: running?.id })) this.deps.emit(event);
    if (message.type !== 'result') return;
    void this.sideReads?.refresh();
    // The result ended the running turn (its end event came from the mapper); while closing, queued turns
    // stay queued so shutDown cancels them instead of starting them.
    const { next } = this.turns.finish(!this.ending);
    if (next !== undefined) this.release(next);
  }

  private release(turn: Turn): void {
    this.emit({ kind: 'turn.started', prompt: turn.prompt, uuid: turn.uuid }, turn.id);
    this.mapper.notePromptSent(turn.uuid);
    this.input.push({
      type: 'user',
      message: { role: 'user', content: turn.prompt },
      parent_tool_use_id: null,
      uuid: turn.uuid,
    });
  }

  /** The SDK failed under a started session: fail its turns, end the session, keep the sidecar alive. */
  private fail(error: unknown): void {
    this.ending = true;
    const message = shortError(error);
    diag(`session ${this.id} failed: ${message}`);
    this.permissions.settleAll('interrupt');
    this.hostTools.settleAll(CLOSED_CALL);
    this.input.close();
    const { running, queued } = this.turns.drain();
    if (running !== undefined) this.emit({ kind: 'turn.failed', code: 'sdk_error', message }, running.id);
    for (const turn of queued) {
      this.emit({ kind: 'turn.failed', code: 'sdk_error', message: 'the session ended before this turn ran' }, turn.id);
    }
    this.emit({ kind: 'session.closed', reason: 'error', message });
    this.query?.close();
    void this.claude.stop();
    this.deps.onEnded();
  }

  /**
   * Why the start failed, in the words that fit: a resumed or forked session that is not stored for this folder
   * says so; the root hint only when bypass mode was asked for (the one refusal it explains).
   */
  private async explainStartFailure(start: StartPayload, error: unknown): Promise<ProtocolFailure> {
    const stored = start.forkFrom ?? (start.resume === true ? start.session : undefined);
    if (stored !== undefined && !(await this.isStored(stored, start.cwd))) {
      return new ProtocolFailure('session_not_found', `no stored session ${stored} was found for the folder ${start.cwd}`);
    }
    const hint = start.permissionMode === 'bypassPermissions' ? rootHint(this.deps.env) : '';
    return new ProtocolFailure('sdk_error', `Claude Code did not start: ${shortError(error)}${hint}`);
  }

  private async isStored(session: string, cwd: string): Promise<boolean> {
    try {
      return (await this.deps.sessionInfo(session, { dir: cwd })) !== undefined;
    } catch {
      return true; // unknown: let the CLI's own error speak
    }
  }

    private emit(body: EventBody, turn?: string): void {
    this.deps.emit(stampEvent(turn !== undefined ? { ...body, turn } : body, this.id, this.deps.now));
  }

  private assertOpen(): void {
    if (this.ending) throw new ProtocolFailure('unknown_session', `session ${this.id} is closing`);
  }

  private requireQuery(): Query {
    if (this.query === undefined) throw new ProtocolFailure('internal', `session ${this.id} has no query`);
    return this.query;
  }
}

const CANCELED_CALL = 'The run was canceled before the tool answered.';
const CLOSED_CALL = 'The session ended before the tool answered.';

function runningAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** As root the CLI refuses bypass mode and exits at once; say so instead of a bare exit code. */
function rootHint(env: NodeJS.ProcessEnv): string {
  return runningAsRoot() && env['IS_SANDBOX'] !== '1'
    ? ' (running as root: Claude Code refuses bypassPermissions as root unless IS_SANDBOX=1 is set)'
    : '';
}
