// End to end in headless Chromium against `baton serve`: the real Go runtime, the real sidecar and claude CLI,
// and the scripted Messages API (markers in the prompt choose the reply). One person's path through the
// console: start a session in a temp folder, stream a reply, approve a Write (the file appears), deny one with a
// message (it does not), deny one plainly (Claude stops: the reply's second Write is never asked; after a reopen
// from history both read denied), cancel a slow turn, reload the page and resume the session from the sidebar, rewind the files
// after seeing the dry-run count, then the conversation and the files; each rewind's toast says what changed.
// Screenshots go to test-artifacts/.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before } from 'node:test';
import {
  demoProject,
  descendants,
  openPage,
  pathSteps,
  sendPrompt,
  shotPath,
  startServedBaton,
  stopAll,
  stopOnSignals,
  waitForTurnEnds,
  waitIdle,
} from './harness.mjs';

const TURN_MS = 45_000;

let page;
let url;
let batonPid;
let project;
const pageErrors = [];

stopOnSignals();

before(async () => {
  ({ url, pid: batonPid } = await startServedBaton('console'));
  project = demoProject('project');
  // Tall enough for the whole path's transcript: rows out of view are not rendered (virtualized).
  ({ page } = await openPage({ viewport: { width: 1280, height: 1700 }, pageErrors, timeoutMs: TURN_MS }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('last') }).catch(() => undefined);
  await stopAll();
});

const send = (text) => sendPrompt(page, text);
const waitForTurnEnd = (count) => waitForTurnEnds(page, count);

async function shot(name) {
  await page.screenshot({ path: shotPath(name) });
}

const step = pathSteps(() => page, 'failed-');

