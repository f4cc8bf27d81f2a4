// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API): the slash menu shows a command's description by its first sentence (issue 28). The project folder holds
// a command of its own (.claude/commands/tidy.md) whose description has two sentences; the menu shows the first
// one, exactly. Screenshots go to test-artifacts/ (e2e-slash-*.png).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { demoProject, openPage, pathSteps, shotPath, startServedBaton, stopAll, stopOnSignals } from './harness.mjs';

const FIRST = 'Tidies the notes folder into one file per topic.';
const SECOND = 'Then it lists what moved, one line per file, and asks before deleting anything.';

let page;
let url;
let project;
const pageErrors = [];

stopOnSignals();

before(async () => {
  ({ url } = await startServedBaton('slash'));
  project = demoProject('slash-project');
  mkdirSync(join(project, '.claude/commands'), { recursive: true });
  writeFileSync(join(project, '.claude/commands/tidy.md'), `---\ndescription: ${FIRST} ${SECOND}\n---\nTidy the notes.\n`);
  ({ page } = await openPage({ viewport: { width: 1280, height: 900 }, pageErrors }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('slash-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => page, 'slash-failed-');
const input = () => page.getByTestId('composer-input');

step('a session opens in a project with a command of its own', async () => {
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
});

step('a command whose description has two sentences shows the first one, exactly', async () => {
  await input().fill('/tidy');
  const option = page
    .getByTestId('command-hints')
    .getByRole('option')
    .filter({ has: page.locator('code', { hasText: /^\/tidy$/ }) });
  await option.waitFor();
  const shown = (await option.getByTestId('command-desc').textContent())?.trim();
  assert.equal(shown, `— ${FIRST}`, 'the menu shows the first sentence of the description');
  await page.screenshot({ path: shotPath('slash-first-sentence') });
  await input().press('Escape');
  assert.deepEqual(pageErrors, []);
});
