// @ts-nocheck
// Records one real multi-turn session: the real SDK and claude CLI against the scripted fake Messages API
// (app/internal/fakeapi), with the sidecar's own query options. Writes, with temp paths scrubbed to
// /home/user/… and thinking signatures cleared:
//   testdata/recorded/session.sdk.jsonl      every SDK message as received, one JSON per line
//   testdata/recorded/session.history.jsonl  getSessionMessages() for the same session afterwards
//   testdata/recorded/session.meta.json      what the sidecar itself contributed: the prompts sent (turn id,
//                                            uuid) and each canUseTool ask with the verdict given
// Run: npm run record   (BATON_FAKEAPI_BIN=<prebuilt baton-fakeapi> skips `go run`).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { UUID } from 'node:crypto';
import {
  type CanUseTool,
  getSessionMessages,
  type PermissionResult,
  query,
  type SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk';
import { ClaudeProcess } from '../src/session/claudeProcess.js';
import { InputQueue } from '../src/session/inputQueue.js';
import { resolveSdkBinary, selectExecutable } from '../src/session/executable.js';
import { buildQueryOptions } from '../src/session/queryOptions.js';

const SIDECAR_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = resolve(SIDECAR_ROOT, '..');


/** Fixed ids so re-recording changes only what the CLI makes up. */
const RECORDED_SESSION = '5e551011-0000-4000-8000-000000000001';
const promptUuid = (n: number): UUID => `7d3c1e2a-0000-4000-8000-${String(n).padStart(12, '0')}`;

const SCRUBBED_HOME = '/home/user';
const DENIED_MESSAGE = 'Not that file';

interface PermissionRecord {
  /** How many SDK messages had arrived when canUseTool was called. */
  afterMessages: number;
  turn: string;
  toolName: string;
  input: Record<string, unknown>;
  requestId: string;
  toolUseID: string;
  suggestions: unknown[];
  title?: string | undefined;
  description?: string | undefined;
  decisionReason?: string | undefined;
  verdict: 'allow' | 'allow_always' | 'deny';
  message?: string;
}

function turnsFor(): Array<{ turn: string; prompt: string }> {
  return [
    { turn: 't1', prompt: 'Hello! What can you do?' },
    { turn: 't2', prompt: '[think] Plan the release notes.' },
    { turn: 't3', prompt: '[write notes.txt Release notes: everything is faster.]' },
    { turn: 't4', prompt: '[write secret.txt This must not be written.]' },
    { turn: 't5', prompt: '[bash echo hello from bash]' },
    {
      turn: 't6',
      prompt:
        '[tool TaskCreate {"subject":"Write the release notes","description":"Draft notes for the release","activeForm":"Writing the release notes"}]',
    },
    { turn: 't7', prompt: '[tool TaskUpdate {"taskId":"1","status":"in_progress"}]' },
    { turn: 't8', prompt: '[tool Read {"file_path":"README.md"}]' },
    { turn: 't9', prompt: '[tool Edit {"file_path":"README.md","old_string":"Draft","new_string":"Final"}]' },
    { turn: 't10', prompt: '[tool TaskUpdate {"taskId":"1","status":"completed"}]' },
  ];
}

async function startFakeApi(): Promise<{ url: string; child: ChildProcess }> {
  const prebuilt = process.env['BATON_FAKEAPI_BIN'];
  const child = prebuilt
    ? spawn(prebuilt, [], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, BATON_FAKEAPI_TRACE: '1' } })
    : spawn('go', ['run', './app/internal/fakeapi/cmd/baton-fakeapi'], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once('line', (line) => ok(line.trim()));
    child.once('exit', (code) => fail(new Error(`baton-fakeapi exited (${code}) before printing its URL`)));
  });
  return { url, child };
}

