// One open Claude Code session: a query generation (one SDK query() fed by an input queue that stays open across
// turns) at a time. Prompts wait in the TurnScheduler until the running turn's result arrived; the mapper turns
// SDK messages into events. A cancel of a dispatched turn revokes the generation; the next prompt opens a fresh
// one with `resume`, so the session outlives its queries. Closing is permanent and makes no successor.
import { randomUUID } from 'node:crypto';
import type { CanUseTool, Query, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { Mapper } from '../mapper/mapper.js';
import { OutputTails } from './outputTails.js';
import { ProtocolFailure } from '../protocol/errors.js';
import { type EmitEvent, type EventBody, type PermissionMode, permissionModeSchema, stampEvent, type Verdict } from '../protocol/events.js';
import type { CancelBudgets, CancelReply, OkPayload, PromptImage, StartPayload } from '../protocol/schemas.js';
import { assertNever } from '../util/assertNever.js';
import { diag, shortError } from '../util/diagnostics.js';
import { type ContinuationOptions, Continuations, isTurnEnd } from './continuations.js';
import { Generation, type QueryFn } from './generation.js';
import { GoalFollower, type GoalSource } from './goalFollower.js';
import { GUIDANCE_STALLED, GUIDE_INTERRUPT_BUDGET_MS, GUIDE_STOP_BUDGETS, Guidance, interruptWithin } from './guidance.js';
import { AnswerWatch, GUIDE_ANSWER_BUDGET_MS, guideUnanswered, type Silence } from './guidedAnswer.js';
import { HostToolBroker, hostToolServer } from './hostTools.js';
import { IdentityBarrier, isEchoOf, outputReleased, resolveFromTranscript, type TranscriptFn } from './identity.js';
import { type AnswerDetail, PermissionBroker } from './permissions.js';
import { buildQueryOptions } from './queryOptions.js';
import { buildRestrictedOptions, isRestricted } from './restrictedOptions.js';
import { MessageGate } from './messageGate.js';
import { RefusedTurns, REFUSAL_STOP_BUDGETS } from './refusedTurns.js';
import { type RewindResult, rewindFiles } from './rewindFiles.js';
import { type SessionInfoFn, SideReader } from './sideReads.js';
import { eventImages, promptContent } from './promptContent.js';
import { explainStartFailure, runningAsRoot } from './startFailure.js';
import { drainMessage, GenerationStop } from './stopGeneration.js';
import { bindStoppedTurn, stoppedTurnEnd } from './stoppedAcceptance.js';
import { isTaskEdge, TaskOwners } from './taskOwners.js';
import { type Turn, TurnScheduler } from './turns.js';

/** Who decided a permission request the host answered. */
export type DecidedBy = 'user' | 'policy';

export type { QueryFn } from './generation.js';

export interface SessionDeps {
  start: StartPayload;
  executable: string;
  emit: EmitEvent;
  /** The current query generation was revoked: nothing more of it is routed (settle.ts closes its open calls). */
  revoked?: () => void;
  now: () => Date;
  query: QueryFn;
  env: NodeJS.ProcessEnv;
  /** Where the CLI's stderr goes (the sidecar's stderr). */
  stderr: (data: string) => void;
  /** The session ended (closed or failed); the registry forgets it. */
  onEnded: () => void;
  /** Reads the session's stored info (its title) for the side reads. */
  sessionInfo: SessionInfoFn;
  /** Reads the session's transcript (the identity barrier's fallback). */
  transcript: TranscriptFn;
  /** The goal statuses Claude Code files in the session's transcript (history/goalStatus.ts). */
  goalStatuses?: GoalSource;
  /** How long a follow-up after a background task may take to show output (30 s; tests shorten it). */
  continuationDelayMs?: number;
  /** How long a guided turn may show nothing of its answer (60 s; tests shorten it). */
  guideAnswerBudgetMs?: number;
  /** How often a live background command's output file is read for its tail (1 s; 0 = only at its end). */
  tailBeatMs?: number;
  /** The continuation bookkeeping's clock (tests drive the quiescence grace with their own). */
  continuationTimers?: Pick<ContinuationOptions, 'timers' | 'graceMs'>;
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
  private readonly guidance = new Guidance();
  private readonly answers: AnswerWatch;
  private readonly sideReads: SideReader;
  private readonly refusals = new RefusedTurns();
  /** The live query generation; undefined between a revoke and the next prompt. */
  private generation: Generation | undefined;
  private generations = 0;
  /** The revoked generations' teardown; a successor opens only after it, so two CLIs never share a transcript. */
  private retiring: Promise<void> = Promise.resolve();
  /** Stops under way, by turn: a second cancel of the same turn joins (and may hurry) the first. */
  private readonly stops = new Map<string, { stop: GenerationStop; reply: Promise<CancelReply> }>();
  /** What a successor generation must run with: the model and mode set since the session started. */
  private model: string | undefined;
  private mode: PermissionMode | undefined;
  private started = false;
  private ending = false;
  private closing: Promise<void> | undefined;
  private startFailure: ((error: unknown) => void) | undefined;
  private early: SDKMessage[] = [];
  private readonly continuations: Continuations;
  private readonly owners = new TaskOwners();
  private readonly goals: GoalFollower;
  private readonly gate = new MessageGate();
  private readonly tails: OutputTails;

  private constructor(private readonly deps: SessionDeps) {
    this.id = deps.start.session;
    this.model = deps.start.model;
    this.mode = deps.start.permissionMode;
    this.mapper = new Mapper(this.id, deps.now);
    this.answers = new AnswerWatch(deps.guideAnswerBudgetMs ?? GUIDE_ANSWER_BUDGET_MS);
    this.continuations = new Continuations(
      this.id,
      {
        emit: (body, turn) => this.emit(body, turn),
        send: (event) => this.deps.emit(event),
        advance: () => this.advance(),
        promptWaiting: () => this.turns.queued.length > 0,
        liveTasks: () => this.mapper.activeTasks.length,
        now: () => this.deps.now().getTime(),
        interrupt: (what) => {
          void this.generation?.query.interrupt().catch((error: unknown) => diag(`interrupting ${what} failed: ${shortError(error)}`));
        },
      },
      { ...(deps.continuationDelayMs !== undefined ? { delayMs: deps.continuationDelayMs } : {}), ...(deps.continuationTimers ?? {}) },
    );
    this.permissions = new PermissionBroker(
      (body) => this.emit(body, this.turns.running?.id),
      (mode) => this.planApproved(mode),
      () => outputReleased(this.turns.running, this.continuations.reserved !== undefined),
    );
    this.goals = new GoalFollower(this.id, deps.goalStatuses, {
      inPlay: () => this.mapper.goalInPlay,
      active: () => this.mapper.goalActive,
      observed: (statuses) => this.mapper.goalObserved(statuses),
      turnEnded: () => this.mapper.goalTurnEnded(),
      emit: (event) => this.deps.emit(event),
      isOpen: () => !this.ending,
      log: diag,
    });
    this.hostTools = new HostToolBroker((body) => this.emit(body, this.turns.running?.id));
    this.tails = new OutputTails({ emit: (body, turn) => this.emit(body, turn) }, deps.tailBeatMs);
    this.sideReads = new SideReader({
      session: this.id,
      cwd: deps.start.cwd,
      source: {
        supportedCommands: () => this.liveQuery().supportedCommands(),
        supportedModels: () => this.liveQuery().supportedModels(),
        getContextUsage: (options) => this.liveQuery().getContextUsage(options),
      },
      sessionInfo: deps.sessionInfo,
      emit: (body) => this.emit(body),
      modelReported: (model) => {
        for (const body of this.mapper.noteModel(model)) this.emit(body);
      },
      isOpen: () => !this.ending,
      log: diag,
    });
  }

  /** Starts the CLI and waits for its initialize handshake; a CLI that fails to start rejects here. */
  static async open(deps: SessionDeps): Promise<SdkSession> {
    const session = new SdkSession(deps);
    await session.begin();
    return session;
  }

  private async begin(): Promise<void> {
    const { start } = this.deps;
    const generation = this.openGeneration(start);
    const failedEarly = new Promise<never>((_, reject) => {
      this.startFailure = reject;
    });
    let initialize: unknown;
    try {
      initialize = await Promise.race([generation.query.initializationResult(), failedEarly]);
    } catch (error) {
      this.ending = true;
      await generation.stop();
      throw await explainStartFailure(start, error, this.deps.env, this.deps.sessionInfo);
    }
    const reported = initializeModeSchema.safeParse(initialize);
    const mode: PermissionMode = start.permissionMode ?? (reported.success ? reported.data.current_permission_mode : 'default');
    this.mode = mode;
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
    for (const message of this.early.splice(0)) this.onMessage(generation, message);
  }

  private openGeneration(start: StartPayload): Generation {
    this.generations += 1;
    const canUseTool: CanUseTool = (toolName, input, options) => this.permissions.request({ toolName, input, ...options });
    const common = { executable: this.deps.executable, stderr: this.deps.stderr, env: this.deps.env };
    // A restricted run's tool schemas are checked here, before any process starts; it has its own permission gate.
    const { canUseTool: gate, ...options } = isRestricted(start)
      ? buildRestrictedOptions({ ...common, start, server: hostToolServer(start.restricted.tools, this.hostTools) })
      : { ...buildQueryOptions({ ...common, start, runningAsRoot: runningAsRoot() }), canUseTool };
    const generation = new Generation({
      number: this.generations,
      query: this.deps.query,
      options,
      canUseTool: gate,
      stderr: this.deps.stderr,
      onMessage: (g, message) => this.delivered(g, message),
      onEnded: (g, error) => this.onGenerationEnded(g, error),
    });
    this.generation = generation;
    return generation;
  }

  /**
   * The next prompt after a revoke: a fresh query resuming this session, with the model and mode set since. A
   * restricted run persists no transcript, so its successor starts afresh (the canceled conversation is gone).
   */
  private openSuccessor(): Generation {
    const { start } = this.deps;
    // A fresh claude process has no background task running.
    for (const body of this.mapper.queryRestarted()) this.emit(body);
    this.tails.close();
    if (isRestricted(start)) return this.openGeneration(start);
    const { forkFrom: _fork, at: _at, ...rest } = start;
    return this.openGeneration({
      ...rest,
      resume: true,
      ...(this.model !== undefined ? { model: this.model } : {}),
      ...(this.mode !== undefined ? { permissionMode: this.mode } : {}),
    });
  }

  /** The start reply went out: read the side data now (never before, so opening never waits on it). A restricted
   * run is a program's: nobody looks at its command palette, models or title. */
  opened(): void {
    if (!isRestricted(this.deps.start)) void this.sideReads.refresh();
  }

  exec(turnId: string, prompt: string, images?: PromptImage[]): { queued: boolean } {
    this.assertOpen();
    if (this.turns.has(turnId)) throw new ProtocolFailure('bad_request', `turn ${turnId} is already running, queued or done`);
    const released = this.turns.submit({
      id: turnId,
      prompt,
      ...(images !== undefined && images.length > 0 ? { images } : {}),
      uuid: randomUUID(),
      dispatched: false,
    });
    if (released !== undefined) this.release(released);
    // A person's prompt ends a turn held open for background work; a follow-up still due gets its own turn.
    else if (this.turns.queued[0]?.id === turnId) this.continuations.promptQueued();
    return { queued: released === undefined };
  }

  /** Stops one background task (the SDK's stopTask); its task.completed {taskEnd: "stopped"} follows. */
  async stopTask(taskId: string): Promise<Record<string, never>> {
    this.assertOpen();
    const generation = this.generation;
    if (generation === undefined) throw new ProtocolFailure('bad_request', 'no background task runs: Claude Code was stopped since');
    try {
      await generation.query.stopTask(taskId);
    } catch (error) {
      throw new ProtocolFailure('sdk_error', `Claude Code did not stop the task: ${shortError(error)}`);
    }
    return {};
  }

  /** Sends running foreground work to the background (Ctrl+B in the terminal); false: nothing matched. */
  async backgroundTask(toolUseId: string | undefined): Promise<{ backgrounded: boolean }> {
    this.assertOpen();
    const generation = this.generation;
    if (generation === undefined) return { backgrounded: false };
    try {
      return { backgrounded: await generation.query.backgroundTasks(toolUseId) };
    } catch (error) {
      throw new ProtocolFailure('sdk_error', `Claude Code did not move the work to the background: ${shortError(error)}`);
    }
  }

  /** Exactly one disposition for the turn named (no turn: the running one); see PROTOCOL.md, "Cancel". */
  cancel(turnId: string | undefined, budgets: CancelBudgets): Promise<CancelReply> {
    this.assertOpen();
    const reserved = this.continuations.reserved;
    if (reserved !== undefined && turnId === reserved.turn) {
      this.continuations.cancel(reserved.turn);
      return Promise.resolve({ disposition: 'provider_active', turn: reserved.turn, phase: 'dispatched', forced: false });
    }
    const found = this.turns.find(turnId);
    switch (found.phase) {
      case 'none':
        return Promise.resolve({ disposition: 'absent', ...(turnId !== undefined ? { turn: turnId } : {}), phase: 'none' });
      case 'finished':
        return Promise.resolve({ disposition: 'mismatch', turn: found.turn, phase: 'finished' });
      case 'queued': {
        const turn = found.turn;
        this.emit({ kind: 'turn.canceled', disposition: 'pre_accept' }, turn.id);
        if (found.running) this.advance();
        else this.turns.dequeue(turn.id);
        return Promise.resolve({ disposition: 'pre_accept', turn: turn.id, phase: 'queued' });
      }
      case 'dispatched':
        return this.stopDispatched(found.turn, budgets);
      default:
        return assertNever(found);
    }
  }

  private stopDispatched(turn: Turn, budgets: CancelBudgets): Promise<CancelReply> {
    const under = this.stops.get(turn.id);
    if (under !== undefined) {
      if (budgets.interruptBudgetMs === 0) under.stop.skipInterrupt();
      return under.reply;
    }
    const generation = this.generation;
    if (generation === undefined) throw new ProtocolFailure('internal', `turn ${turn.id} is dispatched but no query runs`);
    // The stop revokes the query: no follow-up of it can come, and later signals open no continuation.
    this.continuations.endAll(turn.id);
    this.continuations.fenced = true;
    // Settle first: a tool waiting for a verdict would otherwise hold the interrupt up.
    const stop = new GenerationStop(generation, budgets, () => {
      this.permissions.settleAll('interrupt');
      this.hostTools.settleAll(CANCELED_CALL);
    });
    this.generation = undefined;
    this.deps.revoked?.();
    const reply = stop.outcome.then(async (outcome) => {
      // Graceful: the process exits on its own after stdin's end; a forced one was already closed and killed.
      const stopped = generation.stop(budgets.drainBudgetMs);
      this.retiring = Promise.all([this.retiring, stopped]).then(() => undefined);
      const bound = (!outcome.forced || outcome.drained) && (await bindStoppedTurn(turn, this.deps, stopped));
      this.stops.delete(turn.id); // only now: a close meanwhile waits for this reply rather than ending the turn
      if (outcome.forced && !outcome.drained) {
        this.emit({ kind: 'turn.failed', code: 'sdk_error', message: drainMessage(budgets) }, turn.id);
        this.advance();
        throw new ProtocolFailure('drain_timeout', drainMessage(budgets));
      }
      for (const body of stoppedTurnEnd(turn, bound, outcome.forced)) this.emit(body, turn.id);
      this.advance();
      return { disposition: 'provider_active' as const, turn: turn.id, phase: 'dispatched' as const, forced: outcome.forced };
    });
    this.stops.set(turn.id, { stop, reply });
    return reply;
  }

  /**
   * Steers the running turn: interrupts its response (on the query that runs now; once Claude Code began the turn,
   * before this first yields), emits turn.guided once Claude Code acknowledged, and only then sends the guidance on
   * the same turn. With no turn running in the SDK nothing is sent: `guided: false`.
   */
  async guide(prompt: string, images?: PromptImage[]): Promise<{ guided: boolean; turn?: string }> {
    this.assertOpen();
    const turn = this.turns.running;
    const generation = this.generation;
    if (turn === undefined || generation === undefined || !this.steerable(turn, generation)) return { guided: false };
    // Checked before awaiting: a turn that began is interrupted before this first yields.
    if (turn.barrier?.begun === false && !(await this.begunInTime(turn, generation))) return { guided: false };
    this.guidance.begin(turn.id);
    try {
      if ((await interruptWithin(generation.query, GUIDE_INTERRUPT_BUDGET_MS)) === 'timeout') return this.guidanceStalled(turn);
    } catch (error) {
      for (const held of this.guidance.failed(turn.id)) this.onMessage(generation, held);
      throw new ProtocolFailure('sdk_error', `Claude Code did not take the guidance: ${shortError(error)}`);
    }
    if (this.turns.running !== turn || generation.revoked || this.generation !== generation) {
      // Canceled or closed meanwhile: the guidance has no turn to steer.
      for (const held of this.guidance.failed(turn.id)) this.onMessage(generation, held);
      return { guided: false };
    }
    const uuid = randomUUID();
    this.guidance.succeeded(turn.id, uuid);
    this.emit({ kind: 'turn.guided', prompt, ...eventImages(images) }, turn.id);
    this.mapper.notePromptSent(uuid);
    generation.dispatch({ type: 'user', message: { role: 'user', content: promptContent(prompt, images) }, parent_tool_use_id: null, uuid });
    this.answers.arm(turn.id, (silence) => this.guidanceUnanswered(turn, generation, silence));
    return { guided: true, turn: turn.id };
  }

  /**
   * Waits (bounded) for Claude Code to begin the turn's query (its system/init, or its echo). An interrupt before
   * that hits nothing of the turn: Claude Code answers the prompt and the guidance as two queries, the turn ends on
   * the first, and the guidance's answer lands on the next turn, each later turn showing the answer to the prompt
   * before it. False: it did not begin in time, or the turn can no longer be steered.
   */
  private async begunInTime(turn: Turn, generation: Generation): Promise<boolean> {
    const begun = (await turn.barrier?.begunWithin(GUIDE_INTERRUPT_BUDGET_MS)) ?? true;
    return begun && this.steerable(turn, generation);
  }

  /** Whether guidance may steer `turn` on `generation` now: dispatched, running, not being stopped nor held open. */
  private steerable(turn: Turn, generation: Generation): boolean {
    if (this.ending || !turn.dispatched || this.turns.running !== turn || this.stops.has(turn.id)) return false;
    if (this.generation !== generation || generation.revoked) return false;
    // A turn held open for background work has no response to steer: the guidance is an ordinary prompt.
    return this.continuations.held?.turn !== turn.id;
  }

  /**
   * The guided answer never began within its budget: say what held it (kinds and states, never text), then stop
   * the turn as a stalled guidance. A turn that ended, or a generation lost meanwhile, has its own end.
   */
  private guidanceUnanswered(turn: Turn, generation: Generation, silence: Silence): void {
    if (this.turns.running !== turn || this.ending || this.generation !== generation) return;
    const gate = this.gate.waiting;
    diag(
      `session ${this.id} turn ${turn.id}: no answer to the guidance within ${silence.budgetMs} ms;` +
        ` arrived=${silence.arrived} trail=${silence.trail.join(',') || '-'} barrier=${turn.barrier?.describe() ?? 'none'}` +
        ` gate=${gate === undefined ? 'open' : `closed waiting=${gate}`} rejecting=${this.continuations.rejecting}`,
    );
    this.stopStalledGuidance(turn, guideUnanswered(silence.budgetMs));
  }

  /**
   * Claude Code did not acknowledge the guidance's interrupt in time: while it is outstanding the turn's results are
   * held, so waiting on would hang the turn. The turn is stopped as a forced cancel and ends turn.failed, saying so.
   */
  private guidanceStalled(turn: Turn): never {
    this.stopStalledGuidance(turn, GUIDANCE_STALLED);
    throw new ProtocolFailure('sdk_error', GUIDANCE_STALLED);
  }

  /** Stops a turn whose guidance stalled as a forced cancel (joining one under way); its end says `why`. */
  private stopStalledGuidance(turn: Turn, why: string): void {
    this.guidance.stalled(turn.id, why);
    if (this.turns.running !== turn || this.ending) return;
    void Promise.resolve()
      .then(() => this.cancel(turn.id, GUIDE_STOP_BUDGETS))
      .catch((e: unknown) => diag(`stopping a turn whose guidance stalled: ${shortError(e)}`));
  }

  /** Settles a permission request once; a repeated or late answer gets the recorded one back (settled false). */
  permission(requestId: string, verdict: Verdict, by: DecidedBy, detail: AnswerDetail = {}): OkPayload<'permission'> {
    this.assertOpen();
    const settled = this.permissions.settle(requestId, verdict, by, detail);
    if (settled.outcome === 'unknown') {
      throw new ProtocolFailure('unknown_request', `no permission request ${requestId} in this session`);
    }
    return { settled: settled.outcome === 'settled', ...settled.recorded };
  }

  /** Claude Code applies an approved plan's mode with the tool's approval; record it as set_permission_mode would. */
  private planApproved(mode: PermissionMode): void {
    this.mode = mode;
    if (this.mapper.notePermissionMode(mode)) this.emit({ kind: 'session.updated', permissionMode: mode });
  }

  async setModel(model: string): Promise<void> {
    this.assertOpen();
    // With no query running the successor picks the model up when it opens.
    await this.generation?.query.setModel(model === 'default' ? undefined : model);
    this.model = model;
    this.mapper.switchedModel();
    this.emit({ kind: 'session.updated', model });
    void this.sideReads.modelSwitched(this.generation !== undefined && !isRestricted(this.deps.start));
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
    const response = this.generation !== undefined ? await this.generation.query.setPermissionMode(mode) : undefined;
    // Record the mode the CLI reports, which is not always the one asked for.
    const reported = permissionModeSchema.safeParse(response?.mode);
    const actual = reported.success ? reported.data : mode;
    this.mode = actual;
    if (this.mapper.notePermissionMode(actual)) this.emit({ kind: 'session.updated', permissionMode: actual });
    return actual;
  }

  /** The SDK's file checkpoints: undo file changes made since the user message `message` (a turn's uuid). */
  async rewindFiles(message: string, dryRun: boolean): Promise<RewindResult> {
    this.assertOpen();
    return rewindFiles(await this.someQuery(), message, dryRun);
  }

  /** Ends the session and resolves once the SDK query has shut down and session.closed was emitted. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.ending = true;
    this.answers.disarm();
    this.permissions.settleAll('interrupt');
    this.hostTools.settleAll(CLOSED_CALL);
    const generation = this.generation;
    generation?.revoke();
    if (generation !== undefined) this.deps.revoked?.();
    await generation?.stop();
    await Promise.allSettled([...this.stops.values()].map((s) => s.reply));
    await this.retiring;
    const held = this.continuations.close();
    this.goals.close();
    this.tails.close();
    const { running, queued } = this.turns.drain();
    // The turn held open for background work had ended as far as Claude Code's answer goes.
    if (running !== undefined && held?.turn === running.id) this.deps.emit(held.end);
    else if (running !== undefined) {
      const disposition = running.dispatched ? 'provider_active' : 'pre_accept';
      this.emit({ kind: 'turn.canceled', disposition, ...(running.dispatched ? { forced: false } : {}) }, running.id);
    }
    for (const turn of queued) this.emit({ kind: 'turn.canceled', disposition: 'pre_accept' }, turn.id);
    this.emit({ kind: 'session.closed', reason: 'closed' });
    this.deps.onEnded();
  }

  private onGenerationEnded(generation: Generation, error: unknown): void {
    // A revoked or retired generation ending is the stop working, not a failure.
    if (generation.revoked || generation !== this.generation || this.ending) return;
    const failure = error ?? new Error('the claude process ended unexpectedly');
    if (this.started) this.lost(generation, failure);
    else this.startFailure?.(failure);
  }

  /** A message as the generation delivers it (replays from the barrier and the gate come back to onMessage). */
  private delivered(generation: Generation, message: SDKMessage): void {
    if (generation === this.generation && !generation.revoked) {
      this.answers.arrived(message);
      if (message.type === 'system' && message.subtype === 'init') this.turns.running?.barrier?.queryBegan();
    }
    this.onMessage(generation, message);
  }

  private onMessage(generation: Generation, message: SDKMessage): void {
    if (generation !== this.generation || generation.revoked) return;
    // Before the handshake completed nothing is reported: a session that fails to start (e.g. resuming an
    // unknown id yields an error result first) answers start with an error and leaves no events behind.
    if (!this.started) {
      this.early.push(message);
      return;
    }
    const refused = this.turns.running;
    if (!this.ending && this.refusals.refuses(message, refused, this.continuations.reserved !== undefined)) {
      return void this.cancel(refused.id, REFUSAL_STOP_BUDGETS).catch((e: unknown) => diag(`stopping a refused turn: ${shortError(e)}`));
    }
    // A successor's output before its first prompt is the revoked generation's tail replayed on resume: it
    // belongs to no turn of this generation.
    if (generation.number > 1 && generation.dispatched === 0) return;
    if (this.gate.queued(() => this.onMessage(generation, message))) return;
    if (message.type === 'result' && this.goals.wanted && !this.gate.passed(message)) {
      // The goal statuses filed during the turn go out before its end.
      this.gate.closeFor(message, this.goals.beforeEnd(), () => this.onMessage(generation, message));
      return;
    }
    const running = this.turns.running;
    const owner = this.owners.elsewhere(message, this.continuations.continuationTurn ?? running?.id);
    if (owner !== undefined && !isTaskEdge(message)) {
      // A background agent's own work, after the turn that launched it: it stays there, past every barrier.
      for (const event of this.mapper.map(message, { turn: owner })) this.deps.emit(event);
      return;
    }
    // While a continuation is reserved, output before the person's echo is the follow-up's (Claude Code answers
    // the notification before the prompt queued behind it).
    const barrier = this.continuations.reserved === undefined || (running !== undefined && isEchoOf(message, running.uuid));
    const identity = running?.dispatched === true ? running.barrier : undefined;
    if (barrier && running !== undefined && identity !== undefined && !identity.bound) {
      const admission = identity.admit(message);
      switch (admission) {
        case 'echo':
          this.accept(running, identity, generation);
          break;
        case 'held':
          this.resolveIdentity(running, identity, generation);
          return;
        case 'pass':
          break;
        default:
          assertNever(admission);
      }
    }
    if (this.guidance.absorb(running?.id, message)) return;
    this.answers.reached(running?.id, message);
    const c = this.continuations;
    const echo = running !== undefined && isEchoOf(message, running.uuid);
    if (c.rejects(message, echo)) return;
    if (echo) c.personTurnStarted(); // a continuation that answered already ends before the person's output
    c.before(message, running !== undefined && c.held?.turn !== running.id ? running.id : undefined);
    this.owners.note(message, c.continuationTurn ?? running?.id);
    this.tails.observe(message, owner ?? c.continuationTurn ?? running?.id);
    const events = this.mapper.map(message, { turn: owner ?? c.continuationTurn ?? running?.id });
    if (message.type !== 'result') {
      for (const event of events) this.deps.emit(event);
      c.after(message);
      return;
    }
    void this.sideReads.refresh();
    const end = events.find(isTurnEnd);
    for (const event of events) if (event !== end) this.deps.emit(event);
    c.resultArrived(end, message, running?.id);
    if (this.gate.passed(message)) this.goals.afterEnd();
  }

  /** The identity barrier passed: say so once, then release what the turn produced meanwhile. */
  private accept(turn: Turn, identity: IdentityBarrier, generation: Generation): void {
    const held = identity.bind();
    this.emit({ kind: 'turn.accepted', providerMessage: turn.uuid }, turn.id);
    for (const message of held) this.onMessage(generation, message);
    this.permissions.release();
  }

  /** No echo before the turn's first output: find its prompt in the transcript, or fail the turn (fail closed). */
  private resolveIdentity(turn: Turn, identity: IdentityBarrier, generation: Generation): void {
    if (!identity.beginResolving()) return;
    const wanted = () => this.turns.running === turn && !identity.bound && !generation.revoked && !this.ending;
    void resolveFromTranscript({
      session: this.id,
      cwd: this.deps.start.cwd,
      uuid: turn.uuid,
      transcript: this.deps.transcript,
      stillWanted: wanted,
    }).then((resolution) => {
      if (!wanted()) return;
      if (resolution.bound) {
        this.accept(turn, identity, generation);
        return;
      }
      // Output that cannot be tied to the prompt is never shown as its answer: stop the query, fail the turn.
      generation.revoke();
      this.permissions.settleAll('interrupt');
      if (this.generation === generation) this.generation = undefined;
      this.retiring = Promise.all([this.retiring, generation.stop(1_000)]).then(() => undefined);
      this.emit({ kind: 'turn.failed', code: 'identity', message: `The turn could not be tied to its prompt: ${resolution.reason}` }, turn.id);
      this.advance();
    });
  }

  /** The running turn ended: release the next one, if any. */
  private advance(): void {
    const { finished, next } = this.turns.finish(!this.ending);
    if (finished !== undefined) this.guidance.forget(finished.id);
    this.answers.disarm();
    if (next !== undefined) this.release(next);
  }

  private release(turn: Turn): void {
    this.continuations.personTurnStarted();
    this.emit({ kind: 'turn.started', prompt: turn.prompt, uuid: turn.uuid, ...eventImages(turn.images) }, turn.id);
    if (this.generation !== undefined) {
      this.dispatch(this.generation, turn);
      return;
    }
    this.dispatchAfterRetiring(turn);
  }

  /** The previous generation was revoked: wait until it is gone, then send turn to a fresh one. */
  private dispatchAfterRetiring(turn: Turn): void {
    void this.retiring.then(() => {
      if (this.ending || this.turns.running !== turn) return; // canceled (pre_accept) or closing meanwhile
      this.dispatch(this.generation ?? this.openSuccessor(), turn);
    });
  }

  private dispatch(generation: Generation, turn: Turn): void {
    turn.dispatched = true;
    turn.barrier = new IdentityBarrier(turn.uuid);
    // A restricted run persists no transcript: there is no provider turn to bind to.
    if (isRestricted(this.deps.start)) turn.barrier.bind();
    this.mapper.notePromptSent(turn.uuid);
    this.mapper.notePromptText(turn.prompt);
    const send = () =>
      generation.dispatch({
        type: 'user',
        message: { role: 'user', content: promptContent(turn.prompt, turn.images) },
        parent_tool_use_id: null,
        uuid: turn.uuid,
      });
    if (!this.continuations.rejecting) {
      send();
      return;
    }
    // A follow-up that was given up may have started after its interrupt: stop it again, or the prompt would wait
    // behind it (its output and result are rejected).
    void generation.query
      .interrupt()
      .catch((error: unknown) => diag(`interrupting a late follow-up failed: ${shortError(error)}`))
      .finally(() => {
        if (!generation.revoked) send();
      });
  }

  /**
   * Claude Code died under a started session (killed, crashed, its query failed): the session stays open, as after
   * a forced cancel. What ran in that query ends now, with its acceptance first when the transcript holds its
   * prompt; the next prompt opens a fresh query with `resume`. Nothing waits on the dead process.
   */
  private lost(generation: Generation, error: unknown): void {
    diag(`session ${this.id}: claude ended under the session: ${shortError(error)}`);
    generation.revoke();
    this.generation = undefined;
    this.deps.revoked?.();
    this.permissions.settleAll('interrupt');
    this.hostTools.settleAll(LOST_CALL);
    const running = this.turns.running;
    // A held turn's answer was complete: endAll ends it with its own result, not as failed.
    const held = this.continuations.held?.turn;
    this.continuations.endAll(undefined);
    this.continuations.fenced = true;
    const stopped = generation.stop(1_000);
    this.retiring = Promise.all([this.retiring, stopped]).then(() => undefined);
    // Not dispatched: the turn waits for the successor (release); none: the next prompt opens it.
    if (running === undefined || !running.dispatched) return;
    if (running.id === held) {
      this.advance();
      return;
    }
    void bindStoppedTurn(running, this.deps, stopped).then((bound) => {
      if (this.ending || this.turns.running !== running) return; // closed meanwhile: close ended it
      if (this.resendUnpersisted(running, bound)) return;
      if (bound) this.emit({ kind: 'turn.accepted', providerMessage: running.uuid }, running.id);
      this.emit({ kind: 'turn.failed', code: 'sdk_error', message: LOST_TURN }, running.id);
      this.advance();
    });
  }

  /**
   * A prompt Claude Code never persisted never reached the model's conversation (an idle CLI died just before it
   * was written): it goes to the fresh query once instead of failing. Its output was held by the barrier, so the
   * person saw nothing of the dead attempt.
   */
  private resendUnpersisted(turn: Turn, bound: boolean): boolean {
    if (bound || turn.resent === true || turn.barrier === undefined || turn.barrier.bound) return false;
    turn.resent = true;
    diag(`session ${this.id}: turn ${turn.id} never reached Claude Code; sending it to a fresh query`);
    this.dispatchAfterRetiring(turn);
    return true;
  }

  private emit(body: EventBody, turn?: string): void {
    this.deps.emit(stampEvent(this.guidance.end(this.refusals.end(body, turn), turn), this.id, this.deps.now, turn));
  }

  private assertOpen(): void {
    if (this.ending) throw new ProtocolFailure('unknown_session', `session ${this.id} is closing`);
  }

  /** The live generation's query, for side reads: between a cancel and the next prompt there is none. */
  private liveQuery(): Query {
    if (this.generation === undefined) throw new Error('no query runs between a cancel and the next prompt');
    return this.generation.query;
  }

  /** A query to ask something of: the live one, else a successor opened for it. */
  private async someQuery(): Promise<Query> {
    if (this.generation !== undefined) return this.generation.query;
    await this.retiring;
    this.assertOpen();
    return (this.generation ?? this.openSuccessor()).query;
  }
}

const CANCELED_CALL = 'The run was canceled before the tool answered.';
const CLOSED_CALL = 'The session ended before the tool answered.';
const LOST_CALL = 'Claude Code stopped before the tool answered.';
const LOST_TURN = 'Claude Code stopped unexpectedly during this turn; send the prompt again to go on in this session';
