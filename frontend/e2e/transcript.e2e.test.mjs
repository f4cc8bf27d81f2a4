// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API): less plumbing in the transcript and names that survive a restart (issue 28). An Agent call's result shows
// no note meant for the model ("internal metadata — never quote…", its agentId), live and in history; a
// question's answer is shown once; goal notices show in the order they happened; a fork keeps its "Fork of
// <title>" name after `baton serve` restarts; a past session's model and mode pickers are disabled and look it; a
// rewind on a past session resumes it first and its toast says what changed.
// Screenshots go to test-artifacts/ (e2e-tr-*.png).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import {
  batonBinary,
  demoProject,
  openPage,
  pathSteps,
  restartBaton,
  sendPrompt,
  shotPath,
  startServedBaton,
  stopAll,
  stopOnSignals,
  waitIdle,
} from './harness.mjs';

const TURN_MS = 45_000;

let page;
let served;
let project;
const pageErrors = [];

stopOnSignals();

before(async () => {
  served = await startServedBaton('tr');
  project = demoProject('tr-project');
  ({ page } = await openPage({ viewport: { width: 1280, height: 900 }, pageErrors, timeoutMs: TURN_MS }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('tr-last') }).catch(() => undefined);
  await stopAll();
});

const send = (text) => sendPrompt(page, text);
const shot = (name) => page.screenshot({ path: shotPath(`tr-${name}`) });
const step = pathSteps(() => page, 'tr-failed-');
const idle = () => waitIdle(page);
const current = () => page.locator('[data-testid="session-entry"][aria-current="true"]').getAttribute('data-session');
const entry = (id) => page.locator(`[data-testid="session-entry"][data-session="${id}"]`);

