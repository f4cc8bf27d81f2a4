// A deterministic stand-in for the SDK behind BATON_SIDECAR_TEST_DRIVER=1: no query(), no claude, no network.
// The packaged-binary smoke test drives it: start → exec ("Echo: <prompt>") → close.
import { randomUUID } from 'node:crypto';
import type { HistoryPage } from '../history/history.js';
import type { EmitEvent, EventBody, ModelEntry, PermissionMode, Verdict } from '../protocol/events.js';
import { stampEvent } from '../protocol/events.js';
import { ProtocolFailure } from '../protocol/errors.js';
import type { CancelReply, OkPayload, SessionInfo, StartPayload } from '../protocol/schemas.js';

export const TEST_DRIVER_EXECUTABLE = 'test-driver';

class TestDriverSession {
  /** Turn events go out after the exec reply, as a real turn's would; close waits for them. */
  private pending: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly turns = new Set<string>();

  constructor(
    private readonly id: string,
    private readonly emitEvent: EmitEvent,
    private readonly now: () => Date,
    private readonly onEnded: () => void,
  ) {}

  exec(turn: string, prompt: string): { queued: boolean } {
    this.assertOpen();
    this.turns.add(turn);
    const messageId = `msg_test_${randomUUID()}`;
    const text = `Echo: ${prompt}`;
    this.pending = this.pending.then(
      () =>
        new Promise<void>((resolve) => {
          setImmediate(() => {
            this.emit({ kind: 'turn.started', prompt, uuid: randomUUID() }, turn);
            this.emit({ kind: 'message.delta', ephemeral: true, messageId, index: 0, block: 'text', text }, turn);
            this.emit({ kind: 'message.completed', role: 'assistant', messageId, uuid: randomUUID(), text }, turn);
            this.emit({ kind: 'turn.completed', result: text, durationMs: 0, numTurns: 1, costUsd: 0, stopReason: 'end_turn' }, turn);
            resolve();
          });
        }),
    );
    return { queued: false };
  }

  /** Its turns end at once, so there is never one to stop: a named turn is one that finished, or none. */
  cancel(turn: string | undefined): Promise<CancelReply> {
    this.assertOpen();
    return Promise.resolve(
      turn !== undefined && this.turns.has(turn)
        ? { disposition: 'mismatch', turn, phase: 'finished' }
        : { disposition: 'absent', ...(turn !== undefined ? { turn } : {}), phase: 'none' },
    );
  }

  /** Its turns end at once: there is never one to steer. */
  guide(): Promise<{ guided: boolean }> {
    this.assertOpen();
    return Promise.resolve({ guided: false });
  }

  permission(requestId: string, _verdict: Verdict, _by: 'user' | 'policy'): { settled: boolean } {
    this.assertOpen();
    throw new ProtocolFailure('unknown_request', `no permission request ${requestId} in this session`);
  }

  toolResult(callId: string): { settled: boolean } {
    this.assertOpen();
    throw new ProtocolFailure('unknown_request', `no tool call ${callId} in this session`);
  }

  /** The driver runs no background work. */
  stopTask(taskId: string): Promise<Record<string, never>> {
    this.assertOpen();
    return Promise.reject(new ProtocolFailure('bad_request', `no background task ${taskId} runs in this session`));
  }

  backgroundTask(_toolUseId: string | undefined): Promise<{ backgrounded: boolean }> {
    this.assertOpen();
    return Promise.resolve({ backgrounded: false });
  }

  setModel(model: string): Promise<void> {
    this.assertOpen();
    this.emit({ kind: 'session.updated', model });
    return Promise.resolve();
  }

  setPermissionMode(mode: PermissionMode): Promise<PermissionMode> {
    this.assertOpen();
    this.emit({ kind: 'session.updated', permissionMode: mode });
    return Promise.resolve(mode);
  }

  rewindFiles(): Promise<OkPayload<'rewind_files'>> {
    this.assertOpen();
    return Promise.resolve({ canRewind: false, error: 'the test driver changes no files' });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pending;
    this.emit({ kind: 'session.closed', reason: 'closed' });
    this.onEnded();
  }

  emit(body: EventBody, turn?: string): void {
    this.emitEvent(stampEvent(body, this.id, this.now, turn));
  }

  private assertOpen(): void {
    if (this.closed) throw new ProtocolFailure('unknown_session', `session ${this.id} is closing`);
  }
}

export class TestDriverBackend {
  constructor(private readonly now: () => Date) {}

  start(payload: StartPayload, context: { emit: EmitEvent; onEnded: () => void }): Promise<{ handle: TestDriverSession; executable: string }> {
    const handle = new TestDriverSession(payload.session, context.emit, this.now, context.onEnded);
    handle.emit({
      kind: 'session.started',
      cwd: payload.cwd,
      model: payload.model ?? 'default',
      permissionMode: payload.permissionMode ?? 'default',
      resumed: payload.resume === true,
      ...(payload.forkFrom !== undefined ? { forkedFrom: payload.forkFrom } : {}),
    });
    return Promise.resolve({ handle, executable: TEST_DRIVER_EXECUTABLE });
  }

  listSessions(): Promise<SessionInfo[]> {
    return Promise.resolve([]);
  }

  renameSession(): Promise<void> {
    return Promise.reject(new Error('the test driver stores no sessions to rename'));
  }

  history(): Promise<HistoryPage> {
    return Promise.resolve({ events: [], total: 0, start: 0 });
  }

  /** It stores no transcript: no message is ever found. */
  messageParent(): Promise<OkPayload<'message_parent'>> {
    return Promise.resolve({ found: false });
  }

  forkSession(): Promise<OkPayload<'fork_session'>> {
    return Promise.reject(new Error('the test driver stores no sessions to fork'));
  }

  discoverModels(): Promise<ModelEntry[]> {
    return Promise.resolve([{ value: 'default', displayName: 'Default', description: 'The test driver runs no model' }]);
  }
}
