// Records one real multi-turn session: the real SDK and claude CLI against the scripted fake Messages API
// (app/internal/fakeapi), with the sidecar's own query options, a settings hook and a local plugin's hooks (a
// directory it writes, loaded through the SDK's plugins option), and a subagent. Writes, with temp paths scrubbed to
// /home/user/… and thinking signatures cleared:
//   testdata/recorded/session.sdk.jsonl      every SDK message as received, one JSON per line
//   testdata/recorded/session.history.jsonl  getSessionMessages() for the same session afterwards
//   testdata/recorded/session.meta.json      what the sidecar itself contributed: the prompts sent (turn id,
//                                            uuid), each canUseTool ask with the verdict given, and the goal
//                                            statuses read from the transcript after each turn
// Run: npm run record   (BATON_FAKEAPI_BIN=<prebuilt baton-fakeapi> skips `go run`).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { UUID } from 'node:crypto';
import { type CanUseTool, getSessionMessages, type PermissionResult, query, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { ClaudeProcess } from '../src/session/claudeProcess.js';
import { InputQueue } from '../src/session/inputQueue.js';
import { resolveSdkBinary, selectExecutable } from '../src/session/executable.js';
import { buildQueryOptions } from '../src/session/queryOptions.js';
import { readGoalStatuses } from '../src/history/goalStatus.js';
import type { GoalObservation } from '../src/mapper/background.js';

const SIDECAR_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = resolve(SIDECAR_ROOT, '..');
const OUT_DIR = join(SIDECAR_ROOT, 'testdata/recorded');

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
      prompt: '[tool TaskCreate {"subject":"Write the release notes","description":"Draft notes for the release","activeForm":"Writing the release notes"}]',
    },
    { turn: 't7', prompt: '[tool TaskUpdate {"taskId":"1","status":"in_progress"}]' },
    { turn: 't8', prompt: '[tool Read {"file_path":"README.md"}]' },
    { turn: 't9', prompt: '[tool Edit {"file_path":"README.md","old_string":"Draft","new_string":"Final"}]' },
    { turn: 't10', prompt: '[tool TaskUpdate {"taskId":"1","status":"completed"}]' },
    // Background work: the turn's follow-up (after the task's notification) is recorded with it.
    { turn: 't11', prompt: '[tool Bash {"command":"sleep 1; echo done","description":"wait, then say done","run_in_background":true}]' },
    // The goal's stop hook: not met, then met (the fake evaluates "[goal-met]" in the answer).
    { turn: 't12', prompt: '/goal the greeting was answered' },
    // Thinking the API counts itself (estimated_tokens on its deltas): Claude Code's thinking_tokens carry it.
    { turn: 't13', prompt: '[think-estimated] Weigh the options.' },
    // A subagent (the Agent tool) whose own Bash runs under it; the plugin's PostToolUse hook runs after it.
    { turn: 't14', prompt: `[tool Agent ${SUBAGENT_INPUT}]` },
  ];
}

/**
 * The subagent t14 starts: the fake answers its prompt like any other, with a Bash call. The marker's "[" is
 * escaped in the JSON, so the root's own prompt holds no marker of it (the root starts only the agent).
 */
const SUBAGENT_INPUT = '{"description":"look around","prompt":"\\u005bbash echo from the agent]","subagent_type":"general-purpose"}';

/**
 * A local plugin with a hooks.json (no network: a directory the recorder writes): its PostToolUse hook runs after
 * every Bash (t5, t11 and the subagent's, t14).
 */
function writePlugin(root: string): string {
  const dir = join(root, 'plugins', 'baton-recorded');
  mkdirSync(join(dir, '.claude-plugin'), { recursive: true });
  mkdirSync(join(dir, 'hooks'));
  writeFileSync(
    join(dir, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name: 'baton-recorded', version: '1.0.0', description: 'Hooks for the recorded session' }),
  );
  writeFileSync(
    join(dir, 'hooks', 'hooks.json'),
    JSON.stringify({
      hooks: {
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo plugin saw bash' }] }],
      },
    }),
  );
  return dir;
}

async function startFakeApi(): Promise<{ url: string; child: ChildProcess }> {
  const prebuilt = process.env['BATON_FAKEAPI_BIN'];
  const child = prebuilt
    ? spawn(prebuilt, [], { stdio: ['pipe', 'pipe', 'inherit'] })
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
  const tempRoot = realpathSync(mkdtempSync(join(tmpdir(), 'baton-record-')));
  let fake: { url: string; child: ChildProcess } | undefined;
  try {
    fake = await startFakeApi();
    await record(tempRoot, fake.url);
  } finally {
    fake?.child.stdin?.end();
    rmSync(tempRoot, { recursive: true, force: true });
  }
}

