// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API) and the machine's real git: @-mentions in a session started in a worktree offer the worktree's files, those
// of its branch, and never the main checkout's (committed on main only, or untracked there); a file dropped on
// the composer is mentioned by its path in the worktree, and one only in the main checkout is refused. Screenshots
// go to test-artifacts/ (e2e-wtmentions-*.png).
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { openPage, ownGitConfig, pathSteps, runGit, shotPath, startServedBaton, stopAll, stopOnSignals, tempDir, waitForTurnEnds } from './harness.mjs';

const TURN_MS = 45_000;
let page;
let project;
let gitEnv;
let url;
const pageErrors = [];

stopOnSignals();

const git = (dir, ...args) => runGit(gitEnv, dir, ...args);

before(async () => {
  const cfg = ownGitConfig('wtmentions');
  const started = await startServedBaton('wtmentions', { GIT_CONFIG_GLOBAL: cfg });
  gitEnv = started.env;
  url = started.url;
  // main: README; the branch "feature" adds branch-notes.md; main then adds main-notes.md, and the main
  // checkout holds scratch-notes.md, never committed.
  project = tempDir('wtmentions-repo');
  git(project, 'init', '--quiet');
  writeFileSync(join(project, 'README.md'), '# Repo\n');
  git(project, 'add', '-A');
  git(project, 'commit', '--quiet', '-m', 'first');
  git(project, 'checkout', '--quiet', '-b', 'feature');
  writeFileSync(join(project, 'branch-notes.md'), 'on the branch\n');
  git(project, 'add', '-A');
  git(project, 'commit', '--quiet', '-m', 'branch notes');
  git(project, 'checkout', '--quiet', 'main');
  writeFileSync(join(project, 'main-notes.md'), 'on main\n');
  git(project, 'add', '-A');
  git(project, 'commit', '--quiet', '-m', 'main notes');
  writeFileSync(join(project, 'scratch-notes.md'), 'not committed\n');
  ({ page } = await openPage({ viewport: { width: 1280, height: 900 }, pageErrors, timeoutMs: TURN_MS }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('wtmentions-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => page, 'wtmentions-failed-');
const input = () => page.getByTestId('composer-input');
const worktree = () => join(project, '.claude', 'worktrees', 'look-around');

step('a session starts in a worktree off the branch "feature"', async () => {
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-worktree').check();
  await page.getByTestId('new-session-base').fill('feature');
  await page.getByTestId('new-session-prompt').fill('look around');
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('new-session-start').waitFor({ state: 'detached' });
  await page.getByTestId('session-live').waitFor();
  await waitForTurnEnds(page, 1);
  assert.equal(git(worktree(), 'branch', '--show-current'), 'baton/look-around');
  assert.ok(existsSync(join(worktree(), 'branch-notes.md')), "the worktree has the branch's file");
  assert.ok(!existsSync(join(worktree(), 'main-notes.md')), "and not main's");
});

step("@ offers the worktree's files and none only in the main checkout", async () => {
  await input().fill('see @notes');
  const options = page.getByTestId('mention-option');
  await options.first().waitFor();
  const offered = await options.locator('code').allTextContents();
  await page.screenshot({ path: shotPath('wtmentions-01-picker') });
  assert.ok(
    offered.some((t) => t === 'branch-notes.md'),
    `the branch's file is offered by its path in the worktree: ${offered}`,
  );
  assert.ok(!offered.some((t) => t.includes('main-notes') || t.includes('scratch-notes')), `nothing of the main checkout is: ${offered}`);
  assert.ok(!offered.some((t) => t.includes('.claude/')), `nor anything under the checkout's worktrees: ${offered}`);
  await input().press('Enter');
  assert.equal(await input().inputValue(), 'see @branch-notes.md ');
  await input().pressSequentially('@main-no');
  await page.getByTestId('mention-note').waitFor();
  assert.equal(await options.count(), 0, "main's file is not offered");
  await input().fill('');
});

step('a dropped file is mentioned by its path in the worktree; one only in the main checkout is refused', async () => {
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['x'], 'branch-notes.md', { type: 'text/markdown' }));
    dt.items.add(new File(['x'], 'main-notes.md', { type: 'text/markdown' }));
    const area = /** @type {HTMLElement} */ (document.querySelector('.composer-area'));
    area.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    area.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  const error = page.getByTestId('attachment-error');
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /main-notes\.md is not in this session’s folder \((.+)\)/);
  assert.ok(((await error.textContent()) ?? '').includes(`(${worktree()})`), 'the folder named is the worktree');
  assert.equal(await input().inputValue(), '@branch-notes.md ');
  await input().fill('');
  assert.deepEqual(pageErrors, []);
});
