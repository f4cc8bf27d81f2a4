// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API): the conversation as a daily driver. A permission allowed by key; Claude's question answered by clicking
// an option (the API receives that answer as the tool's result); a plan approved, switching the mode; Stop with
// prompts in line takes them back into the composer and sends none of them; a rewind to before a prompt drops it
// from the conversation the model sees, puts its text back in the composer, and keeps the chosen model; a
// refused key shows one error card at once (Claude Code's retries on); a fork shows the conversation it branched from. Screenshots go to test-artifacts/ (e2e-conv-*.png).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import {
  demoProject,
  onStop,
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
let project;
const pageErrors = [];

stopOnSignals();

before(async () => {
  // Claude Code's own retries on (its default, ten): a refused key must still fail its turn at once, not after
  // minutes of retrying a 401 (the refused-key step below waits no longer than a turn).
  ({ url } = await startServedBaton('conv', { CLAUDE_CODE_MAX_RETRIES: '10' }));
  project = demoProject('conv-project');
  ({ page } = await openPage({ viewport: { width: 1280, height: 1300 }, pageErrors, timeoutMs: TURN_MS }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('conv-last') }).catch(() => undefined);
  await stopAll();
});

const send = (text) => sendPrompt(page, text);
const shot = (name) => page.screenshot({ path: shotPath(`conv-${name}`) });
let ended = 0;
/** Waits for the next turn end (completed, canceled or failed). */
const nextTurnEnd = () => waitForTurnEnds(page, ++ended);

/** Waits until no turn runs (the send button reads Send, not Queue). Counting turn ends stops working once a
 * view holds history: rows out of view are not rendered. */
const idle = () => waitIdle(page);

/** Waits until the form field matching selector holds value. */
function waitForValue(selector, value) {
  return page.waitForFunction(
    ([sel, want]) => /** @type {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null} */ (document.querySelector(sel))?.value === want,
    [selector, value],
  );
}

const step = pathSteps(() => page, 'conv-failed-');

const QUESTION = {
  questions: [
    {
      question: 'Which color should the button be?',
      header: 'Color',
      options: [
        { label: 'Red', description: 'Warm and loud' },
        { label: 'Blue', description: 'Calm and cool' },
      ],
      multiSelect: false,
    },
  ],
};

step('a session starts', async () => {
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
  await send('remember the apple');
  await page.getByTestId('assistant-message').filter({ hasText: 'You said: remember the apple' }).waitFor();
  await nextTurnEnd();
});

step('a permission is allowed with the keyboard (1), and the status says it waits for you', async () => {
  await send('[write keyed.txt allowed by key]');
  const card = page.getByTestId('permission-card');
  await card.waitFor();
  await page.getByTestId('tokens-live').filter({ hasText: 'waiting for you' }).waitFor();
  // The diff is in the permission card only, not also in the tool card above it.
  await page.locator('[data-testid="tool-card"][data-tool="Write"]').filter({ hasText: 'shown in the permission request below' }).waitFor();
  await shot('01-permission-keys');
  // Keys typed in the composer are the prompt's (issue 28): Tab takes the focus to the card, whose key answers it.
  await page.getByTestId('composer-input').press('Tab');
  await page.keyboard.press('1');
  await page.getByTestId('permission-row').filter({ hasText: 'Write: Allowed' }).waitFor();
  await nextTurnEnd();
  assert.equal(existsSync(join(project, 'keyed.txt')), true);
  assert.equal(await page.getByTestId('composer-input').inputValue(), '', 'the key did not go into the composer');
});

step('Claude’s question is answered by clicking an option, and the model receives that answer', async () => {
  await send(`[tool AskUserQuestion ${JSON.stringify(QUESTION)}]`);
  const card = page.getByTestId('question-card');
  await card.waitFor();
  assert.match(await card.textContent(), /Which color should the button be\?/);
  assert.match(await card.textContent(), /Calm and cool/);
  await shot('02-question');
  await card.getByRole('button', { name: /^Blue/ }).click();
  // The scripted API quotes back the tool_result it received.
  const reply = page.getByTestId('assistant-message').filter({ hasText: 'Tool results: [ok]' }).filter({ hasText: 'Blue' });
  await reply.waitFor();
  assert.match(await reply.textContent(), /Which color should the button be\?/);
  await nextTurnEnd();
  await page.getByTestId('permission-row').filter({ hasText: 'Which color should the button be? → Blue' }).waitFor();
  assert.equal(await page.getByTestId('question-card').count(), 0);
  await shot('03-question-answered');
});

