// Starts what the end-to-end test drives, and stops all of it by PID even when the test fails: the scripted
// Messages API (app/internal/fakeapi), `baton serve` with the real runtime, sidecar and claude CLI, and
// Debian's headless Chromium through playwright-core (never a downloaded browser).
import { test } from 'node:test';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = join(REPO, 'test-artifacts');
const CLAUDE = join(REPO, 'sidecar/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude');
const CHROMIUM = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';

/** Everything started, stopped in reverse order by `stopAll`. */
const stops = [];

export function onStop(fn) {
  stops.push(fn);
}

export async function stopAll() {
  while (stops.length > 0) {
    const stop = stops.pop();
    try {
      await stop();
    } catch (err) {
      console.error('e2e cleanup:', err);
    }
  }
}

export function tempDir(name) {
  const dir = mkdtempSync(join(tmpdir(), `baton-e2e-${name}-`));
  // BATON_E2E_KEEP=1 keeps the run's folders (logs, transcripts) to look at after a failure.
  if (process.env.BATON_E2E_KEEP === undefined) onStop(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A git config of the test's own (an author for commits, main as the first branch, no signing), to pass as
 * GIT_CONFIG_GLOBAL: Baton's git and the CLI's then read nothing of the machine's.
 */
export function ownGitConfig(name) {
  const cfg = join(tempDir(`${name}-gitcfg`), 'gitconfig');
  writeFileSync(cfg, '[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n');
  return cfg;
}

/** Runs git in dir with env; its trimmed output, or an error in git's own words. */
export function runGit(env, dir, ...args) {
  const r = spawnSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Waits for a child to exit, up to ms; true when it did. */
function exited(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((res) => {
    const timer = setTimeout(() => res(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      res(true);
    });
  });
}

/** SIGTERM, then SIGKILL to the child's own process group (it was started detached, so the group is its PID). */
async function stopChild(child, name) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (await exited(child, 15_000)) return;
  console.error(`e2e: ${name} (pid ${child.pid}) ignored SIGTERM; killing its process group`);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
  await exited(child, 5_000);
}

/** Reads the first stdout line of a child (its URL), failing with its stderr if it exits first. */
function firstLine(child, name, timeoutMs) {
  return new Promise((res, rej) => {
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => rej(new Error(`${name} printed no URL within ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
    lines.once('line', (line) => {
      clearTimeout(timer);
      res(line.trim());
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`${name} exited (${code}) before printing its URL:\n${stderr}`));
    });
  });
}

function goBuild(out, pkg) {
  const r = spawnSync('go', ['build', '-o', out, pkg], {
    cwd: REPO,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PATH: `/usr/local/go/bin:${process.env.PATH}` },
  });
  if (r.status !== 0) throw new Error(`go build ${pkg} failed`);
}

/** The scripted Messages API, built once into a temp dir so the PID we stop is the server itself. */
export async function startFakeApi(bin) {
  goBuild(bin, './app/internal/fakeapi/cmd/baton-fakeapi');
  const child = spawn(bin, [], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  onStop(async () => {
    child.stdin.end();
    await stopChild(child, 'baton-fakeapi');
  });
  return firstLine(child, 'baton-fakeapi', 60_000);
}

/** The baton binary to test: BATON_BIN, else build/bin/baton (scripts/build). */
export function batonBinary() {
  const bin = process.env.BATON_BIN ?? join(REPO, 'build/bin/baton');
  if (!existsSync(bin)) throw new Error(`no baton binary at ${bin}: run scripts/build first (or set BATON_BIN)`);
  return bin;
}

/** `baton serve` on a free loopback port, in a sandboxed HOME; resolves to the URL it printed (the token in its
 * fragment).
 * extraEnv adds to (or overrides) batonEnv's variables. */
export async function startBaton({ apiUrl, bin, extraEnv = {} }) {
  const home = tempDir('home');
  const env = { ...batonEnv({ apiUrl, home }), ...extraEnv };
  const child = spawn(bin, ['serve', '--listen', '127.0.0.1:0'], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  onStop(() => stopChild(child, 'baton serve'));
  const url = await firstLine(child, 'baton serve', 60_000);
  if (!/^http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]+$/.test(url)) throw new Error(`baton serve printed an unexpected first line: ${url}`);
  return { url, home, pid: child.pid, env };
}

/** `baton serve` again over the same HOME and data dir (a restart: a new port and token); resolves like startBaton. */
export async function restartBaton({ bin, home, env }) {
  const child = spawn(bin, ['serve', '--listen', '127.0.0.1:0'], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  onStop(() => stopChild(child, 'baton serve'));
  const url = await firstLine(child, 'baton serve', 60_000);
  return { url, home, pid: child.pid, env };
}

/** The environment every baton process of one test shares (its sandboxed HOME, Claude's config, the scripted API). */
export function batonEnv({ apiUrl, home }) {
  const data = join(home, 'baton-data');
  const config = join(home, '.claude');
  mkdirSync(config, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CLAUDE_CONFIG_DIR: config,
    BATON_DATA_DIR: data,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'sk-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    // The CLI's scratch files and sockets stay in the temp home instead of piling up in /tmp.
    CLAUDE_CODE_TMPDIR: join(home, 'tmp'),
    CLAUDE_CODE_EXECUTABLE: CLAUDE,
    // The CLI's git reads home's (empty) global config; this drops the machine's /etc/gitconfig too.
    GIT_CONFIG_NOSYSTEM: '1',
  };
  if (process.env.BATON_SIDECAR !== undefined) env.BATON_SIDECAR = process.env.BATON_SIDECAR;
  return env;
}

/** The processes below pid (Linux /proc), as {pid, exe basename}. */
export function descendants(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const walk = (p) => {
    for (const child of children.get(p) ?? []) {
      let exe = '';
      try {
        exe = basename(readlinkSync(`/proc/${child}/exe`));
      } catch {
        // gone, or not ours to read
      }
      out.push({ pid: child, exe });
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/**
 * Headless Debian Chromium; page errors are collected so the test can fail on them. Playwright hides scrollbars
 * in headless mode; `scrollbars` keeps them, for a test that drags one.
 */
export async function startBrowser({ scrollbars = false } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    ...(scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  onStop(() => browser.close());
  return browser;
}

/**
 * One e2e file's Baton: the scripted API and `baton serve` over it, in temp folders named for the file. Returns
 * startBaton's { url, home, pid, env }.
 */
export async function startServedBaton(name, extraEnv = {}) {
  const apiUrl = await startFakeApi(join(tempDir(`${name}-tools`), 'baton-fakeapi'));
  return startBaton({ apiUrl, bin: batonBinary(), extraEnv });
}

/**
 * A page of a new browser context of the given viewport: its uncaught errors go to pageErrors, and every wait
 * on it is bounded by timeoutMs. `prepare` sets the context up (init scripts, routes) before the page opens;
 * `scrollbars` shows the scrollbars headless Chromium hides.
 * @param {{ viewport: { width: number, height: number }, pageErrors: string[], timeoutMs?: number,
 *   contextOptions?: import('playwright-core').BrowserContextOptions, scrollbars?: boolean,
 *   prepare?: (context: import('playwright-core').BrowserContext) => Promise<void> }} options
 */
export async function openPage({ viewport, pageErrors, timeoutMs = 45_000, contextOptions = {}, prepare, scrollbars = false }) {
  const browser = await startBrowser({ scrollbars });
  const context = await browser.newContext({ viewport, ...contextOptions });
  if (prepare !== undefined) await prepare(context);
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.setDefaultTimeout(timeoutMs);
  return { context, page };
}

/** A project folder holding a README, the one file most paths start from. */
export function demoProject(name, readme = '# Demo\n') {
  const dir = tempDir(name);
  writeFileSync(join(dir, 'README.md'), readme);
  return dir;
}

/** Waits until the xterm.js buffer of the terminal page shows has a line containing text. */
export function waitForTerminalLine(page, text) {
  return page.waitForFunction((want) => {
    const el = document.querySelector('[data-testid="terminal-screen"]');
    const term = el === null ? undefined : /** @type {any} */ (window).batonTerminals?.get(el.getAttribute('data-terminal') ?? '');
    if (term === undefined) return false;
    const buf = term.buffer.active;
    for (let i = 0; i < buf.length; i++) {
      if (buf.getLine(i)?.translateToString(true).includes(want)) return true;
    }
    return false;
  }, text);
}

export function shotPath(name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, `e2e-${name}.png`);
}

/** Starts a session in folder from the sidebar's "New session" dialog, with no prompt; resolves once it is live. */
export async function startSessionIn(page, folder) {
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(folder);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
}

/** Sends a prompt from the composer with Enter, as a person would. */
export async function sendPrompt(page, text) {
  const input = page.getByTestId('composer-input');
  await input.fill(text);
  await input.press('Enter');
}

/** Waits until the composer's button reads Send again: no turn runs in the shown session. */
export function waitIdle(page) {
  return page
    .getByTestId('send')
    .filter({ hasText: /^Send$/ })
    .waitFor();
}

/** Waits until count turns have ended (completed, canceled or failed) in the transcript. */
export async function waitForTurnEnds(page, count) {
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="turn-completed"], [data-testid="turn-canceled"], [data-testid="error-row"]').length >= n,
    count,
  );
}

/** Ctrl-C or SIGTERM stops what the run started (by PID) before the process exits. */
export function stopOnSignals() {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      void stopAll().finally(() => process.exit(130));
    });
  }
}

/**
 * The steps of one end-to-end path: once a step fails the later ones are skipped (they would only time out), and
 * the failing one leaves a screenshot named `<failedShot><step name>`. page() is read when a step fails.
 */
export function pathSteps(page, failedShot) {
  let broken = false;
  return function step(name, fn) {
    test(name, { timeout: 120_000 }, async (t) => {
      if (broken) {
        t.skip('an earlier step failed');
        return;
      }
      try {
        await fn();
      } catch (err) {
        broken = true;
        await page()
          .screenshot({ path: shotPath(`${failedShot}${name.replace(/\W+/g, '-')}`) })
          .catch(() => undefined);
        throw err;
      }
    });
  };
}