step('the console loads and connects', async () => {
  const response = await page.goto(url);
  assert.equal(response?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await shot('01-loaded');
});

step('a new session starts in a temp folder', async () => {
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
  await page
    .getByTestId('notice')
    .filter({ hasText: `Session started in ${project}` })
    .waitFor();
});

step('a reply streams in', async () => {
  await send('Hello from the end-to-end test');
  await page.getByTestId('assistant-message').filter({ hasText: 'You said: Hello from the end-to-end test' }).waitFor();
  await waitForTurnEnd(1);
  await shot('02-reply');
});

step('an approved Write creates the file', async () => {
  await send('[write approved.txt approved content]');
  const card = page.getByTestId('permission-card');
  await card.waitFor();
  assert.match(await card.textContent(), /approved\.txt/);
  await shot('03-permission');
  await card.getByRole('button', { name: 'Allow', exact: true }).click();
  await page.getByTestId('assistant-message').filter({ hasText: 'Tool results: [ok]' }).waitFor();
  await waitForTurnEnd(2);
  assert.equal(readFileSync(join(project, 'approved.txt'), 'utf8'), 'approved content\n');
  assert.equal(await page.getByTestId('permission-card').count(), 0);
  await page.getByTestId('permission-row').filter({ hasText: 'Write: Allowed' }).waitFor();
});

step('a denied Write leaves no file', async () => {
  await send('[write denied.txt must not exist]');
  const card = page.getByTestId('permission-card');
  await card.waitFor();
  await card.getByRole('button', { name: 'Deny with a message…' }).click();
  await card.getByLabel('Message with the denial').fill('Not this file');
  await card.getByRole('button', { name: 'Deny and tell Claude' }).click();
  await page.getByTestId('assistant-message').filter({ hasText: 'Tool results: [error]' }).waitFor();
  await waitForTurnEnd(3);
  assert.equal(existsSync(join(project, 'denied.txt')), false);
  await page.getByTestId('permission-row').filter({ hasText: 'Write: Denied' }).waitFor();
  await shot('04-denied');
});

step("a plain Deny stops Claude: the reply's second Write is never asked", async () => {
  await send('[write plain-one.txt 1] [write plain-two.txt 2]');
  const card = page.getByTestId('permission-card');
  await card.waitFor();
  assert.match(await card.textContent(), /plain-one\.txt/);
  await card.getByRole('button', { name: 'Deny', exact: true }).click();
  await page.getByTestId('turn-completed').filter({ hasText: 'Stopped: you denied a tool, Claude waits for you' }).waitFor();
  await waitForTurnEnd(4);
  // No second card, no reply to the tool results: Claude stopped at the first denied Write.
  assert.equal(await page.getByTestId('permission-card').count(), 0);
  assert.equal(await page.getByTestId('permission-row').count(), 3, 'this turn asked once');
  assert.equal(
    await page
      .getByTestId('permission-row')
      .filter({ hasText: /^Write: Denied$/ })
      .count(),
    1,
    'a plain deny shows no message',
  );
  assert.equal(await page.getByTestId('assistant-message').filter({ hasText: 'Tool results:' }).count(), 2, "only the two earlier turns' replies");
  assert.equal(await page.getByTestId('turn-canceled').count(), 0, 'the stop is no cancel');
  assert.equal(existsSync(join(project, 'plain-one.txt')) || existsSync(join(project, 'plain-two.txt')), false);
  await shot('04b-plain-deny');
});

step('a slow turn is canceled while it streams', async () => {
  await send('[slow] tell me a long story');
  // The reply is being written: a partial message shows, marked busy.
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').filter({ hasText: 'You said' }).waitFor();
  await page.getByTestId('tokens-live').waitFor();
  await shot('05-streaming');
  await page.getByTestId('cancel-turn').click();
  await page.getByTestId('turn-canceled').waitFor();
  assert.equal(await page.locator('[data-testid="assistant-message"][aria-busy="true"]').count(), 0);
  // What was written stays, marked stopped.
  await page.getByTestId('assistant-message').filter({ hasText: 'You said' }).last().getByTestId('reply-stopped').waitFor();
  assert.equal(await page.getByTestId('cancel-turn').count(), 0);
  await shot('06-canceled');
});

step('a stopped Claude Code is force-stopped within the budgets, and the next prompt continues', async () => {
  await send('[slow] stall right here');
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').filter({ hasText: 'You said: [slow] stall' }).waitFor();
  const claude = descendants(batonPid).filter((p) => p.exe === 'claude');
  assert.equal(claude.length, 1, `one claude under baton serve: ${JSON.stringify(descendants(batonPid))}`);
  process.kill(claude[0].pid, 'SIGSTOP');
  const began = Date.now();
  await page.getByTestId('cancel-turn').click();
  await page.getByTestId('cancel-turn').filter({ hasText: 'Stopping…' }).waitFor();
  await shot('06b-stopping');
  await page.getByTestId('turn-canceled').filter({ hasText: 'Force-stopped: Claude Code did not answer' }).waitFor({ timeout: 10_000 });
  assert.ok(Date.now() - began < 3_000 + 3_000 + 2_000, `force-stopped after ${Date.now() - began} ms`);
  assert.equal(
    descendants(batonPid).some((p) => p.pid === claude[0].pid),
    false,
    'the stopped claude is gone',
  );
  // Claude Code was killed, but the words it had streamed stay, marked stopped.
  await page.getByTestId('assistant-message').filter({ hasText: 'You said: [slow] stall' }).getByTestId('reply-stopped').waitFor();
  await send('[recall] are you still there?');
  await page.getByTestId('assistant-message').filter({ hasText: 'Earlier you said: Hello from the end-to-end test' }).first().waitFor();
  await waitForTurnEnd(7);
  await shot('06c-continued');
});

step('after a reload the live session is in the sidebar and shows its transcript', async () => {
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  const entry = page
    .locator('[data-testid="session-entry"]')
    .filter({ has: page.locator('.dot.live') })
    .first();
  await entry.click();
  await page.getByTestId('user-message').filter({ hasText: 'Hello from the end-to-end test' }).waitFor();
  // Two denied Writes now (issue 24 added the plain deny): the one with a message, and the plain one, which shows none.
  await page.getByTestId('permission-row').filter({ hasText: 'Write: Denied — “Not this file”' }).waitFor();
  await page
    .getByTestId('permission-row')
    .filter({ hasText: /^Write: Denied$/ })
    .waitFor();
  await page.getByTestId('turn-canceled').first().waitFor();
  await shot('07-reloaded');
});

step('a closed session resumes when written to, and remembers the conversation', async () => {
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await page.locator('.session-header .badge').filter({ hasText: 'closed' }).waitFor();
  await send('[recall] what did I say?');
  await page.getByTestId('session-live').waitFor();
  await page
    .getByTestId('assistant-message')
    .filter({ hasText: 'Earlier you said: Hello from the end-to-end test' })
    .filter({ hasText: 'are you still there?' })
    .waitFor();
  await shot('08-resumed');
});

step('after another reload the resumed session shows its stored history above its live part, once', async () => {
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  // The sidebar groups sessions by project: the live one in this project's group.
  const entry = page
    .getByTestId('session-group')
    .filter({ hasText: basename(project) })
    .getByTestId('session-entry')
    .filter({ has: page.locator('.dot.live') })
    .first();
  await entry.click();
  await page.getByTestId('user-message').filter({ hasText: '[recall] what did I say?' }).waitFor();
  await page.getByTestId('user-message').filter({ hasText: 'Hello from the end-to-end test' }).waitFor();
  assert.equal(await page.getByTestId('user-message').filter({ hasText: '[recall] what did I say?' }).count(), 1);
  assert.equal(await page.getByTestId('user-message').filter({ hasText: 'Hello from the end-to-end test' }).count(), 1);
  // The stored history has no permission events: the refused Writes read denied by their own mark, not failed.
  const denied = page.getByTestId('user-message').filter({ hasText: '[write plain-one.txt 1]' });
  await denied.scrollIntoViewIfNeeded();
  await page.getByTestId('tool-denied').first().waitFor();
  assert.equal(
    await page
      .locator('.pill.bad')
      .filter({ hasText: /^failed$/ })
      .count(),
    0,
    'no refused call reads failed',
  );
  assert.ok((await page.getByTestId('tool-denied').count()) >= 2, "the plain deny's two Writes read denied");
  await shot('09-history-and-live');
});

step('files rewind after the dry-run count is shown', async () => {
  const prompt = page.getByTestId('user-message').filter({ hasText: '[write approved.txt approved content]' }).first();
  await prompt.hover();
  await prompt.getByRole('button', { name: 'Rewind…' }).click();
  await page.getByLabel('The files only').check();
  const counts = page.getByTestId('rewind-counts');
  await counts.waitFor();
  assert.match(await counts.textContent(), /^1 file would change: \+\d+ −\d+$/);
  await shot('10-rewind-dry-run');
  assert.equal(existsSync(join(project, 'approved.txt')), true, 'the dry run changed nothing');
  await page.getByTestId('rewind-confirm').click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  // The toast says what really changed: the files, not the conversation.
  await page.getByTestId('toast').getByText('Rewound the files: 1 file restored; the conversation is as it was.', { exact: true }).waitFor();
  assert.equal(existsSync(join(project, 'approved.txt')), false);
  await page.getByTestId('user-message').filter({ hasText: '[write approved.txt approved content]' }).first().waitFor();
  await shot('11-rewound');
});

step('a rewind of the conversation and the files says both changed', async () => {
  const text = '[write both.txt both content]';
  await send(text);
  await page.getByTestId('permission-card').getByRole('button', { name: 'Allow', exact: true }).click();
  await page.getByTestId('permission-row').filter({ hasText: 'Write: Allowed' }).last().waitFor();
  await waitIdle(page);
  assert.equal(existsSync(join(project, 'both.txt')), true);
  const prompt = page.getByTestId('user-message').filter({ hasText: text });
  await prompt.hover();
  await prompt.getByRole('button', { name: 'Rewind…' }).click();
  await page.getByLabel('The conversation and the files').check();
  await page.getByTestId('rewind-counts').waitFor();
  await page.getByTestId('rewind-confirm').click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.getByTestId('toast').getByText('Rewound the conversation and the files: 1 file restored.', { exact: true }).waitFor();
  assert.equal(existsSync(join(project, 'both.txt')), false);
  await page.getByTestId('user-message').filter({ hasText: text }).waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('composer-input').inputValue(), text, 'the prompt goes back into the composer');
  await page.getByTestId('composer-input').fill('');
  await shot('11b-rewound-both');
});

step('the console follows a dark OS theme', async () => {
  const light = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  await page.emulateMedia({ colorScheme: 'dark' });
  // The console follows the OS's change event (useTheme.ts), a task after the emulation takes effect.
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  const dark = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  assert.notEqual(dark, light);
  await shot('12-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

step('bypass mode is confirmed first, and the CLI’s refusal as root is explained', async () => {
  if (process.getuid?.() !== 0) return; // only root is refused (without IS_SANDBOX=1)
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-mode').selectOption('bypassPermissions');
  assert.equal(await page.getByTestId('new-session-start').isDisabled(), true, 'bypass needs the confirmation first');
  await page.getByLabel(/I understand that Claude Code will run every tool/).check();
  await page.getByTestId('new-session-start').click();
  const refusal = page
    .locator('[data-testid="new-session-error"], [data-testid="error-row"]')
    .filter({ hasText: /root|sudo/i })
    .first();
  await refusal.waitFor();
  assert.match(await refusal.textContent(), /IS_SANDBOX=1/);
  await shot('13-bypass-refused');
  await page.keyboard.press('Escape');
});

step('the page raised no errors', async () => {
  assert.deepEqual(pageErrors, []);
});
