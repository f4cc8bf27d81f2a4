// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API) and the machine's real git, paused midway: an "@" typed while the folder's first listing is still being made
// answers from what is listed so far (issue 28's goal is first results within 100 ms of "@", and a big repository
// takes git a second or more), says it is still listing when nothing matches yet, and the picker refreshes on its
// own once the listing is in. Screenshots go to test-artifacts/ (e2e-listing-*.png).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { openPage, ownGitConfig, pathSteps, runGit, shotPath, startServedBaton, startSessionIn, stopAll, stopOnSignals, tempDir } from './harness.mjs';

const TURN_MS = 45_000;
let page;
let project;
let gate;
let url;
const pageErrors = [];

stopOnSignals();

/**
 * A git that is the machine's own except for `ls-files --cached` in the project: that one prints the first path
 * of the real answer, writes its pid to <gate>.waiting, and prints the rest only once the test opens the gate (a
 * FIFO). Once opened, the gate stays open.
 */
function pausingGit(dir, realGit) {
  const script = `#!/bin/sh
case " $* " in
*" ls-files "*" --cached "*)
  if [ "$(pwd -P)" = "${project}" ] && [ ! -e "${gate}.open" ]; then
    out=$(mktemp)
    "${realGit}" "$@" > "$out"
    status=$?
    head -z -n 1 "$out"
    echo $$ > "${gate}.waiting"
    cat "${gate}" > /dev/null
    touch "${gate}.open"
    tail -z -n +2 "$out"
    rm -f "$out"
    exit $status
  fi ;;
esac
exec "${realGit}" "$@"
`;
  writeFileSync(join(dir, 'git'), script, { mode: 0o755 });
}

before(async () => {
  const cfg = ownGitConfig('listing');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  project = realpathSync(tempDir('listing-repo'));
  const git = (...args) => runGit({ ...process.env, GIT_CONFIG_GLOBAL: cfg }, project, ...args);
  git('init', '--quiet');
  writeFileSync(join(project, 'alpha.txt'), 'a\n');
  mkdirSync(join(project, 'beta'));
  writeFileSync(join(project, 'beta', 'gamma.txt'), 'g\n');
  git('add', '-A');
  git('commit', '--quiet', '-m', 'first');
  const bin = tempDir('listing-git');
  gate = join(bin, 'gate');
  execFileSync('mkfifo', [gate]);
  pausingGit(bin, realGit);
  ({ url } = await startServedBaton('listing', { GIT_CONFIG_GLOBAL: cfg, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` }));
  ({ page } = await openPage({ viewport: { width: 1280, height: 900 }, pageErrors, timeoutMs: TURN_MS }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('listing-last') }).catch(() => undefined);
  // A gate never opened would hold the paused git (and its Baton) up.
  if (gate !== undefined && existsSync(`${gate}.waiting`) && !existsSync(`${gate}.open`)) await writeFile(gate, '');
  await stopAll();
});

const step = pathSteps(() => page, 'listing-failed-');
const input = () => page.getByTestId('composer-input');
const options = () => page.getByTestId('mention-option').locator('code');

step('a session opens in the project while git is still listing it', async () => {
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await startSessionIn(page, project);
  // The composer's warm-up started the listing; git has printed its first path and waits at the gate.
  await waitForFile(`${gate}.waiting`);
});

step('@ answers from what is listed so far', async () => {
  await input().fill('see @alp');
  await options().filter({ hasText: 'alpha.txt' }).waitFor();
  // The picker says the list is what is listed so far.
  await page.getByTestId('mention-partial').filter({ hasText: 'Still listing' }).waitFor();
  await page.screenshot({ path: shotPath('listing-01-partial') });
  // The answer came while git was still listing (not after Baton gave up on it and walked the folder instead).
  const git = Number(readFileSync(`${gate}.waiting`, 'utf8'));
  assert.doesNotThrow(() => process.kill(git, 0), 'the paused git still runs');
  assert.equal(existsSync(`${gate}.open`), false, 'the listing was still being made');
});

step('nothing matching yet, the picker says it is still listing, and refreshes once the listing is in', async () => {
  await input().fill('see @gam');
  await page.getByTestId('mention-note').filter({ hasText: 'Listing the folder’s files…' }).waitFor();
  assert.equal(await page.getByTestId('mention-option').count(), 0);
  await writeFile(gate, '');
  await options().filter({ hasText: 'beta/gamma.txt' }).waitFor();
  assert.equal(await page.getByTestId('mention-partial').count(), 0, 'the whole listing is in');
  await page.keyboard.press('Enter');
  assert.equal(await input().inputValue(), 'see @beta/gamma.txt ');
  assert.deepEqual(pageErrors, []);
});

/** Waits until path exists (the stand-in git makes it); a wait on git's progress, not on a time. */
async function waitForFile(path) {
  while (!existsSync(path)) await new Promise((r) => setTimeout(r, 20));
}
