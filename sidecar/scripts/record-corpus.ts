// Records the transcript corpus (testdata/corpus): real Claude Code CLIs of three generations (1.0.51, 2.0.50
// from the npm registry; the SDK's bundled 2.1.x) run scripted conversations against the fake Messages API
// (app/internal/fakeapi), each in a throwaway HOME, and the transcripts they leave on disk are copied in with the
// config dir's layout, temp paths rewritten to /home/user:
//   testdata/corpus/projects/<key>/…           1.0.51 and 2.0.50 (the older on-disk layouts)
//   testdata/corpus/recorded/projects/<key>/…  the CLI Baton runs (the SDK's bundled binary)
//   testdata/corpus/manifest.json              per file: CLI version, scenario, what it covers, what was rewritten
// Run: npm run record:corpus. BATON_FAKEAPI_BIN=<prebuilt baton-fakeapi> skips `go run`;
// BATON_CORPUS_CLIS=<dir> reuses <dir>/<version>/node_modules/@anthropic-ai/claude-code (else npm installs them).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { resolveSdkBinary } from '../src/session/executable.js';
import { findHomePaths, findSecrets, SCRUBBED_HOME, scrubText } from './corpus/scrub.js';
import { type Scenario, scenarios, type Step } from './corpus/scenarios.js';

const SIDECAR_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = resolve(SIDECAR_ROOT, '..');
const OUT_DIR = join(SIDECAR_ROOT, 'testdata/corpus');
const STEP_TIMEOUT_MS = 90_000;
/** Written in the cwd after a kill mid-tool; the scenario's tool waits for it (scripts/corpus/scenarios.ts). */
const STOP_FLAG = 'stop.flag';

interface Cli {
  version: string;
  command: string;
  args: string[];
  /** Where its transcripts go under OUT_DIR. */
  tree: 'projects' | 'recorded/projects';
}

export interface ManifestEntry {
  file: string;
  cliVersion: string;
  scenario: string;
  covers: string[];
  source: string;
  rewritten: string[];
}

async function main(): Promise<void> {
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'baton-corpus-')));
  const fake = await startFakeApi();
  try {
    const clis = resolveClis(work);
    const entries: ManifestEntry[] = [];
    for (const tree of ['projects', 'recorded/projects'] as const) rmSync(join(OUT_DIR, tree), { recursive: true, force: true });
    for (const scenario of scenarios) {
      const cli = clis.find((c) => c.version.startsWith(scenario.cli));
      if (cli === undefined) throw new Error(`no CLI for ${scenario.cli}`);
      entries.push(...(await recordScenario(scenario, cli, fake.url, work)));
      process.stderr.write(`recorded ${scenario.name} with ${cli.version}\n`);
    }
    entries.sort((a, b) => a.file.localeCompare(b.file));
    writeFileSync(join(OUT_DIR, 'manifest.json'), `${JSON.stringify({ knownCorruptLines: [], files: entries }, null, 2)}\n`);
    process.stderr.write(`wrote ${entries.length} files to ${OUT_DIR}\n`);
  } finally {
    fake.child.stdin?.end();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The npm CLIs (installed into work unless BATON_CORPUS_CLIS has them) and the SDK's bundled one. */
function resolveClis(work: string): Cli[] {
  const fromEnv = process.env['BATON_CORPUS_CLIS'];
  const npmClis = ['1.0.51', '2.0.50'].map((version): Cli => {
    const base = fromEnv ?? join(work, 'clis');
    const cliJs = join(base, version, 'node_modules/@anthropic-ai/claude-code/cli.js');
    if (!existsSync(cliJs)) {
      mkdirSync(join(base, version), { recursive: true });
      writeFileSync(join(base, version, 'package.json'), '{"private":true}\n');
      execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `@anthropic-ai/claude-code@${version}`], {
        cwd: join(base, version),
        stdio: 'inherit',
      });
    }
    return { version, command: 'node', args: [cliJs], tree: 'projects' };
  });
  const bundled = resolveSdkBinary();
  if (bundled === undefined) throw new Error("the SDK's bundled claude binary is not installed (npm ci in sidecar)");
  const version = execFileSync(bundled, ['--version'], { encoding: 'utf8' }).split(' ')[0]!.trim();
  return [...npmClis, { version, command: bundled, args: [], tree: 'recorded/projects' }];
}

async function startFakeApi(): Promise<{ url: string; child: ChildProcess }> {
  const prebuilt = process.env['BATON_FAKEAPI_BIN'];
  const child = prebuilt
    ? spawn(prebuilt, [], { stdio: ['pipe', 'pipe', 'ignore'] })
    : spawn('go', ['run', './app/internal/fakeapi/cmd/baton-fakeapi'], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
  const url = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once('line', (line) => ok(line.trim()));
    child.once('exit', (code) => fail(new Error(`baton-fakeapi exited (${code}) before printing its URL`)));
  });
  return { url, child };
}

