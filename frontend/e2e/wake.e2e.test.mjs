// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API): an asleep session wakes while the person types in its composer, before anything is sent, so the prompt
// finds its processes running; the woken claude still has the conversation. Screenshots go to test-artifacts/.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import {
  demoProject,
  descendants,
  openPage,
  pathSteps,
  sendPrompt,
  shotPath,
  startServedBaton,
  startSessionIn,
  stopAll,
  stopOnSignals,
  waitIdle,
} from './harness.mjs';

let page;
let baton;
const pageErrors = [];

stopOnSignals();

before(async () => {
  // A session falls asleep a second after its turn, so the test need not wait the default ten minutes.
  baton = await startServedBaton('wake', { BATON_SESSION_IDLE: '1s' });
  ({ page } = await openPage({ viewport: { width: 1280, height: 900 }, pageErrors }));
  await page.goto(baton.url);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('wake-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => page, 'wake-failed-');
/** The claude processes running under baton serve. */
const claudes = () => descendants(baton.pid).filter((p) => p.exe === 'claude');

/** Polls the process tree until a claude runs under baton serve; bounded like every wait of the page. */
async function claudeStarted() {
  const until = Date.now() + 45_000;
  while (claudes().length === 0) {
    assert.ok(Date.now() < until, 'no claude started after typing in the asleep session');
    await page.waitForTimeout(50);
  }
  return claudes();
}

step('typing in an asleep session wakes it before the prompt is sent', async () => {
  await startSessionIn(page, demoProject('wake-project'));
  await sendPrompt(page, 'remember the word kappa');
  await waitIdle(page);
  await page.getByTestId('session-asleep').waitFor();
  assert.deepEqual(claudes(), [], 'an asleep session holds no claude');
  // Never sleep again from here, so the woken session stays awake for the checks below.
  await page.getByTestId('idle-setting').selectOption('0');

  await page.getByTestId('composer-input').fill('[rec');
  await page.getByTestId('session-asleep').waitFor({ state: 'detached' });
  const woken = await claudeStarted();
  await page.screenshot({ path: shotPath('wake-typing') });

  await sendPrompt(page, '[recall]');
  await page.getByTestId('assistant-message').filter({ hasText: 'remember the word kappa' }).last().waitFor();
  await waitIdle(page);
  assert.deepEqual(claudes(), woken, 'the prompt went to the claude the typing started');
  assert.deepEqual(pageErrors, []);
});