async function record(tempRoot: string, apiUrl: string): Promise<void> {
  const project = join(tempRoot, 'project');
  const configDir = join(tempRoot, '.claude');
  mkdirSync(project);
  mkdirSync(configDir);
  writeFileSync(join(project, 'README.md'), '# Demo\n\nDraft readme.\n');
  writeFileSync(
    join(configDir, 'settings.json'),
    // A command hook from the settings: it runs after the one Read (t8). (Compaction is not recorded here: it cuts
    // the transcript that history is read from; test/e2e/goalsAndHooks.test.ts covers it.)
    JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'echo read checked' }] }] } }),
  );
  // Session functions read the calling process's config dir, so the recorder uses the same one.
  process.env['HOME'] = tempRoot;
  process.env['CLAUDE_CONFIG_DIR'] = configDir;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: tempRoot,
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'sk-test-any',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    IS_SANDBOX: '1',
  };
  const messages: unknown[] = [];
  const permissions: PermissionRecord[] = [];
  const turns = turnsFor().map((t, i) => ({ ...t, uuid: promptUuid(i + 1) }));
  let currentTurn = '';
  // The goal statuses Claude Code filed in the transcript, by the turn after which they were read (as the sidecar
  // reads them after each result).
  const goals: Array<{ turn: string; observation: GoalObservation }> = [];

  // Scripted person: denies anything named secret, allows Edit "always" (its suggestions), allows the rest.
  const canUseTool: CanUseTool = async (toolName, input, options): Promise<PermissionResult> => {
    const path = typeof input['file_path'] === 'string' ? input['file_path'] : '';
    const verdict = path.includes('secret') ? 'deny' : toolName === 'Edit' ? 'allow_always' : 'allow';
    permissions.push({
      afterMessages: messages.length,
      turn: currentTurn,
      toolName,
      input,
      requestId: options.requestId,
      toolUseID: options.toolUseID,
      suggestions: options.suggestions ?? [],
      title: options.title,
      description: options.description,
      decisionReason: options.decisionReason,
      verdict,
      ...(verdict === 'deny' ? { message: DENIED_MESSAGE } : {}),
    });
    if (verdict === 'deny') return { behavior: 'deny', message: DENIED_MESSAGE, toolUseID: options.toolUseID };
    return {
      behavior: 'allow',
      updatedInput: input,
      ...(verdict === 'allow_always' ? { updatedPermissions: options.suggestions ?? [] } : {}),
      toolUseID: options.toolUseID,
    };
  };

  const executable = selectExecutable({ env: process.env, hostPath: undefined, resolveSdkBinary });
  const input = new InputQueue<SDKUserMessage>();
  const claude = new ClaudeProcess((data) => process.stderr.write(data));
  const q = query({
    prompt: input,
    options: {
      ...buildQueryOptions({
        start: { session: RECORDED_SESSION, cwd: project },
        executable: executable.path,
        stderr: (data) => process.stderr.write(data),
        env,
        runningAsRoot: typeof process.getuid === 'function' && process.getuid() === 0,
      }),
      canUseTool,
      spawnClaudeCodeProcess: claude.spawn,
      plugins: [{ type: 'local', path: writePlugin(tempRoot) }],
    },
  });
  try {
    const iterator = q[Symbol.asyncIterator]();
    for (const turn of turns) {
      currentTurn = turn.turn;
      input.push({ type: 'user', message: { role: 'user', content: turn.prompt }, parent_tool_use_id: null, uuid: turn.uuid });
      // A turn ends at its result, unless background work is live or a follow-up is due: then at the
      // follow-up's result once nothing runs (as the sidecar holds the turn open).
      let live = 0;
      let due = false;
      let resulted = false;
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) throw new Error(`the session ended during turn ${turn.turn}`);
        const m = next.value;
        messages.push(m);
        if (m.type === 'system' && m.subtype === 'background_tasks_changed') live = m.tasks.length;
        if (m.type === 'system' && m.subtype === 'task_notification') due = true;
        if (m.type === 'result') {
          resulted = true;
          if ('origin' in m && (m.origin as { kind?: string } | null | undefined)?.kind === 'task-notification') due = false;
        }
        const level = m.type === 'system' && m.subtype === 'background_tasks_changed';
        // Idle is the authoritative turn-over edge: a notification Claude Code folded into a result gets no
        // follow-up of its own.
        const idle = m.type === 'system' && m.subtype === 'session_state_changed' && m.state === 'idle';
        if (resulted && live === 0 && (idle || (!due && (m.type === 'result' || level)))) break;
      }
      const known = new Set(goals.map((g) => g.observation.uuid));
      for (const observation of await readGoalStatuses(RECORDED_SESSION, configDir)) {
        if (!known.has(observation.uuid)) goals.push({ turn: turn.turn, observation });
      }
      process.stderr.write(`recorded ${turn.turn}\n`);
    }
  } finally {
    input.close();
    q.close();
    await claude.stop();
  }
  const history = await getSessionMessages(RECORDED_SESSION, { dir: project });

  const meta = {
    session: RECORDED_SESSION,
    cwd: join(SCRUBBED_HOME, 'project'),
    turns: turns.map((t) => ({ turn: t.turn, prompt: t.prompt, uuid: t.uuid })),
    permissions,
    goals,
  };
  const scrub = scrubber(tempRoot);
  // Stream deltas can split a path where no replacement sees it whole: refuse to write such a recording.
  const rootName = basename(tempRoot);
  if ([messages, history, meta].some((items) => JSON.stringify(scrub(items)).includes(rootName))) {
    throw new Error(`a temp path survived scrubbing (${tempRoot}); avoid absolute paths in prompts`);
  }
  mkdirSync(OUT_DIR, { recursive: true });
  const jsonl = (items: unknown[]): string => `${items.map((m) => JSON.stringify(scrub(m))).join('\n')}\n`;
  writeFileSync(join(OUT_DIR, 'session.sdk.jsonl'), jsonl(messages));
  writeFileSync(join(OUT_DIR, 'session.history.jsonl'), jsonl(history));
  writeFileSync(join(OUT_DIR, 'session.meta.json'), `${JSON.stringify(scrub(meta), null, 2)}\n`);
  process.stderr.write(`wrote ${messages.length} SDK messages and ${history.length} history messages to ${OUT_DIR}\n`);
}

await main();