step('a plan approved switches the permission mode', async () => {
  await page.getByTestId('mode-picker').locator('select').selectOption('plan');
  await page.getByTestId('notice').filter({ hasText: 'Permissions: Plan only' }).waitFor();
  await send(`[tool ExitPlanMode ${JSON.stringify({ plan: '# The plan\n\n1. Write the file\n2. Check it' })}]`);
  const card = page.getByTestId('plan-card');
  await card.waitFor();
  await card.locator('h1', { hasText: 'The plan' }).waitFor();
  await shot('04-plan');
  assert.equal(await card.getByTestId('plan-mode').inputValue(), 'acceptEdits');
  await card.getByTestId('plan-approve').click();
  await page.getByTestId('permission-row').filter({ hasText: 'Plan approved' }).waitFor();
  // The approved plan stays rendered in the conversation, not as escaped JSON (issue 28).
  await page.locator('[data-testid="tool-card"][data-tool="ExitPlanMode"] .plan-body h1', { hasText: 'The plan' }).waitFor();
  await nextTurnEnd();
  await waitForValue('[data-testid="mode-picker"] select', 'acceptEdits');
  await page.getByTestId('mode-picker').locator('select').selectOption('default');
  await page.getByTestId('notice').filter({ hasText: 'Permissions: Ask before tools' }).waitFor();
});

step('after a reload the approved plan is still rendered, not escaped JSON', async () => {
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  const plan = page.locator('[data-testid="tool-card"][data-tool="ExitPlanMode"]');
  await plan.locator('.plan-body h1', { hasText: 'The plan' }).waitFor();
  assert.doesNotMatch(await plan.textContent(), /"plan"|\\n/, 'the plan card shows no raw JSON');
});

step('Stop with prompts in line stops the turn, puts them back into the composer and sends none of them', async () => {
  await send('[slow] a long story');
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').filter({ hasText: 'You said: [slow]' }).waitFor();
  await send('queued one');
  await send('queued two');
  await page.getByTestId('queued-turns').locator('li').nth(1).waitFor();
  await shot('05-queue');
  await page.getByTestId('cancel-turn').click();
  await page.getByTestId('turn-canceled').waitFor();
  await nextTurnEnd();
  // The words written before the stop stay, marked stopped (issue 24: they used to be discarded).
  const stoppedReply = page.getByTestId('assistant-message').filter({ hasText: 'You said: [slow]' });
  await stoppedReply.getByTestId('reply-stopped').waitFor();
  assert.equal(await stoppedReply.getAttribute('aria-busy'), 'false');
  assert.doesNotMatch(await page.getByTestId('turn-canceled').last().textContent(), /discarded/);
  await waitForValue('[data-testid="composer-input"]', 'queued one\n\nqueued two');
  assert.equal(await page.getByTestId('queued-turns').count(), 0);
  assert.equal(await page.getByTestId('user-message').filter({ hasText: 'queued one' }).count(), 0);
  await shot('06-queue-back');
  // Nothing of the queue reached the model: the next request's earlier user texts (which end with the stopped
  // prompt) lack it.
  await send('[recall] after the stop');
  const recall = page.getByTestId('assistant-message').filter({ hasText: 'Earlier you said:' }).filter({ hasText: '[slow] a long story' });
  await recall.waitFor();
  assert.doesNotMatch(await recall.textContent(), /queued one|queued two/);
  await nextTurnEnd();
});

step('a fork shows the conversation it branched from, and the rest goes on in the fork', async () => {
  await page.locator('.session-header').getByRole('button', { name: 'Fork', exact: true }).click();
  await page.getByTestId('notice').filter({ hasText: 'Forked from session' }).waitFor();
  // The parent's conversation, as the fork continues it (the newest rows; older ones render when scrolled to).
  await page.getByTestId('user-message').filter({ hasText: '[recall] after the stop' }).waitFor();
  await shot('07-fork');
  await send('[recall] in the fork');
  // The model saw the whole conversation it forked (its earlier texts end with the parent's last prompt).
  const recall = page
    .getByTestId('assistant-message')
    .filter({ hasText: 'Earlier you said: remember the apple' })
    .filter({ hasText: '[recall] after the stop' })
    .last();
  await recall.waitFor();
  await idle();
});

