// Spawns the claude CLI for one session (the SDK's spawnClaudeCodeProcess hook) so the session can wait
// until the process is really gone: the SDK's own shutdown kills a busy CLI from unref'd timers, which
// never fire once the sidecar exits, and would leave the child running.
import { type ChildProcess, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { SpawnedProcess, SpawnOptions } from '@anthropic-ai/claude-agent-sdk';

/** How long a CLI may take to exit after its input closed before it is killed. */
const EXIT_GRACE_MS = 5_000;

export class ClaudeProcess {
  private child: ChildProcess | undefined;
  private exit: Promise<void> = Promise.resolve();

  /**
   * @param stderr receives the CLI's stderr as text (the SDK does not read it from a custom spawn).
   * @param onExit hears how the CLI ended: an idle CLI's death is not noticed by the SDK until the next prompt.
   */
  constructor(
    private readonly stderr: (data: string) => void,
    private readonly onExit: (how: string) => void = () => undefined,
  ) {}

  readonly spawn = (options: SpawnOptions): SpawnedProcess => {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      signal: options.signal,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.child = child;
    this.exit = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        resolve();
        this.onExit(signal !== null ? `it was ended by ${signal}` : `it exited with code ${code ?? 'unknown'}`);
      });
      // A failed spawn emits error and no exit.
      child.once('error', () => {
        if (child.pid === undefined) resolve();
      });
    });
    const decoder = new StringDecoder('utf8');
    child.stderr?.on('data', (chunk: Buffer) => this.stderr(decoder.write(chunk)));
    child.stderr?.on('error', () => undefined);
    return child;
  };

  /** The CLI's process id, once spawned. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Resolves once the CLI exited (at once when it never started). */
  exited(): Promise<void> {
    return this.exit;
  }

  /** SIGKILL: also ends a process stopped with SIGSTOP, which cannot act on stdin's end or SIGTERM. */
  kill(): void {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
  }

  /** Resolves once the CLI exited, killing it if it is still there after the grace period. */
  async stop(graceMs = EXIT_GRACE_MS): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await this.exit;
    clearTimeout(timer);
  }
}