/** Replaces temp paths (and their project-key spelling) and clears thinking signatures, recursively. */
function scrubber(tempRoot: string): (value: unknown) => unknown {
  const key = (path: string): string => path.replace(/[^a-zA-Z0-9]/g, '-');
  const replacements: Array<[string, string]> = [
    [tempRoot, SCRUBBED_HOME],
    [key(tempRoot), key(SCRUBBED_HOME)],
  ];
  const scrubString = (text: string): string =>
    replacements
      .reduce((acc, [from, to]) => acc.split(from).join(to), text)
      // The CLI's per-process messaging socket: a temp path named after a pid.
      .replace(/\/tmp\/cc-socks\/\d+\.sock/g, '/tmp/cc-socks/0.sock');
  const scrub = (value: unknown, field?: string): unknown => {
    if (typeof value === 'string') return field === 'signature' ? '' : scrubString(value);
    if (Array.isArray(value)) return value.map((item) => scrub(item));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrubString(k), scrub(v, k)]));
    }
    return value;
  };
  return (value) => scrub(value);
}


async function main(): Promise<void> {
  const tempRoot = realpathSync(mkdtempSync(join(tmpdir(), 'baton-explore-')));
  const fake = await startFakeApi();
  try {
    const project = join(tempRoot, 'project');
    const configDir = join(tempRoot, '.claude');
    mkdirSync(project);
    mkdirSync(configDir);
    process.env['HOME'] = tempRoot;
    process.env['CLAUDE_CONFIG_DIR'] = configDir;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tempRoot, CLAUDE_CONFIG_DIR: configDir,
      ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-test-any', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_MAX_RETRIES: '0', IS_SANDBOX: '1',
    };
    const prompts = JSON.parse(process.env['EXPLORE_PROMPTS'] ?? '[]') as string[];
    const waitFollowUps = Number(process.env['EXPLORE_FOLLOWUPS'] ?? '0');
    const executable = selectExecutable({ env: process.env, hostPath: undefined, resolveSdkBinary });
    const input = new InputQueue<SDKUserMessage>();
    const claude = new ClaudeProcess((data) => process.stderr.write(data));
    const q = query({ prompt: input, options: { ...buildQueryOptions({ start: { session: RECORDED_SESSION, cwd: project }, executable: executable.path, stderr: (d) => process.stderr.write(d), env, runningAsRoot: process.getuid?.() === 0 }), canUseTool: async (_n, inp, o) => ({ behavior: 'allow', updatedInput: inp, toolUseID: o.toolUseID }), spawnClaudeCodeProcess: claude.spawn } });
    const it = q[Symbol.asyncIterator]();
    let n = 0;
    for (const p of prompts) {
      n += 1;
      input.push({ type: 'user', message: { role: 'user', content: p }, parent_tool_use_id: null, uuid: promptUuid(n) });
      let results = 0;
      for (;;) {
        const next = await Promise.race([it.next(), new Promise<{ done: true; value: undefined }>((ok) => setTimeout(() => ok({ done: true, value: undefined }), 15000))]);
        if (next.done === true) { console.log('-- timeout/done'); break; }
        const m = next.value as Record<string, unknown>;
        if (m['type'] !== 'stream_event') console.log(JSON.stringify(m).slice(0, Number(process.env['EXPLORE_WIDTH'] ?? '400')));
        if (m['type'] === 'result') { results += 1; if (results > waitFollowUps) break; }
      }
    }
    if (process.env['EXPLORE_HISTORY']) for (const m of await getSessionMessages(RECORDED_SESSION, { dir: project })) console.log('H', JSON.stringify(m).slice(0, 400));
    if (process.env['EXPLORE_RAW']) { const { execSync } = await import('node:child_process'); console.log(execSync(`find ${configDir}/projects -name '*.jsonl' | xargs cat | grep -v '"type":"queue-operation"' | cut -c1-700`).toString()); }
    input.close(); q.close();
  } finally {
    fake.child.stdin?.end();
    rmSync(tempRoot, { recursive: true, force: true });
  }
}
void main();
