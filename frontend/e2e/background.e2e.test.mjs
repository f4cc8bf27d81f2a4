// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API): a background Bash command and a /compact (issue 28). The Bash card shows the live end of the command's
// output (task.output) and "running in background" while it runs, never "exit 0"; the test decides when the
// command ends (a gate file), never a sleep. Rewind is offered on every prompt, before a /compact too, live and
// after a reload; a rewind to before the /compact goes on in a new session holding the conversation up to there
// (Claude Code cannot resume at it: sidecar/test/e2e/rewindCompact.test.ts), which the agent then recalls. The
// compaction's summary is the collapsed notice live as after a reload, never a person's prompt bubble.
// Screenshots go to test-artifacts/ (e2e-bg-*.png).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { demoProject, openPage, pathSteps, sendPrompt, shotPath, startServedBaton, stopAll, stopOnSignals, tempDir, waitIdle } from './harness.mjs';

const TURN_MS = 45_000;

let page;
let served;
let project;
let gate;
const pageErrors = [];

stopOnSignals();

before(async () => {
  served = await startServedBaton('bg');
  project = demoProject('bg-project');
  gate = join(tempDir('bg-gate'), 'go');
  ({ page } = await openPage({ viewport: { width: 1280, height: 900 }, pageErrors, timeoutMs: TURN_MS }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('bg-last') }).catch(() => undefined);
  await stopAll();
});

const send = (text) => sendPrompt(page, text);
const shot = (name) => page.screenshot({ path: shotPath(`bg-${name}`) });
const step = pathSteps(() => page, 'bg-failed-');
const idle = () => waitIdle(page);
const selected = () => page.locator('[aria-current="true"][data-session]').getAttribute('data-session');
const bashCard = () => page.locator('[data-testid="tool-card"][data-tool="Bash"]');

step('a session starts', async () => {
  assert.equal((await page.goto(served.url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
});

step('a background Bash card shows its live output tail and “running”, never “exit 0”, while it runs', async () => {
  // 60 numbered lines, then a wait at the gate, then a last line.
  const command = `for i in $(seq 1 60); do echo line $i; done; while [ ! -f ${gate} ]; do sleep 0.05; done; echo finished`;
  await send(`[tool Bash ${JSON.stringify({ command, description: 'count, wait, finish', run_in_background: true })}]`);
  await page.getByTestId('permission-card').getByRole('button', { name: 'Allow', exact: true }).click();
  const tail = bashCard().getByTestId('background-tail');
  await tail.filter({ hasText: 'line 60' }).waitFor();
  await bashCard().getByTestId('background-running').filter({ hasText: 'running in background' }).waitFor();
  const text = (await bashCard().textContent()) ?? '';
  assert.doesNotMatch(text, /exit 0/, `the card of a command still running: ${text}`);
  // The tail is the end of the output so far, not its start.
  assert.doesNotMatch((await tail.textContent()) ?? '', /line 1\n|finished/);
  await bashCard().scrollIntoViewIfNeeded();
  await shot('running');
  writeFileSync(gate, '');
  await tail.filter({ hasText: 'finished' }).waitFor();
  await page.getByTestId('assistant-message').filter({ hasText: 'The background work finished' }).waitFor();
  await bashCard().getByTestId('background-running').waitFor({ state: 'detached' });
  assert.doesNotMatch((await bashCard().textContent()) ?? '', /exit 0/, 'a background command never reads “exit 0”');
  await idle();
  await shot('ended');
});

/**
 * The Rewind button of the prompt whose text is exactly text (the compaction's summary quotes the earlier ones),
 * as { disabled, title }: scrolls the transcript up (or down) until its row is rendered (rows out of view are not).
 */
const rewindOf = async (text, by = -400) => {
  const found = await page.waitForFunction(
    ([want, step]) => {
      const rows = document.querySelectorAll('[data-testid="conversation"] [data-testid="user-message"]');
      const row = Array.from(rows).find((r) => r.querySelector('.plain')?.textContent === want);
      const button = row?.querySelector('[data-testid="rewind-prompt"]');
      if (button instanceof HTMLButtonElement) return { disabled: button.disabled, title: button.title };
      const el = document.querySelector('[data-testid="conversation"] [data-virtuoso-scroller]');
      if (el !== null) el.scrollTop = Math.max(0, el.scrollTop + step);
      return false;
    },
    [text, by],
  );
  return found.jsonValue();
};

/**
 * What the compaction's summary shows as: 'summary' (the collapsed notice), 'prompt' (a person's bubble) or 'none',
 * scrolling the transcript from its top to its bottom until one is rendered.
 */
const summaryShownAs = async () => {
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="conversation"] [data-virtuoso-scroller]');
    if (el !== null) el.scrollTop = 0;
  });
  const found = await page.waitForFunction(() => {
    const conversation = document.querySelector('[data-testid="conversation"]');
    const rows = Array.from(conversation?.querySelectorAll('[data-testid="user-message"]') ?? []);
    if (rows.some((r) => /being continued from a previous conversation/.test(r.textContent ?? ''))) return 'prompt';
    if (conversation?.querySelector('[data-testid="compact-summary"]') != null) return 'summary';
    const el = conversation?.querySelector('[data-virtuoso-scroller]');
    if (el == null || el.scrollTop + el.clientHeight >= el.scrollHeight - 1) return 'none';
    el.scrollTop += 300;
    return false;
  });
  return found.jsonValue();
};