step('rewinding to before a prompt leaves it out of what the model sees, returns its text, and keeps the model', async () => {
  await page.getByTestId('model-picker').locator('select').selectOption('sonnet');
  await page.getByTestId('notice').filter({ hasText: 'Model: Sonnet' }).waitFor();
  await send('remember the banana');
  // The CLI hands the model switch's note over with this prompt: the echo holds both.
  await page.getByTestId('assistant-message').filter({ hasText: 'You said:' }).filter({ hasText: 'remember the banana' }).waitFor();
  await idle();
  const prompt = page.getByTestId('user-message').filter({ hasText: 'remember the banana' });
  await prompt.hover();
  await prompt.getByRole('button', { name: 'Rewind…' }).click();
  await page.getByLabel('The conversation only').check();
  await page.getByTestId('rewind-confirm').click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await waitForValue('[data-testid="composer-input"]', 'remember the banana');
  await page.getByTestId('session-live').waitFor();
  await page.getByTestId('user-message').filter({ hasText: 'remember the apple' }).waitFor();
  assert.equal(await page.getByTestId('user-message').filter({ hasText: 'remember the banana' }).count(), 0);
  assert.equal(await page.getByTestId('model-picker').locator('select').inputValue(), 'sonnet');
  await shot('08-rewound');
  await send('[recall] after the rewind');
  // This reply's earlier user texts end with the prompt before the rewound one (no earlier reply holds it).
  const recall = page.getByTestId('assistant-message').filter({ hasText: 'Earlier you said:' }).filter({ hasText: '[recall] in the fork' });
  await recall.waitFor();
  const said = await recall.textContent();
  assert.match(said, /remember the apple/);
  assert.doesNotMatch(said, /remember the banana/);
  await shot('09-after-rewind');
});

step("while Claude thinks, the live count is Claude Code's estimate of the thinking, marked ≈", async () => {
  // The scripted API counts this thinking at 50 tokens (its text / 4 is 22); the slow reply after it keeps the
  // request open, so the count holds that estimate (plus the reply written so far) until the real count comes.
  await send('[think-estimated] [slow] weigh it, then answer slowly');
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').filter({ hasText: 'You said' }).waitFor();
  await page.waitForFunction(() => {
    const live = /≈(\d+) tokens/.exec(document.querySelector('[data-testid="tokens-live"]')?.textContent ?? '');
    return live !== null && Number(live[1]) >= 50;
  });
  await shot('09b-thinking-estimate');
  await page.getByTestId('cancel-turn').click();
  await page.getByTestId('cancel-turn').waitFor({ state: 'detached' });
});

step('a refused key shows one error card that says to fix the key, with Retry', async () => {
  await send('[status 401] try with a bad key');
  const row = page.getByTestId('error-row').filter({ hasText: 'The API key was refused' });
  await row.waitFor();
  await row.getByTestId('fix-key').filter({ hasText: 'ANTHROPIC_API_KEY' }).waitFor();
  assert.equal(await row.getByRole('button', { name: 'Sign in…' }).count(), 0);
  await row.getByTestId('retry-turn').waitFor();
  assert.doesNotMatch(await row.textContent(), /code:/);
  await shot('10-refused-key');
});

step(
  'Stop mid-reply and mid-command: the words stay marked Stopped, the card reads canceled with no running pill or Background, also after a reload',
  async () => {
    // In a session of its own, so every row stays in view (rows out of view are not rendered).
    await page.getByTestId('new-session').click();
    await page.getByTestId('new-session-folder').fill(project);
    await page.getByTestId('new-session-start').click();
    await page.getByTestId('notice').filter({ hasText: 'Session started in' }).waitFor();
    await page.getByTestId('session-live').waitFor();
    await send('[slow] stop me midway');
    await page.locator('[data-testid="assistant-message"][aria-busy="true"]').filter({ hasText: 'You said: [slow]' }).waitFor();
    await page.getByTestId('cancel-turn').click();
    await idle();
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: [slow]' }).getByTestId('reply-stopped').waitFor();
    // A real shell command that outlives the test unless stopped: it writes its pid first, then becomes the sleep.
    await send("[bash sh -c 'echo $$ > e2e-tool.pid; exec sleep 43']");
    await page.getByTestId('permission-card').waitFor();
    await page.getByTestId('composer-input').press('Tab');
    await page.keyboard.press('1');
    const card = page.locator('[data-testid="tool-card"][data-tool="Bash"]').filter({ hasText: 'exec sleep 43' });
    await card.locator('.pill.running').waitFor();
    const pidFile = join(project, 'e2e-tool.pid');
    while (!existsSync(pidFile) || !readFileSync(pidFile, 'utf8').endsWith('\n')) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    onStop(() => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    });
    await card.getByTestId('send-to-background').waitFor();
    await page.getByTestId('cancel-turn').click();
    await idle();
    await card.getByTestId('tool-canceled').waitFor();
    assert.equal(await card.locator('.pill.running').count(), 0);
    assert.equal(await card.getByTestId('send-to-background').count(), 0);
    await shot('06b-tool-canceled');
    await page.reload();
    await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
    const again = page.locator('[data-testid="tool-card"][data-tool="Bash"]').filter({ hasText: 'exec sleep 43' });
    await again.getByTestId('tool-canceled').waitFor();
    assert.equal(await again.locator('.pill.running').count(), 0);
    assert.equal(await again.getByTestId('send-to-background').count(), 0);
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: [slow]' }).getByTestId('reply-stopped').waitFor();
  },
);

step('the page raised no errors', async () => {
  assert.deepEqual(pageErrors, []);
});
