// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API) and the machine's real git: two sessions started from the new-session dialog in one repository, each in
// its own worktree, never touch the main checkout; the Changes panel lists each one's files and diff; a review
// comment reaches Claude as one prompt; landing one merges exactly its work; the other's land conflicts and says
// which file; archiving refuses to lose its work until confirmed. Screenshots go to test-artifacts/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
  const cfg = ownGitConfig('changes');
  const extraEnv = { GIT_CONFIG_GLOBAL: cfg };
  const started = await startServedBaton('changes', extraEnv);
  gitEnv = started.env;
  url = started.url;
  project = tempDir('repo');
  git(project, 'init', '--quiet');
  writeFileSync(join(project, 'README.md'), '# Repo\n');
  git(project, 'add', '-A');
  git(project, 'commit', '--quiet', '-m', 'first');
  ({ page } = await openPage({ viewport: { width: 1440, height: 900 }, pageErrors, timeoutMs: TURN_MS }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('changes-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => page, 'changes-failed-');

/** Starts a session from the dialog in a new worktree with prompt (acceptEdits: the scripted Write just runs). */
async function startInWorktree(prompt) {
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-mode').selectOption('acceptEdits');
  await page.getByTestId('new-session-worktree').check();
  await page.getByTestId('new-session-prompt').fill(prompt);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('new-session-start').waitFor({ state: 'detached' });
}

function worktreeOf(name) {
  return join(project, '.claude', 'worktrees', name);
}

async function openSession(title) {
  await page.getByTestId('session-entry').filter({ hasText: title }).first().click();
  await page.getByRole('heading', { name: title }).first().waitFor();
}

step('two sessions each start in their own worktree and leave the main checkout alone', async () => {
  await page.goto(url);
  await startInWorktree('[write shared.txt from a]');
  await startInWorktree('[write shared.txt from b]');
  // The newest session is on screen: its turn ends once its Write ran; then the other's.
  await waitForTurnEnds(page, 1);
  await openSession('[write shared.txt from a]');
  await waitForTurnEnds(page, 1);
  for (const [name, text] of [
    ['write-shared-txt-from-a', 'from a\n'],
    ['write-shared-txt-from-b', 'from b\n'],
  ]) {
    assert.equal(readFileSync(join(worktreeOf(name), 'shared.txt'), 'utf8'), text, `${name} wrote in its own worktree`);
    assert.equal(git(worktreeOf(name), 'branch', '--show-current'), `baton/${name}`);
  }
  assert.equal(existsSync(join(project, 'shared.txt')), false, 'the main checkout has no session file');
  assert.equal(git(project, 'status', '--porcelain'), '', 'the main checkout is clean');
  assert.equal(git(project, 'branch', '--show-current'), 'main');
  // The sidebar groups both worktree sessions under their one repository.
  const group = page.getByTestId('session-group').filter({ hasText: '[write shared.txt from a]' });
  assert.match(await group.getByTestId('group-count').textContent(), /^\s*2\s*$/);
  assert.equal(await group.getByTestId('session-entry').count(), 2);
  await openSession('[write shared.txt from b]');
  await page.screenshot({ path: shotPath('changes-01-started') });
});

step("the Changes panel lists the session's file with its counts and shows its diff", async () => {
  await page.getByTestId('toggle-changes').click();
  const file = page.getByTestId('changes-file').filter({ hasText: 'shared.txt' });
  await file.waitFor();
  assert.match(await file.textContent(), /\+1/);
  assert.match(await page.getByTestId('changes-summary').textContent(), /1 files \+1 −0 against main \(baton\/write-shared-txt-from-b\)/);
  await file.getByRole('button', { name: /shared\.txt/ }).click();
  const pane = page.getByTestId('diff-pane');
  await pane.getByText('from b').waitFor();
  await page.getByTestId('diff-layout').click();
  await pane.locator('.diff-row.pair').first().waitFor();
  await page.getByTestId('diff-layout').click();
  await page.screenshot({ path: shotPath('changes-02-diff') });
});

step('a review comment on a diff line reaches Claude as one prompt with file:line', async () => {
  const pane = page.getByTestId('diff-pane');
  await pane.locator('.diff-row.added [data-testid="diff-line-no"]').nth(1).click();
  await page.getByTestId('diff-comment-input').fill('Say hello instead');
  await page.getByTestId('diff-comment-add').click();
  await page.getByTestId('diff-comment').filter({ hasText: 'Say hello instead' }).waitFor();
  await page.getByTestId('send-comments').click();
  await waitForTurnEnds(page, 2);
  // The scripted model echoes the prompt it received: the comment arrived as Claude's prompt.
  await page.getByText('You said: Please address these review comments on your changes:').waitFor();
  await page.locator('li').filter({ hasText: 'shared.txt:1: Say hello instead' }).waitFor();
  assert.equal(await page.getByTestId('send-comments').count(), 0, 'sent comments are cleared');
});

step('landing one session merges exactly its work into main', async () => {
  await page.getByTestId('changes-land').click();
  await page.getByTestId('land-message').fill("b's work");
  await page.getByTestId('land-submit').click();
  const result = page.getByTestId('land-result');
  await result.waitFor();
  assert.equal(await result.getAttribute('data-outcome'), 'landed', await result.textContent());
  assert.deepEqual(git(project, 'ls-tree', '-r', '--name-only', 'main').split('\n'), ['README.md', 'shared.txt']);
  assert.equal(git(project, 'show', 'main:shared.txt'), 'from b');
  assert.equal(git(project, 'status', '--porcelain'), '');
  await page.screenshot({ path: shotPath('changes-03-landed') });
  await page.getByRole('button', { name: 'Close' }).last().click();
});

step("the other session's land conflicts, names the file and leaves main as it was", async () => {
  const before = git(project, 'rev-parse', 'main');
  await openSession('[write shared.txt from a]');
  // Panels are kept per session: this one never had its Changes panel open.
  await page.getByTestId('toggle-changes').click();
  await page.getByTestId('changes-file').filter({ hasText: 'shared.txt' }).waitFor();
  await page.getByTestId('changes-land').click();
  await page.getByTestId('land-message').fill("a's work");
  await page.getByTestId('land-submit').click();
  const result = page.getByTestId('land-result');
  await result.waitFor();
  assert.equal(await result.getAttribute('data-outcome'), 'conflict', await result.textContent());
  assert.match(await page.getByTestId('land-conflicts').textContent(), /shared\.txt — both added/);
  await page.getByTestId('land-hand-to-claude').waitFor();
  assert.equal(git(project, 'rev-parse', 'main'), before, 'main did not move');
  assert.equal(git(project, 'status', '--porcelain'), '', 'nothing is left half-merged');
  await page.screenshot({ path: shotPath('changes-04-conflict') });
  await page.getByRole('button', { name: 'Close' }).last().click();
});

step('archive refuses to lose the unlanded work until confirmed', async () => {
  const wt = worktreeOf('write-shared-txt-from-a');
  await page.getByTestId('changes-archive').click();
  await page.getByTestId('archive-delete-branch').check();
  await page.getByTestId('archive-submit').click();
  const lose = page.getByTestId('archive-would-lose');
  await lose.waitFor();
  assert.match(await lose.textContent(), /a's work \(not landed\)/);
  assert.equal(existsSync(wt), true, 'nothing was removed');
  await page.screenshot({ path: shotPath('changes-05-archive') });
  await page.getByTestId('archive-force').click();
  // The dialog closes once the host answered, after git removed the worktree.
  await page.getByTestId('archive-force').waitFor({ state: 'detached' });
  assert.equal(existsSync(wt), false, 'the worktree is removed');
  assert.equal(spawnSync('git', ['-C', project, 'show-ref', '--verify', '--quiet', 'refs/heads/baton/write-shared-txt-from-a'], { env: gitEnv }).status, 1);
  assert.deepEqual(pageErrors, []);
});

step("at 900×700 the worktree's notice sits above the composer, never over it", async () => {
  await startInWorktree('[write narrow.txt from c]');
  await page.getByTestId('toast').filter({ hasText: 'narrow-txt-from-c' }).waitFor();
  await page.setViewportSize({ width: 900, height: 700 });
  // The stack of notices is re-placed on the resize, above the composer and its docked card.
  await page.waitForFunction(
    () => {
      const notice = document.querySelector('.toasts')?.getBoundingClientRect();
      const composer = document.querySelector('.composer-area')?.getBoundingClientRect();
      return notice !== undefined && composer !== undefined && window.innerWidth === 900 && notice.bottom <= composer.top;
    },
    undefined,
    { timeout: 5_000 },
  );
  await page.screenshot({ path: shotPath('changes-06-narrow-toast') });
  await page.setViewportSize({ width: 1440, height: 900 });
  assert.deepEqual(pageErrors, []);
});