/** Runs one scenario in its own HOME and copies the transcripts it left into the corpus. */
async function recordScenario(scenario: Scenario, cli: Cli, apiUrl: string, work: string): Promise<ManifestEntry[]> {
  const home = join(work, scenario.name);
  const cwd = join(home, scenario.name);
  const configDir = join(home, '.claude');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(configDir);
  writeFileSync(join(cwd, 'README.md'), '# Demo\n\nDraft readme.\n');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'sk-test-any',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // No retries: a scripted 429 exhausts the budget at once and the CLI files its API-error entry.
    CLAUDE_CODE_MAX_RETRIES: '0',
    IS_SANDBOX: '1',
    // The CLI's own temp files (shell cwd, pasted images, task output) stay inside HOME, removed with it.
    TMPDIR: join(home, 'tmp'),
  };
  mkdirSync(join(home, 'tmp'));
  const args = [...cli.args, '-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'];
  // Its own process group, so a kill mid-tool takes the tool's processes along.
  const child = spawn(cli.command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const lines = createInterface({ input: child.stdout! });
  const results: Array<() => void> = [];
  lines.on('line', (line) => {
    if (isResult(line)) results.shift()?.();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let killed = false;
  for (const step of scenario.steps) {
    killed = await runStep(step, cwd, child, results);
    if (killed) break;
  }
  if (!killed) child.stdin!.end();
  const code = await withTimeout(exited, `${scenario.name}: the CLI did not exit`);
  if (!killed && code !== 0) process.stderr.write(`${scenario.name}: the CLI exited ${code}: ${stderr.slice(-2000)}\n`);
  return copyTranscripts(scenario, cli, home, configDir);
}

/** Sends one step and waits for its result (or kills the CLI mid-tool). True when the CLI was killed. */
async function runStep(step: Step, cwd: string, child: ChildProcess, results: Array<() => void>): Promise<boolean> {
  const content = typeof step.prompt === 'function' ? step.prompt(cwd) : step.prompt;
  const done = new Promise<void>((ok) => results.push(ok));
  child.stdin!.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content } })}\n`);
  if (step.killWhenFileExists === undefined) {
    await withTimeout(done, `no result for ${JSON.stringify(content).slice(0, 80)}`);
    return false;
  }
  const flag = join(cwd, step.killWhenFileExists);
  await withTimeout(waitForFile(flag), `${flag} never appeared`);
  process.kill(-child.pid!, 'SIGKILL');
  // A killed 2.1.x CLI cannot remove its messaging socket, which ignores TMPDIR.
  rmSync(`/tmp/cc-socks/${child.pid}.sock`, { force: true });
  // The CLI runs its shell in a process group of its own: this ends the tool too.
  writeFileSync(join(cwd, STOP_FLAG), '');
  return true;
}

function isResult(line: string): boolean {
  try {
    return (JSON.parse(line) as { type?: unknown }).type === 'result';
  } catch {
    return false;
  }
}

async function waitForFile(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((ok) => setTimeout(ok, 50));
}

async function withTimeout<T>(p: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_ok, fail) => {
    timer = setTimeout(() => fail(new Error(message)), STEP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Copies every file under <configDir>/projects into the corpus tree, scrubbed, and describes each. */
function copyTranscripts(scenario: Scenario, cli: Cli, home: string, configDir: string): ManifestEntry[] {
  const from = join(configDir, 'projects');
  const entries: ManifestEntry[] = [];
  for (const path of walk(from)) {
    const rel = scrubText(relative(from, path), [{ from: home, to: SCRUBBED_HOME }]);
    const text = scrubText(readFileSync(path, 'utf8'), [{ from: home, to: SCRUBBED_HOME }]);
    const left = [...findHomePaths(text), ...findSecrets(text)];
    if (left.length > 0 || text.includes(home)) throw new Error(`${path}: left after scrubbing: ${left.join(', ') || home}`);
    const file = join(cli.tree, rel);
    mkdirSync(dirname(join(OUT_DIR, file)), { recursive: true });
    writeFileSync(join(OUT_DIR, file), text);
    entries.push({
      file,
      cliVersion: cli.version,
      scenario: scenario.name,
      covers: scenario.covers,
      source: `recorded: claude ${cli.version} against the scripted API (scripts/record-corpus.ts)`,
      rewritten: [`temp HOME <tmp>/${scenario.name} → ${SCRUBBED_HOME} (and its project-key spelling)`],
    });
  }
  return entries;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
}

await main();