/** Waits for a condition outside the page (a file), checking every 100 ms for up to TURN_MS. */
async function until(check, what) {
  for (const end = Date.now() + TURN_MS; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    if (check()) return;
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** The notes Claude Code writes for the model alone into an Agent call's result. */
const MODEL_NOTES = /internal metadata|never quote|agentId|do not mention to user|output_file/;

const AGENT = { description: 'look around', prompt: 'hello from the brief', subagent_type: 'general-purpose', run_in_background: true };

const agentCard = () => page.locator('[data-testid="tool-card"][data-tool="Agent"]');

step('a session starts', async () => {
  assert.equal((await page.goto(served.url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
  await send('the first prompt');
  await page.getByTestId('assistant-message').filter({ hasText: 'You said: the first prompt' }).waitFor();
  await idle();
});

step('goal notices show in the order they happened', async () => {
  await send('/goal the greeting was answered');
  await page.getByTestId('notice').filter({ hasText: 'Goal met' }).waitFor();
  await idle();
  await shot('goal');
  // The conversation's notices and replies, top to bottom (the statuses are read from the transcript afterwards).
  const order = await page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-testid="conversation"] [data-index]'), (r) => {
      const notice = r.querySelector('[data-testid="notice"]');
      if (notice !== null) return `notice ${notice.textContent}`;
      const reply = r.querySelector('[data-testid="assistant-message"]');
      return reply !== null ? `reply ${reply.textContent}` : '';
    }),
  );
  const at = (re) => order.findIndex((x) => re.test(x));
  assert.ok(at(/^notice Goal set/) < at(/^reply You said: \/goal/), `the goal is set before Claude works on it: ${order.join(' / ')}`);
  assert.ok(at(/^reply You said: \/goal/) < at(/^notice Goal not met yet/), `the first check follows the first answer: ${order.join(' / ')}`);
  assert.ok(at(/^notice Goal not met yet/) < at(/^reply Done: \[goal-met\]/), `the second answer follows the first check: ${order.join(' / ')}`);
  assert.ok(at(/^reply Done: \[goal-met\]/) < at(/^notice Goal met/), `the goal is met after the answer that meets it: ${order.join(' / ')}`);
});

step("an Agent call's result shows none of the notes Claude Code writes for the model", async () => {
  await send(`[tool Agent ${JSON.stringify(AGENT)}]`);
  await agentCard().filter({ hasText: 'Async agent launched successfully.' }).waitFor();
  // The agent's work ends and Claude Code's follow-up turn about it comes.
  await page.getByTestId('assistant-message').filter({ hasText: 'The background work finished' }).waitFor();
  await idle();
  const text = await agentCard().textContent();
  assert.doesNotMatch(text, MODEL_NOTES, `the Agent card shows the model's notes: ${text}`);
  await shot('agent-live');
});

step('a question’s answer is shown once', async () => {
  const question = {
    questions: [
      {
        question: 'Which fruit?',
        header: 'Fruit',
        options: [
          { label: 'Pear', description: 'Soft' },
          { label: 'Plum', description: 'Dark' },
        ],
        multiSelect: false,
      },
    ],
  };
  await send(`[tool AskUserQuestion ${JSON.stringify(question)}]`);
  const card = page.getByTestId('question-card');
  await card.waitFor();
  await card.getByRole('button', { name: /^Plum/ }).click();
  await page.getByTestId('assistant-message').filter({ hasText: 'Tool results: [ok]' }).filter({ hasText: 'Plum' }).waitFor();
  await idle();
  await page.getByTestId('permission-row').filter({ hasText: 'Which fruit? → Plum' }).waitFor();
  // Outside the prompt and Claude's own reply (the scripted model quotes what it received), the answer appears once.
  const shown = await page.evaluate(() => {
    const rows = Array.from(document.querySelectorAll('[data-testid="conversation"] [data-index]'));
    const mine = (r) => r.querySelector('[data-testid="assistant-message"], [data-testid="user-message"]') === null;
    // What a closed <details> holds (a tool's input) is not on screen.
    const shownText = (r) =>
      Array.from(r.querySelectorAll('details:not([open])'), (d) => d.textContent ?? '').reduce((t, hid) => t.replace(hid, ''), r.textContent ?? '');
    return rows.filter((r) => mine(r) && /Plum/.test(shownText(r))).length;
  });
  await shot('answer-once');
  assert.equal(shown, 1, 'the answer shows in one row');
});

let parent;
let fork;

step('a fork is named “Fork of <title>”', async () => {
  parent = await current();
  await page.locator('.session-header').getByRole('button', { name: 'Fork', exact: true }).click();
  await page.getByTestId('notice').filter({ hasText: 'Forked from session' }).waitFor();
  await page.waitForFunction((id) => document.querySelector('[data-testid="session-entry"][aria-current="true"]')?.getAttribute('data-session') !== id, parent);
  fork = await current();
  await entry(fork)
    .getByTestId('entry-title')
    .filter({ hasText: /^Fork of the first prompt/ })
    .waitFor();
  // A reload before the fork's first turn (its transcript is written with it) keeps the name too, once Baton has
  // it on record.
  const record = join(served.env.BATON_DATA_DIR, 'sessions.json');
  await until(() => existsSync(record) && readFileSync(record, 'utf8').includes('Fork of the first prompt'), 'the fork’s name is on record');
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await entry(fork)
    .getByTestId('entry-title')
    .filter({ hasText: /^Fork of the first prompt/ })
    .waitFor();
  await entry(fork).click();
  await page.getByTestId('session-live').waitFor();
  await send('in the fork');
  await page.getByTestId('assistant-message').filter({ hasText: 'You said: in the fork' }).waitFor();
  await idle();
});

step('after `baton serve` restarts, the fork is still “Fork of <title>” and history hides the model’s notes', async () => {
  process.kill(served.pid, 'SIGTERM');
  await page.getByTestId('connection-banner').filter({ hasText: 'open that one' }).waitFor();
  served = await restartBaton({ bin: batonBinary(), home: served.home, env: served.env });
  assert.equal((await page.goto(served.url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await entry(fork)
    .getByTestId('entry-title')
    .filter({ hasText: /^Fork of the first prompt/ })
    .waitFor();
  await entry(parent).click();
  await agentCard().filter({ hasText: 'Async agent launched successfully.' }).waitFor();
  const text = await agentCard().textContent();
  assert.doesNotMatch(text, MODEL_NOTES, `the Agent card in history shows the model's notes: ${text}`);
  await shot('restarted');
});

/** The model and permission-mode selects under the composer: whether each is disabled, and its computed look. */
const pickers = () =>
  page.evaluate(() =>
    ['model-picker', 'mode-picker'].map((id) => {
      const select = /** @type {HTMLSelectElement | null} */ (document.querySelector(`[data-testid="${id}"] select`));
      const style = select === null ? undefined : getComputedStyle(select);
      return { id, disabled: select?.disabled, opacity: Number(style?.opacity ?? 1), cursor: style?.cursor };
    }),
  );

step('a past session’s model and permission pickers are disabled and look it', async () => {
  // After the restart the parent is a past session (not running): its model and mode cannot change until it resumes.
  await page.getByPlaceholder('Write to resume this session…').waitFor();
  for (const p of await pickers()) {
    assert.equal(p.disabled, true, `${p.id} is disabled on a past session`);
    assert.ok(p.opacity < 1, `${p.id} looks disabled (opacity ${p.opacity})`);
    // Chromium dims a disabled select by itself; the console's own styling is what says it cannot be changed.
    assert.equal(p.cursor, 'not-allowed', `${p.id} shows it cannot be changed`);
  }
  await shot('past-pickers');
});

step('a rewind on a past session resumes it first, and its toast says what changed', async () => {
  // After the restart the parent is a past session (not running).
  await page.getByPlaceholder('Write to resume this session…').waitFor();
  const prompt = page.getByTestId('user-message').filter({ hasText: '/goal the greeting was answered' });
  await prompt.hover();
  await prompt.getByRole('button', { name: 'Rewind…' }).click();
  await page.getByLabel('The conversation only').check();
  await page.getByTestId('rewind-confirm').click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.getByTestId('toast').filter({ hasText: 'Rewound the conversation only' }).waitFor();
  await page.getByTestId('session-live').waitFor();
  await page.waitForFunction(
    () => /** @type {HTMLTextAreaElement | null} */ (document.querySelector('[data-testid="composer-input"]'))?.value === '/goal the greeting was answered',
  );
  await page.getByTestId('user-message').filter({ hasText: 'the first prompt' }).waitFor();
  assert.equal(await page.getByTestId('user-message').filter({ hasText: '/goal the greeting was answered' }).count(), 0);
  // Resumed, its pickers take changes again and no longer look disabled.
  for (const p of await pickers()) assert.ok(p.disabled === false && p.opacity === 1, `${p.id} is enabled once resumed: ${JSON.stringify(p)}`);
  await shot('rewound-past');
  assert.deepEqual(pageErrors, []);
});

step('screenshots at 900×700 and 1440×900, light and dark', async () => {
  await entry(fork).click();
  await agentCard().waitFor();
  for (const [width, height] of [
    [900, 700],
    [1440, 900],
  ]) {
    await page.setViewportSize({ width, height });
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await page.waitForFunction((want) => document.documentElement.dataset.theme === want, colorScheme);
      await agentCard().scrollIntoViewIfNeeded();
      await shot(`${width}x${height}-${colorScheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(pageErrors, []);
});
