// End to end in headless Chromium against `baton serve` (real runtime, scripted Messages API): a word only a
// session's content holds (a tool printed it; no title says it) is found by the sidebar's filter through the
// index, marked in its snippet, kept by a date range, and a click opens that session, whose header shows what it
// cost.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { batonBinary, shotPath, startBaton, startBrowser, startFakeApi, stopAll, stopOnSignals, tempDir } from './harness.mjs';

const TURN_MS = 45_000;

let page;
let url;
let env;
let bin;
let project;

stopOnSignals();

before(async () => {
  bin = batonBinary();
  const tools = tempDir('tools');
  const apiUrl = await startFakeApi(join(tools, 'baton-fakeapi'));
  ({ url, env } = await startBaton({ apiUrl, bin }));
  project = tempDir('gamma');
  const browser = await startBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  page.setDefaultTimeout(TURN_MS);
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('search-last') }).catch(() => undefined);
  await stopAll();
});

test('the filter finds a session by a word its tool printed and opens it', async () => {
  // The tool prints the word; the prompt and the title hold only its halves.
  await promisify(execFile)(bin, ['exec', '--cwd', project, '--approve', 'all', "[bash printf 'quo%s' kka]"], { env });
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByLabel('Filter sessions').fill('quokka');
  const hit = page.getByTestId('content-hit').first();
  await hit.waitFor();
  assert.equal(await hit.locator('mark').first().textContent(), 'quokka');
  // The session ran today: a range of today keeps it.
  await page.getByTestId('content-range').selectOption({ label: 'Today' });
  await page.getByTestId('content-hit').first().waitFor();
  await page.screenshot({ path: shotPath('search-01-content-hit') });
  await page.getByTestId('content-hit').first().click();
  await page.getByTestId('assistant-message').filter({ hasText: 'quokka' }).first().waitFor();
  // The header totals what the session cost, from the index's usage of that session.
  const cost = page.getByTestId('session-cost');
  await cost.waitFor();
  assert.match((await cost.textContent()) ?? '', /tokens · ~?\$\d/);
});
