// The identity barrier: before a turn's first output is released, the turn is bound to the root user message
// Claude Code persisted for it. The uuid the sidecar sent is correlation evidence: usually the SDK echoes it back;
// when the echo is missing (a query may begin with assistant output or a tool), the session transcript is read, with
// a bounded retry for write delay. Absence at the deadline, or two messages with the uuid, fail the turn.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { partOf } from '../mapper/sdkRoutes.js';

/** Reads the session's transcript (the SDK's getSessionMessages). */
export type TranscriptFn = (session: string, options: { dir: string }) => Promise<readonly unknown[]>;

export const IDENTITY_DEADLINE_MS = 5_000;
const RETRY_MS = 100;

export type Resolution = { bound: true } | { bound: false; reason: string };

/** What a message of a dispatched turn means to its barrier: the prompt's echo, output held back, or bookkeeping. */
export type Admission = 'echo' | 'held' | 'pass';

/**
 * One turn's identity barrier, from its dispatch: unbound until the SDK's echo of its prompt (or the transcript)
 * binds it. Output before that is held, in order, and handed back when it binds; the transcript search runs once.
 */
export class IdentityBarrier {
  private state: 'open' | 'resolving' | 'bound' = 'open';
  private held: SDKMessage[] = [];
  private begunFlag = false;
  private markBegun: () => void = () => undefined;
  private readonly begunNow = new Promise<void>((resolve) => {
    this.markBegun = resolve;
  });

  constructor(private readonly uuid: string) {}

  /**
   * Claude Code began the turn's query: its system/init came after the prompt was sent, or the turn is bound. Before
   * that an interrupt reaches nothing of the turn (a guidance waits on this: session.ts, guide).
   */
  get begun(): boolean {
    return this.begunFlag;
  }

  /** A query of Claude Code's began while this turn was dispatched (its system/init). */
  queryBegan(): void {
    this.begunFlag = true;
    this.markBegun();
  }

  /** True once begun, false when it was not within ms. */
  async begunWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    try {
      return await Promise.race([this.begunNow.then(() => true as const), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  get bound(): boolean {
    return this.state === 'bound';
  }

  /** Where the barrier stands, for a diagnostic: its state, whether the query began, and how much output it holds. */
  describe(): string {
    return `${this.state} begun=${this.begunFlag} held=${this.held.length}`;
  }

  /** Sorts a message that arrives while unbound; output is kept until bind(). */
  admit(message: SDKMessage): Admission {
    if (this.state === 'bound') return 'pass';
    if (isEchoOf(message, this.uuid)) return 'echo';
    if (!isTurnOutput(message)) return 'pass';
    this.held.push(message);
    return 'held';
  }

  /** Binds the turn (its echo, the transcript, or a run with nothing to bind to): returns the output held meanwhile. */
  bind(): SDKMessage[] {
    this.state = 'bound';
    this.queryBegan();
    const held = this.held;
    this.held = [];
    return held;
  }

  /** True once, for whoever is to search the transcript: not while a search runs, nor after binding. */
  beginResolving(): boolean {
    if (this.state !== 'open') return false;
    this.state = 'resolving';
    return true;
  }
}

/**
 * True for what a turn produces, its result included (held back until the turn is bound); system bookkeeping
 * passes through. The facts are the route table's `part` (mapper/sdkRoutes.ts).
 */
export function isTurnOutput(message: SDKMessage): boolean {
  return partOf(message) !== 'aside';
}

/**
 * Whether what the running turn produces may go out now: no person's turn runs, it is bound, or a reserved
 * continuation owns the output (its follow-up comes before the person's echo). Permission requests, questions and
 * plans wait on this as the messages do.
 */
export function outputReleased(running: { barrier?: IdentityBarrier } | undefined, continuationReserved: boolean): boolean {
  return continuationReserved || running === undefined || running.barrier?.bound === true;
}

/** The SDK's echo of the prompt sent under `uuid`. */
export function isEchoOf(message: SDKMessage, uuid: string): boolean {
  return message.type === 'user' && message.uuid === uuid;
}

/**
 * Looks for exactly one user entry with `uuid` in the transcript until the deadline. `stillWanted` false (the
 * turn ended, was canceled or was bound by its echo meanwhile) stops the search.
 */
export async function resolveFromTranscript(input: {
  session: string;
  cwd: string;
  uuid: string;
  transcript: TranscriptFn;
  stillWanted: () => boolean;
  deadlineMs?: number;
}): Promise<Resolution> {
  const deadline = Date.now() + (input.deadlineMs ?? IDENTITY_DEADLINE_MS);
  let lastError = '';
  while (input.stillWanted()) {
    try {
      const messages = await input.transcript(input.session, { dir: input.cwd });
      const found = messages.filter((m) => isUserWithUuid(m, input.uuid)).length;
      if (found === 1) return { bound: true };
      if (found > 1) return { bound: false, reason: `${found} persisted messages carry the prompt's uuid` };
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  const why = lastError !== '' ? ` (${lastError})` : '';
  return { bound: false, reason: `Claude Code did not persist this turn's prompt within ${input.deadlineMs ?? IDENTITY_DEADLINE_MS} ms${why}` };
}

function isUserWithUuid(message: unknown, uuid: string): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as { type?: unknown; uuid?: unknown };
  return m.type === 'user' && m.uuid === uuid;
}
