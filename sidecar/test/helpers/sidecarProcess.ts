// Spawns the sidecar (from source under bun, or a compiled binary) and reads its stdout protocol lines.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { outputLineSchema, type OutputLine } from '../../src/protocol/schemas.js';
import { SIDECAR_ROOT } from './fakeApi.js';

export const BUN = join(SIDECAR_ROOT, 'node_modules/.bin/bun');

export interface SidecarProcess {
  child: ChildProcess;
  /** Every stdout line so far, parsed and validated against the wire schema. */
  lines: OutputLine[];
  /** Raw stdout lines that failed validation (should stay empty). */
  invalid: string[];
  stderr(): string;
  send(value: unknown): void;
  sendRaw(text: string): void;
  /** Resolves with the first line (from the start) that matches. */
  waitFor(match: (line: OutputLine) => boolean, timeoutMs?: number): Promise<OutputLine>;
  reply(id: string, timeoutMs?: number): Promise<OutputLine>;
  /** Closes stdin and resolves with the exit code. */
  end(timeoutMs?: number): Promise<number | null>;
}

export function spawnSidecar(options: { env: NodeJS.ProcessEnv; command?: string[] }): SidecarProcess {
  const [cmd, ...args] = options.command ?? [BUN, join(SIDECAR_ROOT, 'src/main.ts')];
  const child = spawn(cmd!, args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'], cwd: SIDECAR_ROOT });
  const lines: OutputLine[] = [];
  const invalid: string[] = [];
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', (text) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      invalid.push(text);
      return;
    }
    const line = outputLineSchema.safeParse(parsed);
    if (line.success) lines.push(line.data);
    else invalid.push(text);
    for (const wake of waiters) wake();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const waitFor = (match: (line: OutputLine) => boolean, timeoutMs = 30_000): Promise<OutputLine> =>
    new Promise((ok, fail) => {
      const check = (): boolean => {
        const found = lines.find(match);
        if (found === undefined) return false;
        waiters.delete(wake);
        clearTimeout(timer);
        ok(found);
        return true;
      };
      const wake = (): void => {
        check();
      };
      const timer = setTimeout(() => {
        waiters.delete(wake);
        fail(new Error(`no matching line within ${timeoutMs} ms; stderr tail:\n${stderr.slice(-2000)}`));
      }, timeoutMs);
      if (!check()) waiters.add(wake);
    });

  return {
    child,
    lines,
    invalid,
    stderr: () => stderr,
    send: (value) => child.stdin!.write(`${JSON.stringify(value)}\n`),
    sendRaw: (text) => child.stdin!.write(text),
    waitFor,
    reply: (id, timeoutMs) => waitFor((l) => 'id' in l && l.id === id, timeoutMs),
    async end(timeoutMs = 30_000) {
      child.stdin!.end();
      const killTimer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(killTimer);
      return code;
    },
  };
}
