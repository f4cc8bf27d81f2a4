// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API) and the machine's real git: Settings are what new sessions start with and they outlive Baton. The default
// model (picked from the account's list) and mode show in a new session's pickers; with "start new sessions in a
// worktree" on, a session in a repository starts in its own worktree on a branch with the saved prefix; the values
// are in settings.json in Baton's data dir; after `baton serve` restarts, the idle time and the rest are as saved.
// Screenshots go to test-artifacts/ (e2e-settings-*.png).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import {
  batonBinary,
  demoProject,
  openPage,
  ownGitConfig,
  pathSteps,
  restartBaton,
  runGit,
  shotPath,
  startServedBaton,
  stopAll,
  stopOnSignals,
  tempDir,
  waitForTurnEnds,
} from './harness.mjs';

const TURN_MS = 45_000;
let page;
let served;
let plain;
let repo;
let model = '';
const pageErrors = [];

stopOnSignals();

const git = (dir, ...args) => runGit(served.env, dir, ...args);

before(async () => {
  const cfg = ownGitConfig('settings');
  served = await startServedBaton('settings', { GIT_CONFIG_GLOBAL: cfg });
  plain = demoProject('settings-plain');
  repo = tempDir('settings-repo');
  git(repo, 'init', '--quiet');
  writeFileSync(join(repo, 'README.md'), '# Repo\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '--quiet', '-m', 'first');
  ({ page } = await openPage({ viewport: { width: 1280, height: 900 }, pageErrors, timeoutMs: TURN_MS }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('settings-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => page, 'settings-failed-');

/** Opens Settings once the account's models are listed in its model picker. */
async function openSettings() {
  await page.getByTestId('open-settings').click();
  await page.waitForFunction(() => {
    const hint = document.getElementById('settings-model-hint')?.textContent ?? 'Loading';
    return !hint.startsWith('Loading');
  });
}

/** Waits until the select in the picker with testid shows value. */
function pickerShows(testid, value) {
  return page.waitForFunction(
    ([id, want]) => /** @type {HTMLSelectElement | null} */ (document.querySelector(`[data-testid="${id}"] select`))?.value === want,
    [testid, value],
  );
}

/** The host's own snapshot, asked on a WebSocket of the test's with the token of the address Baton printed. */
function hostSnapshot() {
  const token = new URL(served.url).hash.replace('#token=', '');
  return page.evaluate(
    (tok) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://${location.host}/ws`, ['baton', `baton.token.${tok}`]);
        ws.onopen = () => ws.send(JSON.stringify({ id: 1, method: 'snapshot', params: {} }));
        ws.onmessage = (ev) => {
          const msg = JSON.parse(String(ev.data));
          if (msg.id !== 1) return;
          ws.close();
          resolve(msg.result);
        };
        ws.onerror = () => reject(new Error('the test could not reach Baton on /ws'));
      }),
    token,
  );
}

/** Starts a session in folder from the new-session dialog, as its defaults are, with prompt. */
async function startSession(folder, prompt) {
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(folder);
  await page.getByTestId('new-session-prompt').fill(prompt);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('new-session-start').waitFor({ state: 'detached' });
}

step('a new session starts on the default model and mode chosen in Settings', async () => {
  assert.equal((await page.goto(served.url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await openSettings();
  const options = await page
    .getByTestId('settings-model')
    .locator('option')
    .evaluateAll((els) => els.map((o) => /** @type {HTMLOptionElement} */ (o).value));
  model = options.find((v) => v !== 'default' && v !== '__other') ?? '';
  assert.notEqual(model, '', `Settings offers a model besides the default: ${options.join(', ')}`);
  await page.getByTestId('settings-model').selectOption(model);
  await page.getByTestId('settings-mode').selectOption('acceptEdits');
  await page.getByTestId('settings-theme').selectOption('dark');
  await page.getByTestId('settings-notifications').uncheck();
  await page.getByTestId('settings-idle').selectOption('1800');
  await page.getByTestId('settings-save').click();
  await page.getByTestId('settings-form').waitFor({ state: 'detached' });

  await startSession(plain, 'hello from the defaults');
  await page.getByTestId('session-live').waitFor();
  await pickerShows('model-picker', model);
  await pickerShows('mode-picker', 'acceptEdits');
  await waitForTurnEnds(page, 1);
  await page.screenshot({ path: shotPath('settings-01-defaults') });
});

step('with worktrees on, a new session in a repository starts in its own worktree on a prefixed branch', async () => {
  await openSettings();
  assert.equal(await page.getByTestId('settings-start-in-worktree').isChecked(), false, 'off until chosen');
  assert.equal(await page.getByTestId('settings-branch-prefix').inputValue(), 'baton/');
  await page.getByTestId('settings-start-in-worktree').check();
  await page.getByTestId('settings-branch-prefix').fill('mine/');
  await page.screenshot({ path: shotPath('settings-02-worktrees') });
  await page.getByTestId('settings-save').click();
  await page.getByTestId('settings-form').waitFor({ state: 'detached' });

  await page.getByTestId('new-session').click();
  assert.equal(await page.getByTestId('new-session-worktree').isChecked(), true, 'the dialog opens with the worktree checked');
  await page.keyboard.press('Escape');
  await page.getByTestId('new-session-start').waitFor({ state: 'detached' });
  await startSession(repo, '[write note.txt from the worktree]');
  const worktree = join(repo, '.claude', 'worktrees', 'write-note-txt-from-the-worktree');
  assert.equal(git(worktree, 'branch', '--show-current'), 'mine/write-note-txt-from-the-worktree');
  await pickerShows('mode-picker', 'acceptEdits');
  await waitForTurnEnds(page, 1);
  assert.equal(readFileSync(join(worktree, 'note.txt'), 'utf8'), 'from the worktree\n', 'the session wrote in its worktree');
  assert.equal(existsSync(join(repo, 'note.txt')), false, 'the main checkout has no session file');
  assert.equal(git(repo, 'status', '--porcelain'), '', 'the main checkout is clean');
});

step("the settings are in settings.json in Baton's data dir", async () => {
  const file = join(served.env.BATON_DATA_DIR, 'settings.json');
  assert.ok(existsSync(file), `no settings file at ${file}`);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
    defaultModel: model,
    defaultPermissionMode: 'acceptEdits',
    theme: 'dark',
    notifications: false,
    sessionIdleSeconds: 1800,
    worktrees: { startInWorktree: true, branchPrefix: 'mine/' },
  });
});

step('after `baton serve` restarts, the idle time and every other setting are as saved', async () => {
  process.kill(served.pid, 'SIGTERM');
  await page.getByTestId('connection-banner').filter({ hasText: 'open that one' }).waitFor();
  served = await restartBaton({ bin: batonBinary(), home: served.home, env: served.env });
  assert.equal((await page.goto(served.url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  // The host sleeps idle sessions after the saved time (no BATON_SESSION_IDLE here), and the sidebar says so.
  assert.equal((await hostSnapshot()).sessionIdleSeconds, 1800);
  await page
    .getByTestId('idle-setting')
    .filter({ has: page.locator('option:checked', { hasText: '30 minutes' }) })
    .waitFor();
  await openSettings();
  assert.equal(await page.getByTestId('settings-model').inputValue(), model);
  assert.equal(await page.getByTestId('settings-mode').inputValue(), 'acceptEdits');
  assert.equal(await page.getByTestId('settings-theme').inputValue(), 'dark');
  assert.equal(await page.getByTestId('settings-notifications').isChecked(), false);
  assert.equal(await page.getByTestId('settings-idle').inputValue(), '1800');
  assert.equal(await page.getByTestId('settings-start-in-worktree').isChecked(), true);
  assert.equal(await page.getByTestId('settings-branch-prefix').inputValue(), 'mine/');
  await page.screenshot({ path: shotPath('settings-03-restarted') });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByTestId('new-session').click();
  assert.equal(await page.getByTestId('new-session-model').inputValue(), model);
  assert.equal(await page.getByTestId('new-session-mode').inputValue(), 'acceptEdits');
  assert.equal(await page.getByTestId('new-session-worktree').isChecked(), true);
  assert.deepEqual(pageErrors, []);
});
