// Routes each validated request to the backend or to its session and sends exactly one reply for it.
import { TranscriptJobs } from '../history/transcriptJobs.js';
import { ProtocolFailure } from '../protocol/errors.js';
import type { EmitEvent } from '../protocol/events.js';
import type { RawJson } from '../protocol/rawJson.js';
import type { OkPayload, Request, RequestType } from '../protocol/schemas.js';
import { assertNever } from '../util/assertNever.js';
import { diag, shortError } from '../util/diagnostics.js';
import type { Backend, SessionHandle } from './backend.js';
import { SessionRegistry } from './registry.js';

export interface ReplySink {
  ok(id: string, payload: object): void;
  error(id: string, failure: ProtocolFailure): void;
}

export class Dispatcher {
  private readonly sessions = new SessionRegistry();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly transcripts = new TranscriptJobs();

  constructor(
    private readonly backend: Backend,
    private readonly replies: ReplySink,
    private readonly emit: EmitEvent,
  ) {}

  /** Handles a request; the reply is sent when it settles. Session-bound work starts synchronously, so
   * requests for one session take effect in the order they arrived. */
  dispatch(request: Request): Promise<void> {
    const handled = this.handle(request).then(
      (payload) => {
        this.replies.ok(request.id, payload);
        if (request.type === 'start') this.opened(request.payload.session);
      },
      (error: unknown) => this.replies.error(request.id, toFailure(error, request.type)),
    );
    this.inFlight.add(handled);
    void handled.finally(() => this.inFlight.delete(handled));
    return handled;
  }

  /** Closes every session, then waits for requests still being handled. */
  async shutdown(): Promise<void> {
    await this.sessions.closeAll();
    await Promise.allSettled([...this.inFlight]);
    await this.backend.shutdown?.();
  }

  /** A payload, or one already serialised (a transcript page: its reply line is spliced from it, codec.ts okReply). */
  private handle(request: Request): Promise<OkPayload<RequestType> | RawJson<OkPayload<RequestType>>> {
    switch (request.type) {
      case 'start':
        return this.start(request.payload);
      case 'exec': {
        const { session, turn, prompt, images } = request.payload;
        return this.withSession(session, (s) => s.exec(turn, prompt, images));
      }
      case 'cancel': {
        const { session, turn, interruptBudgetMs, drainBudgetMs } = request.payload;
        return this.withSession(session, (s) => s.cancel(turn, { interruptBudgetMs, drainBudgetMs }));
      }
      case 'guide': {
        const { session, prompt, images } = request.payload;
        return this.withSession(session, (s) => s.guide(prompt, images));
      }
      case 'permission': {
        const { session, requestId, verdict, message, by, answers, mode } = request.payload;
        return this.withSession(session, (s) => s.permission(requestId, verdict, by ?? 'user', { message, answers, mode }));
      }
      case 'set_model': {
        const { session, model } = request.payload;
        return this.withSession(session, async (s) => {
          await s.setModel(model);
          return {};
        });
      }
      case 'set_permission_mode': {
        const { session, mode } = request.payload;
        return this.withSession(session, async (s) => ({ mode: await s.setPermissionMode(mode) }));
      }
      case 'close':
        return this.withSession(request.payload.session, async (s) => {
          await s.close();
          return {};
        });
      case 'list_sessions':
        return this.backend.listSessions(request.payload).then((sessions) => ({ sessions }));
      case 'rename_session':
        return this.backend.renameSession(request.payload).then(() => ({}));
      case 'history':
        return this.backend.history(request.payload);
      case 'rewind_files': {
        const { session, message, dryRun } = request.payload;
        return this.withSession(session, (s) => s.rewindFiles(message, dryRun));
      }
      case 'tool_result': {
        const { session, callId, output, isError } = request.payload;
        return this.withSession(session, (s) => s.toolResult(callId, output, isError));
      }
      case 'message_parent':
        return this.backend.messageParent(request.payload);
      case 'fork_session':
        return this.backend.forkSession(request.payload);
      case 'stop_task': {
        const { session, taskId } = request.payload;
        return this.withSession(session, (s) => s.stopTask(taskId));
      }
      case 'background_task': {
        const { session, toolUseId } = request.payload;
        return this.withSession(session, (s) => s.backgroundTask(toolUseId));
      }
      case 'discover_models':
        return this.backend.discoverModels(request.payload).then((models) => ({ models }));
      // Transcript jobs read files, not sessions: the same for every backend.
      case 'transcript_open':
        return this.transcripts.open(request.payload);
      case 'transcript_next':
        return this.transcripts.next(request.payload);
      case 'transcript_close':
        return this.transcripts.close(request.payload);
      default:
        return assertNever(request);
    }
  }

  private start(payload: Extract<Request, { type: 'start' }>['payload']): Promise<OkPayload<'start'>> {
    const id = payload.session;
    if (this.sessions.has(id)) return Promise.reject(new ProtocolFailure('session_exists', `session ${id} is already open`));
    let handle: Promise<SessionHandle> | undefined;
    const started = this.backend.start(payload, {
      emit: this.emit,
      onEnded: () => {
        if (handle !== undefined) this.sessions.remove(id, handle);
      },
    });
    handle = started.then((s) => s.handle);
    this.sessions.add(id, handle);
    return started.then(({ executable }) => ({ session: id, executable }));
  }

  /** Tells a session its start reply went out; a session that already ended is left alone. */
  private opened(id: string): void {
    this.sessions.get(id).then(
      (session) => session.opened?.(),
      () => undefined,
    );
  }

  /** Runs fn on the session once it is open; fn starts in arrival order for one session. */
  private async withSession<T>(id: string, fn: (session: SessionHandle) => T | Promise<T>): Promise<T> {
    const session = await this.sessions.get(id);
    return fn(session);
  }
}

function toFailure(error: unknown, type: RequestType): ProtocolFailure {
  if (error instanceof ProtocolFailure) return error;
  // Unexpected errors keep their detail on stderr; the host gets a short message.
  diag(`${type} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new ProtocolFailure(type === 'start' ? 'sdk_error' : 'internal', `${type} failed: ${shortError(error)}`);
}
