// One query generation: one SDK query() with its own prompt queue, claude process and consumer loop. A session
// outlives its generations: a cancel of a dispatched turn revokes the current one, and the next prompt opens a
// fresh one with `resume`. Once revoked, a generation is fenced: its messages are dropped before the mapper, its
// permission requests are denied and its PreToolUse hook blocks every tool (bypass mode included).
import type { CanUseTool, HookCallbackMatcher, HookEvent, Options, PermissionResult, Query, SDKMessage, SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { ClaudeProcess } from './claudeProcess.js';
import { InputQueue } from './inputQueue.js';

export type QueryFn = (params: { prompt: AsyncIterable<SDKUserMessage>; options: Options }) => Query;

/** Why a revoked generation refuses a tool (the model may read it in the tool result). */
/** How long after the CLI exited the consumer loop may take to end on its own before the exit ends the generation. */
const EXIT_NOTICE_MS = 1_000;

export const REVOKED_MESSAGE = 'The turn was canceled; this tool use did not run.';

export interface GenerationDeps {
  number: number;
  query: QueryFn;
  /** The query's options; the generation adds its own spawn, permission gate and fence hook. */
  options: Omit<Options, 'canUseTool' | 'spawnClaudeCodeProcess' | 'hooks'>;
  canUseTool: CanUseTool;
  stderr: (data: string) => void;
  /** Every message of a live (not revoked) generation, in order. */
  onMessage: (generation: Generation, message: SDKMessage) => void;
  /** The consumer loop ended: error is undefined when the iterator ended normally. */
  onEnded: (generation: Generation, error: unknown) => void;
}

export class Generation {
  readonly number: number;
  readonly query: Query;
  private readonly input = new InputQueue<SDKUserMessage>();
  private readonly claude: ClaudeProcess;
  private revokedFlag = false;
  private closed = false;
  private dispatchedCount = 0;
  private endReported = false;
  /** Resolves when the consumer loop ended and the claude process exited. */
  readonly settled: Promise<void>;

  constructor(private readonly deps: GenerationDeps) {
    this.number = deps.number;
    let loop: Promise<void> = Promise.resolve();
    // The SDK notices a CLI that died mid-response (its loop ends after what the CLI wrote was routed), but an idle
    // CLI's death only when the next prompt finds it gone: after a short grace the exit ends the generation.
    this.claude = new ClaudeProcess(deps.stderr, (how) => {
      if (this.closed) return;
      const timer = setTimeout(() => this.ended(new Error(`the claude process ended unexpectedly: ${how}`)), EXIT_NOTICE_MS);
      void loop.finally(() => clearTimeout(timer));
    });
    const canUseTool: CanUseTool = (toolName, input, options) =>
      this.revokedFlag ? Promise.resolve(revokedDenial(options.toolUseID)) : deps.canUseTool(toolName, input, options);
    this.query = deps.query({
      prompt: this.input,
      options: { ...deps.options, canUseTool, spawnClaudeCodeProcess: this.claude.spawn, hooks: this.fenceHooks() },
    });
    loop = this.consume();
    this.settled = loop.then(() => this.claude.exited());
  }

  get revoked(): boolean {
    return this.revokedFlag;
  }

  /** How many prompts were handed to this generation's SDK input. */
  get dispatched(): number {
    return this.dispatchedCount;
  }

  /** Nothing more from this generation is routed, asked about or run. Irreversible. */
  revoke(): void {
    this.revokedFlag = true;
  }

  /** Hands a prompt to the SDK (the turn is dispatched from here on). */
  dispatch(message: SDKUserMessage): void {
    this.dispatchedCount += 1;
    this.input.push(message);
  }

  /**
   * Closes the query's transport: the SDK ends the child's stdin and escalates SIGTERM → SIGKILL on its own
   * (slowly); the caller bounds the wait with `settled` and `kill`.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.input.close();
    this.query.close();
  }

  /** SIGKILL for the claude process (a stopped process cannot act on stdin's end or SIGTERM). */
  kill(): void {
    this.claude.kill();
  }

  /** The claude process id, once spawned. */
  get pid(): number | undefined {
    return this.claude.pid;
  }

  /** Closes and waits until the process is gone, killing it after graceMs. */
  async stop(graceMs?: number): Promise<void> {
    this.close();
    await this.claude.stop(graceMs);
    await this.settled;
  }

  private async consume(): Promise<void> {
    let failure: unknown;
    try {
      for await (const message of this.query) {
        if (!this.revokedFlag) this.deps.onMessage(this, message);
      }
    } catch (error) {
      failure = error ?? new Error('the query failed');
    }
    this.ended(failure);
  }

  /** Reports the generation's end once: the consumer loop's end, or the process's exit, whichever comes first. */
  private ended(failure: unknown): void {
    if (this.endReported) return;
    this.endReported = true;
    this.deps.onEnded(this, failure);
  }

  /** A PreToolUse hook that blocks every tool once revoked: canUseTool is not asked in bypass mode. */
  private fenceHooks(): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
    return {
      PreToolUse: [
        {
          hooks: [
            () =>
              Promise.resolve(
                this.revokedFlag
                  ? {
                      decision: 'block' as const,
                      reason: REVOKED_MESSAGE,
                      hookSpecificOutput: {
                        hookEventName: 'PreToolUse' as const,
                        permissionDecision: 'deny' as const,
                        permissionDecisionReason: REVOKED_MESSAGE,
                      },
                    }
                  : {},
              ),
          ],
        },
      ],
    };
  }
}

function revokedDenial(toolUseID: string): PermissionResult {
  return { behavior: 'deny', message: REVOKED_MESSAGE, interrupt: true, toolUseID };
}
