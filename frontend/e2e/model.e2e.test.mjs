// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API): the model shown is the model running. A new session shows the model the CLI runs before its first prompt;
// after a switch (and back to Default) the picker never shows the model that ran before next to the switch's
// notice, and shows the CLI's report of the new one before any prompt. Screenshots go to test-artifacts/
// (e2e-model-*.png).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { openPage, pathSteps, shotPath, startServedBaton, stopAll, stopOnSignals, tempDir } from './harness.mjs';

let page;
let url;
let project;
const pageErrors = [];

stopOnSignals();

before(async () => {
  ({ url } = await startServedBaton('model'));
  project = tempDir('model-project');
  ({ page } = await openPage({ viewport: { width: 1280, height: 1000 }, pageErrors }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('model-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => page, 'model-failed-');
const effective = () => page.getByTestId('effective-model');
const picker = () => page.getByTestId('model-picker').locator('select');

/**
 * Records, at every change of the page, the effective model shown and the notices: whatever React committed is
 * seen, however quickly the CLI's report follows a switch.
 */
function recordShownModels() {
  return page.evaluate(() => {
    /** @type {Array<{shown: string | null, notices: string[]}>} */
    const samples = [];
    /** @type {any} */ (window).__shownModels = samples;
    const sample = () => {
      samples.push({
        shown: document.querySelector('[data-testid="effective-model"]')?.textContent ?? null,
        notices: Array.from(document.querySelectorAll('[data-testid="notice"]'), (n) => n.textContent ?? ''),
      });
    };
    new MutationObserver(sample).observe(document.body, { subtree: true, childList: true, characterData: true });
    sample();
  });
}

/** The models shown once the page showed a notice matching `notice` (a switch's "Model: …" line). */
async function shownSince(notice) {
  /** @type {Array<{shown: string | null, notices: string[]}>} */
  const samples = await page.evaluate(() => /** @type {any} */ (window).__shownModels);
  return samples.filter((s) => s.notices.some((n) => notice.test(n))).map((s) => s.shown);
}

let first = '';

step('a new session shows the model the CLI runs before its first prompt', async () => {
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
  await effective()
    .filter({ hasText: /^runs claude-/ })
    .waitFor();
  first = (await effective().textContent()) ?? '';
  assert.equal(await picker().inputValue(), 'default');
  assert.equal(await page.getByTestId('user-message').count(), 0, 'no prompt was sent');
  assert.equal(await page.getByTestId('turn-completed').count(), 0);
  await page.screenshot({ path: shotPath('model-01-new-session') });
});

step('after a switch it shows no stale model, then the one the CLI reports, before any prompt', async () => {
  await recordShownModels();
  await picker().selectOption('sonnet');
  await page
    .getByTestId('notice')
    .filter({ hasText: /^Model: Sonnet/ })
    .waitFor();
  await effective()
    .filter({ hasText: /^runs claude-sonnet/ })
    .waitFor();
  const shown = await shownSince(/^Model: Sonnet/);
  assert.ok(shown.length > 0);
  assert.deepEqual(
    shown.filter((s) => s === first),
    [],
    `next to the switch's notice the picker never showed the model that ran before (${first}); it showed ${JSON.stringify(shown)}`,
  );
  assert.equal(await page.getByTestId('user-message').count(), 0, 'no prompt was sent');
  await page.screenshot({ path: shotPath('model-02-switched') });
});

step('back to Default: no stale model, then the default model again', async () => {
  const sonnet = (await effective().textContent()) ?? '';
  await picker().selectOption('default');
  await page
    .getByTestId('notice')
    .filter({ hasText: /^Model: Default/ })
    .waitFor();
  await effective().filter({ hasText: first }).waitFor();
  const shown = await shownSince(/^Model: Default/);
  assert.deepEqual(
    shown.filter((s) => s === sonnet),
    [],
    `after going back to Default it showed ${JSON.stringify(shown)}`,
  );
  assert.deepEqual(pageErrors, []);
});
