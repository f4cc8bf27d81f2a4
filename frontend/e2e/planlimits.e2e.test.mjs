// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API): a plan's limits. The claude CLI reads the API's unified rate-limit headers only for a plan's sign-in, so
// Baton runs here on an LLM gateway's token (ANTHROPIC_AUTH_TOKEN, a JWT whose audience is claude-gateway): the
// stand-in for a subscription's OAuth sign-in, whose server cannot be reached here. The scripted API sends the
// headers ([plan-warning]) and a plan's 429 ([plan-rejected]); the console shows the meter, the warning, and on
// the rejected request when the window resets with "Send when it resets". Screenshots: e2e-plan-*.png.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { demoProject, openPage, pathSteps, sendPrompt, shotPath, startServedBaton, stopAll, stopOnSignals, waitForTurnEnds } from './harness.mjs';

let page;
let url;
const pageErrors = [];

stopOnSignals();

/** An unsigned gateway token: the CLI reads only its claims. */
function gatewayToken() {
  const enc = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ aud: 'claude-gateway', exp: 4102444800 })}.`;
}

before(async () => {
  ({ url } = await startServedBaton('plan', { ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: gatewayToken() }));
  ({ page } = await openPage({ viewport: { width: 1440, height: 900 }, pageErrors }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('plan-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => page, 'plan-failed-');

step('a reply near the 5-hour limit shows both windows and the warning', async () => {
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(demoProject('plan-project'));
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
  await sendPrompt(page, '[plan-warning] how much is left?');
  await waitForTurnEnds(page, 1);
  const meter = page.getByTestId('plan-meter');
  await meter
    .getByTestId('plan-warning')
    .filter({ hasText: /Near the 5.hour limit/i })
    .waitFor();
  assert.match((await meter.getByTestId('plan-window-five_hour').textContent()) ?? '', /92%/);
  assert.match((await meter.getByTestId('plan-window-seven_day').textContent()) ?? '', /40%/);
  await page.screenshot({ path: shotPath('plan-warning') });
});

step('a rejected request says when the window resets and waits to be sent then', async () => {
  await sendPrompt(page, '[plan-rejected] one more thing');
  await waitForTurnEnds(page, 2);
  await page
    .getByTestId('plan-meter')
    .getByTestId('plan-warning')
    .filter({ hasText: /limit reached/i })
    .waitFor();
  const reset = page.getByTestId('plan-reset');
  await reset.filter({ hasText: /resets at/ }).waitFor();
  await reset.getByTestId('send-at-reset').click();
  await reset.getByTestId('waiting-for-reset').waitFor();
  await page.screenshot({ path: shotPath('plan-rejected') });
  assert.deepEqual(pageErrors, []);
});
