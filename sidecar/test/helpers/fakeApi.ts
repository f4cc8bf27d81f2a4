// Starts the scripted fake Messages API (Go, app/internal/fakeapi) on 127.0.0.1 and an isolated HOME /
// CLAUDE_CONFIG_DIR for the claude CLI. BATON_FAKEAPI_BIN may name a prebuilt baton-fakeapi to skip `go run`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, '../../..');
export const SIDECAR_ROOT = resolve(HERE, '../..');
export const CLAUDE_BINARY = join(SIDECAR_ROOT, 'node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude');

export interface FakeApi {
  url: string;
  /** The request targets served so far ("POST /v1/messages?beta=true", …), from the fake's request log. */
  requests(): string[];
  /** The model each streamed Messages request asked for, in order (a turn's calls; not the probes). */
  streamedModels(): string[];
  stop(): Promise<void>;
}

export async function startFakeApi(): Promise<FakeApi> {
  const prebuilt = process.env['BATON_FAKEAPI_BIN'];
  const child: ChildProcess = prebuilt
    ? spawn(prebuilt, [], { stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn('go', ['run', './app/internal/fakeapi/cmd/baton-fakeapi'], {
        cwd: REPO_ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
  // One log line per request: "… INF request method=POST target=/v1/messages?beta=true status=200 …".
  const requests: string[] = [];
  const streamedModels: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    const hit = /\brequest\b.*\bmethod=(\S+).*\btarget=(\S+)/.exec(line);
    if (hit !== null) requests.push(`${hit[1]} ${hit[2]}`);
    const streamed = /\brequest\b.*\bmodel=(\S+).*\bstream=true\b/.exec(line);
    if (streamed?.[1] !== undefined) streamedModels.push(streamed[1]);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = await new Promise<string>((ok, fail) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => ok(line.trim()));
    child.once('exit', (code) => fail(new Error(`baton-fakeapi exited (${code}) before printing its URL`)));
  });
  return {
    url,
    requests: () => [...requests],
    streamedModels: () => [...streamedModels],
    async stop() {
      // The fake exits when its stdin closes.
      child.stdin?.end();
      const killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killTimer);
    },
  };
}

export interface ClaudeHome {
  /** The temp root; HOME of the CLI. */
  home: string;
  configDir: string;
  /** An empty project directory (its real path: the CLI resolves symlinks in project keys). */
  project: string;
  env(apiUrl: string): NodeJS.ProcessEnv;
  remove(): void;
}

export function makeClaudeHome(prefix = 'baton-sidecar-test-'): ClaudeHome {
  const home = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const configDir = join(home, '.claude');
  const project = join(home, 'project');
  mkdirSync(configDir);
  mkdirSync(project);
  return {
    home,
    configDir,
    project,
    env: (apiUrl) => ({
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      CLAUDE_CONFIG_DIR: configDir,
      ANTHROPIC_BASE_URL: apiUrl,
      ANTHROPIC_API_KEY: 'sk-test-any',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_MAX_RETRIES: '0',
      // The CLI's scratch files and sockets stay in the temp home instead of piling up in /tmp.
      CLAUDE_CODE_TMPDIR: join(home, 'tmp'),
      // Tests may run as root (containers): the CLI refuses allowDangerouslySkipPermissions as root
      // unless it is told it runs in a sandbox.
      IS_SANDBOX: '1',
      // The CLI's git reads home's (empty) global config; this drops the machine's /etc/gitconfig too.
      GIT_CONFIG_NOSYSTEM: '1',
    }),
    remove: () => rmSync(home, { recursive: true, force: true }),
  };
}