/** Rewind is offered on the prompts before the /compact as on the one after it. */
async function checkRewinds(when) {
  for (const text of ['alpha first', 'bravo second']) {
    const button = await rewindOf(text);
    assert.equal(button.disabled, false, `${when}: Rewind on “${text}”, before the /compact, is disabled`);
  }
  const later = await rewindOf('charlie third', 400);
  assert.equal(later.disabled, false, `${when}: Rewind on the prompt after the /compact is disabled`);
}

step('rewind is offered on prompts before a /compact, live and after a reload', async () => {
  for (const prompt of ['alpha first', 'bravo second', '/compact', 'charlie third']) {
    await send(prompt);
    // The /compact's own reply: Claude Code's local output "Compacted".
    if (prompt === '/compact') await page.getByTestId('conversation').getByText('Compacted', { exact: true }).waitFor();
    // After a /compact Claude Code sends the next prompt with its local command's record before it.
    else
      await page
        .getByTestId('assistant-message')
        .filter({ hasText: new RegExp(`You said: [\\s\\S]*${prompt}`) })
        .waitFor();
    await idle();
  }
  await checkRewinds('live');
  assert.equal(await summaryShownAs(), 'summary', 'live, the compaction summary is not the collapsed notice');
  await rewindOf('bravo second');
  await page
    .getByTestId('user-message')
    .filter({ hasText: /^bravo second/ })
    .hover();
  await shot('compacted');
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page
    .getByTestId('user-message')
    .filter({ hasText: /^charlie third/ })
    .waitFor();
  await checkRewinds('after a reload');
  assert.equal(await summaryShownAs(), 'summary', 'after a reload, the compaction summary is not the collapsed notice');
  assert.deepEqual(pageErrors, []);
});

step('screenshots at 900×700 and 1440×900, light and dark: the background card and the compaction', async () => {
  const toTop = () =>
    page.evaluate(() => {
      const el = document.querySelector('[data-testid="conversation"] [data-virtuoso-scroller]');
      if (el !== null) el.scrollTop = 0;
    });
  for (const [width, height] of [
    [900, 700],
    [1440, 900],
  ]) {
    await page.setViewportSize({ width, height });
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await page.waitForFunction((want) => document.documentElement.dataset.theme === want, colorScheme);
      await toTop();
      await bashCard().scrollIntoViewIfNeeded();
      await shot(`${width}x${height}-${colorScheme}-bash`);
      assert.equal(await summaryShownAs(), 'summary');
      await page.getByTestId('compact-summary').scrollIntoViewIfNeeded();
      await shot(`${width}x${height}-${colorScheme}-compacted`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(pageErrors, []);
});

step('a rewind to before the /compact goes on in a new session that holds what came before', async () => {
  const from = await selected();
  await rewindOf('bravo second');
  const prompt = page.getByTestId('user-message').filter({ hasText: /^bravo second/ });
  await prompt.hover();
  await prompt.getByRole('button', { name: 'Rewind…' }).click();
  await page.getByLabel('The conversation only').check();
  await page.getByTestId('rewind-confirm').click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.getByTestId('toast').filter({ hasText: 'It goes on in a new session' }).waitFor();
  await page.getByTestId('session-live').waitFor();
  await page.waitForFunction(
    () => /** @type {HTMLTextAreaElement | null} */ (document.querySelector('[data-testid="composer-input"]'))?.value === 'bravo second',
  );
  await page
    .getByTestId('user-message')
    .filter({ hasText: /^alpha first/ })
    .waitFor();
  for (const gone of [/^bravo second/, /^charlie third/]) {
    assert.equal(await page.getByTestId('user-message').filter({ hasText: gone }).count(), 0, `${gone} is still in the rewound conversation`);
  }
  await shot('rewound-compacted');
  // The agent sees the conversation before the /compact itself, not the compaction's summary.
  await send('[recall] after the rewind');
  const recalled = page.getByTestId('assistant-message').filter({ hasText: 'Earlier you said:' });
  await recalled.waitFor();
  const text = (await recalled.textContent()) ?? '';
  assert.match(text, /alpha first/);
  assert.doesNotMatch(text, /bravo second|charlie third|continued from a previous conversation/);
  await idle();
  assert.notEqual(await selected(), from, 'the rewound conversation is still the session it came from');
  assert.deepEqual(pageErrors, []);
});
