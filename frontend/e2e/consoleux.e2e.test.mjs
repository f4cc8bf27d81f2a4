// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API): the console keeps its place (issue 28). Scroll-back holds against wheel notches 300 ms apart, a fast
// flick, a trackpad's small pixel deltas and a drag of the scrollbar, also while a reply streams, with a "Jump to
// latest" count; no key typed in the composer answers a permission card (the card takes the keys once it has
// focus); Shift+Tab cycles the permission mode; "Needs you" stays until answered
// (also on a fork), busy sessions show, and a notification names the tool and, clicked, shows its session; a turn
// that ends out of sight notifies that its session finished; with notifications off in Settings nothing notifies;
// a browser not yet asked is asked for permission when notifications are turned on, and notifies once allowed.
// Screenshots go to test-artifacts/ (e2e-ux-*.png).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before } from 'node:test';
import { demoProject, openPage, pathSteps, sendPrompt, shotPath, startServedBaton, startSessionIn, stopAll, stopOnSignals, waitIdle } from './harness.mjs';

const TURN_MS = 45_000;
/** The spacing of wheel notches the issue names: slow enough that each notch's scroll has ended before the next. */
const NOTCH_GAP_MS = 300;

let page;
let url;
let batonPid;
let project;
const pageErrors = [];

stopOnSignals();

before(async () => {
  ({ url, pid: batonPid } = await startServedBaton('ux'));
  project = demoProject('ux-project');
  // Scrollbars shown (headless Chromium hides them) so one can be dragged.
  ({ page } = await openPage({ viewport: { width: 1280, height: 800 }, pageErrors, timeoutMs: TURN_MS, prepare: recordNotifications, scrollbars: true }));
});

/** The browser's Notification API, allowed and recorded as the console calls it (headless Chromium shows nothing). */
async function recordNotifications(context) {
  await allowNotifications(context);
  await recordRaised(context);
}

/** The person allows notifications for the console's origin (at the browser's prompt, or in advance). */
const allowNotifications = (context) => context.grantPermissions(['notifications'], { origin: new URL(url).origin });

/** Each notification the console raises is recorded in window.__notes (and raised). */
async function recordRaised(context) {
  await context.addInitScript(() => {
    const Real = window.Notification;
    const notes = [];
    Object.defineProperty(window, '__notes', { value: notes });
    class Recorded extends Real {
      constructor(title, options) {
        super(title, options);
        notes.push({ title, body: options?.body ?? '', note: this });
      }
    }
    window.Notification = Recorded;
  });
}

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('ux-last') }).catch(() => undefined);
  await stopAll();
});

const send = (text) => sendPrompt(page, text);
const shot = (name) => page.screenshot({ path: shotPath(`ux-${name}`) });
const step = pathSteps(() => page, 'ux-failed-');
const idle = () => waitIdle(page);

/** The transcript's scroller: how far it is from its bottom, in pixels. */
const fromBottom = () =>
  page.evaluate(() => {
    const el = document.querySelector('[data-testid="conversation"] [data-virtuoso-scroller]');
    return el === null ? -1 : el.scrollHeight - el.scrollTop - el.clientHeight;
  });

/** Waits until the scroller has not moved for two frames in a row (a scroll, smooth or not, has ended). */
const settled = () =>
  page.evaluate(
    () =>
      new Promise((res) => {
        const el = document.querySelector('[data-testid="conversation"] [data-virtuoso-scroller]');
        let last = -1;
        let still = 0;
        const look = () => {
          const now = el?.scrollTop ?? 0;
          still = now === last ? still + 1 : 0;
          last = now;
          if (still >= 2) res(now);
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      }),
  );

/** One wheel notch up over the transcript, then the pause a person leaves before the next: the pause is the input
 * being driven (the 300 ms), never a wait for the console; each notch's scroll is awaited to its end. */
async function notchUp() {
  await page.mouse.wheel(0, -100);
  await settled();
  await page.waitForTimeout(NOTCH_GAP_MS);
  await settled();
}

/** One wheel notch down, spaced like notchUp. */
async function notchDown() {
  await page.mouse.wheel(0, 100);
  await settled();
  await page.waitForTimeout(NOTCH_GAP_MS);
  await settled();
}

/** Puts the mouse over the middle of the transcript, where wheel events scroll it. */
async function overTranscript() {
  const box = await page.getByTestId('conversation').boundingBox();
  assert.ok(box !== null);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
}

/** The transcript scroller's scrollTop. */
const scrollTop = () => page.evaluate(() => document.querySelector('[data-testid="conversation"] [data-virtuoso-scroller]')?.scrollTop ?? -1);

/** A paragraph of n numbered lines, so each prompt and its echo are tall. */
const tall = (label, n) => Array.from({ length: n }, (_, i) => `${label} line ${i + 1}`).join('\n');

step('a long conversation opens at its bottom', async () => {
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await startSessionIn(page, project);
  for (let i = 1; i <= 4; i++) {
    await send(tall(`turn ${i}`, 20));
    await page
      .getByTestId('assistant-message')
      .filter({ hasText: `turn ${i} line 20` })
      .waitFor();
    await idle();
  }
  await settled();
  assert.ok((await fromBottom()) <= 2, 'the transcript is at its bottom');
});

step('wheel notches 300 ms apart scroll up and the view stays where they left it', async () => {
  await overTranscript();
  for (let i = 0; i < 3; i++) await notchUp();
  const away = await fromBottom();
  assert.ok(away >= 250, `three notches up leave the view ${away}px above the bottom, not pinned to it`);
  // A new message does not pull the view down; the Latest button counts it.
  await send('a reply while scrolled up');
  // The prompt and its reply arrived below the view (rows out of view are not rendered): the button counts them.
  const jump = page.getByTestId('jump-latest');
  await jump.filter({ hasText: /2 new messages/ }).waitFor();
  await idle();
  await settled();
  const stillAway = await fromBottom();
  assert.ok(stillAway >= 250, `the view stayed up (${stillAway}px above the bottom) while the reply arrived`);
  await shot('scrolled-up');
  await jump.click();
  await page.waitForFunction(() => document.querySelector('[data-testid="jump-latest"]') === null);
  await settled();
  assert.ok((await fromBottom()) <= 2, 'Jump to latest goes to the bottom');
});

step('scrolled up by the keyboard, a streaming reply leaves the view where it is', async () => {
  await send('[slow] a streamed reply');
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').waitFor();
  await page.locator('[data-testid="conversation"] [data-virtuoso-scroller]').focus();
  await page.keyboard.press('PageUp');
  await settled();
  const away = await fromBottom();
  assert.ok(away >= 200, `PageUp left the view ${away}px above the bottom`);
  await idle();
  await settled();
  assert.ok((await fromBottom()) >= 200, 'the streamed reply did not pull the view down');
  // Back at the bottom, following the tail resumes.
  await page.getByTestId('jump-latest').click();
  await settled();
  await send('[slow] followed to its end');
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').waitFor();
  await page.locator('[data-testid="assistant-message"][aria-busy="false"]').filter({ hasText: 'You said: [slow] followed to its end' }).waitFor();
  await idle();
  await settled();
  assert.ok((await fromBottom()) <= 2, 'at the bottom, the view follows the reply to its end');
});

step('a wheel down that stops short of the bottom does not resume following a streaming reply', async () => {
  await overTranscript();
  for (let i = 0; i < 4; i++) await notchUp();
  for (let i = 0; i < 2; i++) await notchDown();
  const away = await fromBottom();
  assert.ok(away > 100, `two notches down from four up leave the view ${away}px above the bottom`);
  await send('[slow] streamed below a view scrolled back down a little');
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').waitFor();
  await settled();
  const top = await scrollTop();
  await idle();
  await settled();
  const end = await scrollTop();
  assert.ok(Math.abs(end - top) <= 2, `the view stayed at ${top}px while the reply streamed, not ${end}px`);
  assert.ok((await fromBottom()) > 100, 'the streamed reply did not pull the view down');
  await page.getByTestId('jump-latest').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="jump-latest"]') === null);
  await settled();
  assert.ok((await fromBottom()) <= 2, 'Jump to latest goes to the bottom');
});

/** Sends a slow reply and waits until it streams, the view at the bottom following it. */
async function streaming(text) {
  await send(`[slow] ${text}`);
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').waitFor();
  await settled();
  assert.ok((await fromBottom()) <= 2, 'the view follows the streaming reply');
}

/** Waits for the streaming reply to end, asserting the view stayed where the person left it; then back down. */
async function heldWhileStreaming(how) {
  const top = await scrollTop();
  await idle();
  await settled();
  const end = await scrollTop();
  assert.ok(Math.abs(end - top) <= 2, `${how}: the view stayed at ${top}px while the reply streamed, not ${end}px`);
  assert.ok((await fromBottom()) > 100, `${how}: the streamed reply did not pull the view down`);
  await page.getByTestId('jump-latest').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="jump-latest"]') === null);
  await settled();
}

/** Wheel events sent back to back, no pause between them (a flick, or a trackpad's glide); their pixel deltas
 * as the page saw them are returned. */
async function wheelRun(deltaY, count) {
  await page.evaluate(() => {
    const seen = [];
    Object.defineProperty(window, '__wheels', { value: seen, configurable: true });
    window.addEventListener('wheel', (e) => seen.push({ deltaY: e.deltaY, deltaMode: e.deltaMode }), { capture: true, passive: true });
  });
  for (let i = 0; i < count; i++) await page.mouse.wheel(0, deltaY);
  await settled();
  return page.evaluate(() => /** @type {any} */ (window).__wheels);
}

step('a fast flick up from the bottom escapes a streaming reply', async () => {
  await overTranscript();
  await streaming('streamed under a flick');
  const seen = await wheelRun(-120, 5);
  assert.equal(seen.length, 5);
  const away = await fromBottom();
  assert.ok(away >= 300, `five quick notches up leave the view ${away}px above the bottom`);
  await heldWhileStreaming('after a flick');
});

step('a trackpad’s many small pixel deltas scroll up and the view stays there while a reply streams', async () => {
  await overTranscript();
  await streaming('streamed under a trackpad');
  const seen = await wheelRun(-6, 40);
  assert.ok(
    seen.length === 40 && seen.every((w) => w.deltaMode === 0 && w.deltaY < 0 && w.deltaY >= -10),
    `the page saw 40 small pixel deltas: ${JSON.stringify(seen.slice(0, 3))}…`,
  );
  const away = await fromBottom();
  assert.ok(away >= 150, `40 deltas of 6 px up leave the view ${away}px above the bottom`);
  await heldWhileStreaming('after a trackpad scroll');
});

step('dragging the scrollbar up leaves the view where the drag left it while a reply streams', async () => {
  await streaming('streamed while the scrollbar is dragged');
  // The thumb's middle, from the scroller's geometry (a classic scrollbar: an arrow button at each end).
  const bar = await page.evaluate(() => {
    const el = /** @type {HTMLElement} */ (document.querySelector('[data-testid="conversation"] [data-virtuoso-scroller]'));
    const r = el.getBoundingClientRect();
    const width = el.offsetWidth - el.clientWidth;
    const track = el.clientHeight - 2 * width;
    const thumb = Math.max(width, (track * el.clientHeight) / el.scrollHeight);
    const top = r.top + width + ((track - thumb) * el.scrollTop) / (el.scrollHeight - el.clientHeight);
    return { x: r.right - width / 2, y: top + thumb / 2, width };
  });
  assert.ok(bar.width > 0, 'the transcript shows a scrollbar');
  await page.mouse.move(bar.x, bar.y);
  await page.mouse.down();
  await page.mouse.move(bar.x, bar.y - 60, { steps: 6 });
  await page.mouse.up();
  await settled();
  const away = await fromBottom();
  assert.ok(away >= 150, `the drag left the view ${away}px above the bottom`);
  await heldWhileStreaming('after a scrollbar drag');
});

/**
 * Read before keys are typed in the composer: a wait until they show there (they were handled, in order) or the
 * card's button stops taking clicks (a card that takes a key disables its buttons at once, then leaves the dock).
 */
async function watchKeys(input, button) {
  const field = await input.elementHandle();
  const pick = await button.elementHandle();
  return (want) => page.waitForFunction(([f, b, w]) => f.value === w || !b.isConnected || b.disabled, [field, pick, want]);
}

/** Asserts a card still waits for its answer: it is shown, nothing settled it, and its button takes a click. */
async function stillWaiting(card, button, what) {
  assert.equal(await card.count(), 1, `${what}: the card left`);
  assert.equal(await card.locator('[data-testid="permission-settled"]').count(), 0, `${what}: the card is settled`);
  assert.equal(await button.isEnabled(), true, `${what}: the card is sending an answer`);
}

step('no key typed in the composer answers a permission card; the card answers once it has focus', async () => {
  await send('[write keyed.txt allowed by key]');
  const card = page.getByTestId('permission-card');
  await card.waitFor();
  const input = page.getByTestId('composer-input');
  const allow = card.getByRole('button', { name: 'Allow', exact: true });
  await input.focus();
  const typed = await watchKeys(input, allow);
  await input.press('Enter');
  await input.press('1');
  await typed('1');
  await stillWaiting(card, allow, 'a key in the composer answered the card');
  assert.equal(await input.inputValue(), '1', 'the key went into the composer');
  await input.fill('');
  // Tab from an empty composer takes the focus to the card; then 1 allows.
  await input.press('Tab');
  await page.waitForFunction(() => document.activeElement?.closest('[data-testid="permission-card"]') !== null);
  await shot('permission-focused');
  await page.keyboard.press('1');
  await page.getByTestId('permission-row').filter({ hasText: 'Write: Allowed' }).waitFor();
  await idle();
  assert.equal(existsSync(join(project, 'keyed.txt')), true);
});

step('Shift+Tab cycles the permission mode', async () => {
  const mode = page.getByTestId('mode-picker').locator('select');
  assert.equal(await mode.inputValue(), 'default');
  await page.getByTestId('composer-input').focus();
  await page.keyboard.press('Shift+Tab');
  await page.getByTestId('notice').filter({ hasText: 'Permissions: Accept edits' }).waitFor();
  assert.equal(await mode.inputValue(), 'acceptEdits');
  await page.keyboard.press('Shift+Tab');
  await page.getByTestId('notice').filter({ hasText: 'Permissions: Plan only' }).waitFor();
  await page.keyboard.press('Shift+Tab');
  await page.getByTestId('notice').filter({ hasText: 'Permissions: Ask before tools' }).last().waitFor();
  assert.equal(await mode.inputValue(), 'default');
  assert.deepEqual(pageErrors, []);
});

/** The shown session's id. */
const current = () => page.locator('[data-testid="session-entry"][aria-current="true"]').getAttribute('data-session');
const entry = (id) => page.locator(`[data-testid="session-entry"][data-session="${id}"]`);
/** Answers the waiting permission card from the composer by keys: Tab to the card, 1 allows. */
async function allowByKeys() {
  await page.getByTestId('permission-card').waitFor();
  await page.getByTestId('composer-input').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('1');
  await idle();
}

let first;
let second;

step('“Needs you” stays on a session until its request is answered, whichever session is viewed meanwhile', async () => {
  first = await current();
  await send('[write needs.txt waiting]');
  await page.getByTestId('permission-card').waitFor();
  await startSessionIn(page, project);
  await page.waitForFunction((id) => document.querySelector('[data-testid="session-entry"][aria-current="true"]')?.getAttribute('data-session') !== id, first);
  second = await current();
  await entry(first).getByTestId('mark-permission').waitFor();
  await entry(first).click();
  await entry(second).click();
  await entry(first).getByTestId('mark-permission').waitFor();
  await shot('needs-you');
  await entry(first).click();
  await allowByKeys();
  await page.waitForFunction(
    (id) => document.querySelector(`[data-testid="session-entry"][data-session="${id}"] [data-testid="mark-permission"]`) === null,
    first,
  );
});

step('a busy session shows in the sidebar; its request notifies, naming the tool, and the click shows it', async () => {
  await entry(second).click();
  await send('[slow] [write late.txt z]');
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').waitFor();
  await entry(first).click();
  await entry(second).getByTestId('mark-busy').waitFor();
  await shot('busy');
  await page.waitForFunction(() => /** @type {any} */ (window).__notes.some((n) => /needs you/.test(n.title) && /Write: .*late\.txt/.test(n.body)));
  await entry(second).getByTestId('mark-permission').waitFor();
  await page.evaluate(() => {
    const n = /** @type {any} */ (window).__notes.find((x) => /needs you/.test(x.title));
    n?.note.onclick?.(new Event('click'));
  });
  await page.waitForFunction((id) => document.querySelector('[data-testid="session-entry"][aria-current="true"]')?.getAttribute('data-session') === id, second);
  await allowByKeys();
  assert.equal(existsSync(join(project, 'late.txt')), true);
});

/** The notifications raised so far, as { title, body }. */
const notes = () =>
  page.evaluate(() => /** @type {any} */ (window).__notes.map((/** @type {{ title: string, body: string }} */ n) => ({ title: n.title, body: n.body })));

step('a turn that ends while its session is not viewed notifies that it finished, naming the session', async () => {
  // The busy step's notification click left the second session shown.
  await send('[slow] finishes out of sight');
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').waitFor();
  await entry(first).click();
  // The mark and the notification come from the same turn end, so once the mark shows the notification was raised.
  await entry(second).getByTestId('mark-finished').waitFor();
  const title = await entry(second).getByTestId('entry-title').textContent();
  const raised = await notes();
  assert.ok(
    raised.some((n) => n.title === `${title} finished` && n.body === `In ${basename(project)}`),
    `a notification says “${title} finished”: ${JSON.stringify(raised)}`,
  );
});

step('a fork is “Fork of <title>”, shows where it came from, and shows “Needs you” too', async () => {
  await entry(first).click();
  await page.locator('.session-header').getByRole('button', { name: 'Fork', exact: true }).click();
  await page.getByTestId('notice').filter({ hasText: 'Forked from session' }).waitFor();
  await page.waitForFunction((id) => document.querySelector('[data-testid="session-entry"][aria-current="true"]')?.getAttribute('data-session') !== id, first);
  const fork = await current();
  // Named for what it continues, and the header says where it came from (a click away).
  await entry(fork)
    .getByTestId('entry-title')
    .filter({ hasText: /^Fork of turn 1 line 1/ })
    .waitFor();
  await page
    .getByTestId('session-fork')
    .filter({ hasText: /^forked from turn 1 line 1/ })
    .waitFor();
  await send('[write forked.txt f]');
  await page.getByTestId('permission-card').waitFor();
  await entry(second).click();
  await entry(fork).getByTestId('mark-permission').waitFor();
  await entry(fork).click();
  await allowByKeys();
  assert.deepEqual(pageErrors, []);
});

step('a question card takes digits and arrows once Tab brings the focus there', async () => {
  const question = {
    questions: [
      {
        question: 'Which color?',
        header: 'Color',
        options: [
          { label: 'Red', description: 'Warm' },
          { label: 'Blue', description: 'Calm' },
        ],
        multiSelect: false,
      },
    ],
  };
  await send(`[tool AskUserQuestion ${JSON.stringify(question)}]`);
  const card = page.getByTestId('question-card');
  await card.waitFor();
  const input = page.getByTestId('composer-input');
  const blue = card.getByRole('button', { name: /^Blue/ });
  await input.focus();
  const typed = await watchKeys(input, blue);
  await input.press('2');
  await typed('2');
  await stillWaiting(card, blue, 'a digit in the composer answered');
  assert.equal(await input.inputValue(), '2', 'the digit went into the composer');
  await input.fill('');
  await input.press('Tab');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent ?? ''), 'BlueCalm');
  await page.keyboard.press('2');
  await page.getByTestId('permission-row').filter({ hasText: 'Which color? → Blue' }).waitFor();
  await idle();
});

step('Ctrl+K, a few letters and Enter open the session found; arrows move in a session’s menu', async () => {
  await entry(first).click();
  await page.keyboard.press('Control+k');
  await page.keyboard.type('write late');
  await page.keyboard.press('Enter');
  await page.waitForFunction((id) => document.querySelector('[data-testid="session-entry"][aria-current="true"]')?.getAttribute('data-session') === id, second);
  await page
    .locator('li.entry')
    .filter({ has: entry(first) })
    .getByTestId('entry-actions')
    .click();
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'entry-pin');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'entry-rename');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'entry-pin');
  await page.keyboard.press('Escape');
});

step('at 900 px the sidebar is an overlay, closed until asked for, and the checklist opens from a toggle', async () => {
  // This CLI keeps its checklist with TaskCreate (TodoWrite is off in SDK sessions).
  await send(
    '[tool TaskCreate {"subject":"Write the file","description":"The first step"}] [tool TaskCreate {"subject":"Check it","description":"The second"}]',
  );
  await page.getByTestId('plan-panel').waitFor();
  await idle();
  // Two updates in a row are one row that counts them.
  await page.locator('.tool-plan').filter({ hasText: 'updated ×2' }).waitFor();
  assert.equal(await page.locator('.tool-plan').count(), 1);
  // After a reload the history is rebuilt from the session's record: the updates are still one row.
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.locator('.tool-plan').filter({ hasText: 'updated ×2' }).waitFor();
  assert.equal(await page.locator('.tool-plan').count(), 1, 'after a reload the checklist updates are one row');
  await page.setViewportSize({ width: 900, height: 700 });
  await page.getByTestId('sidebar').waitFor({ state: 'detached' });
  await page.getByTestId('plan-panel').waitFor({ state: 'hidden' });
  // The conversation has the whole width.
  const view = await page.locator('.session-view').boundingBox();
  assert.ok(view !== null && view.x <= 1 && view.width >= 899, `the session takes the width: ${JSON.stringify(view)}`);
  await page
    .getByTestId('plan-toggle')
    .filter({ hasText: /Checklist 0\/2/ })
    .click();
  await page.getByTestId('plan-panel').filter({ hasText: 'Write the file' }).waitFor();
  await shot('narrow-checklist');
  await page.getByTestId('plan-toggle').click();
  await page.getByTestId('sidebar-show').click();
  await page.getByTestId('sidebar').waitFor();
  const bar = await page.getByTestId('sidebar').boundingBox();
  const after = await page.locator('.session-view').boundingBox();
  assert.ok(bar !== null && after !== null && after.x <= 1, 'the sidebar lies over the conversation, which keeps its place');
  await shot('narrow-overlay');
  await entry(second).click();
  await page.getByTestId('sidebar').waitFor({ state: 'detached' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('sidebar').waitFor();
});

step('screenshots at 900×700 and 1440×900, light and dark', async () => {
  await entry(first).click();
  for (const [width, height] of [
    [900, 700],
    [1440, 900],
  ]) {
    for (const colorScheme of ['light', 'dark']) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await page.waitForFunction((c) => document.documentElement.dataset.theme === c, colorScheme);
      if (width <= 900) {
        await page.getByTestId('sidebar-show').click();
        await page.getByTestId('sidebar').waitFor();
      }
      await settled();
      await shot(`${width}x${height}-${colorScheme}`);
      if (width <= 900) {
        await page.getByTestId('sidebar-backdrop').click({ position: { x: width - 20, y: height / 2 } });
        await page.getByTestId('sidebar').waitFor({ state: 'detached' });
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(pageErrors, []);
});

step('editing a queued prompt keeps its place in the queue', async () => {
  await send('[slow] hold the line');
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').waitFor();
  for (const p of ['queued one', 'queued two', 'queued three']) await send(p);
  const queue = page.getByTestId('queued-turns').locator('li');
  await queue.nth(2).waitFor();
  await page.getByRole('button', { name: 'Edit queued prompt: queued two' }).click();
  await page.getByTestId('queued-edit-input').fill('queued two, edited');
  await page.getByTestId('queued-edit-save').click();
  // The edit is saved when the queue shows it in its place (the edited row re-renders after the host answers).
  const want = ['queued one', 'queued two, edited', 'queued three'];
  await page.waitForFunction(
    (w) => Array.from(document.querySelectorAll('[data-testid="queued-turns"] .queued-text'), (e) => e.textContent).join('\n') === w.join('\n'),
    want,
  );
  assert.deepEqual(await page.getByTestId('queued-turns').locator('.queued-text').allTextContents(), want);
  await shot('queue-edited');
  // They run in that order.
  await page.getByTestId('assistant-message').filter({ hasText: 'You said: queued three' }).waitFor();
  await idle();
  const order = await page.getByTestId('user-message').allTextContents();
  const at = (t) => order.findIndex((x) => x.includes(t));
  assert.ok(at('queued one') < at('queued two, edited') && at('queued two, edited') < at('queued three'), order.join(' | '));
});

step('settings are in one place and saved: theme, notifications, idle sleep', async () => {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-theme').selectOption('dark');
  await page.getByTestId('settings-notifications').uncheck();
  await page.getByTestId('settings-idle').selectOption('1800');
  await page.getByTestId('settings-mode').selectOption('acceptEdits');
  await shot('settings');
  await page.getByTestId('settings-save').click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await page
    .getByTestId('idle-setting')
    .filter({ has: page.locator('option:checked', { hasText: '30 minutes' }) })
    .waitFor();
  // Read again from Baton's data dir after a reload.
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await page.getByTestId('open-settings').click();
  assert.equal(await page.getByTestId('settings-notifications').isChecked(), false);
  assert.equal(await page.getByTestId('settings-idle').inputValue(), '1800');
  assert.equal(await page.getByTestId('settings-mode').inputValue(), 'acceptEdits');
  await shot('settings-dark');
  await page.getByTestId('settings-theme').selectOption('system');
  await page.getByTestId('settings-save').click();
  // "system" is the OS's scheme, and it is followed: headless Chromium's light, then dark when it changes.
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

step('with notifications off in Settings, neither a request nor a finished turn out of sight notifies', async () => {
  // The settings step turned them off (and reloaded: the page's record starts empty).
  await entry(first).click();
  await page.getByTestId('session-live').waitFor();
  await send('[slow] [write quiet.txt q]');
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').waitFor();
  await entry(second).click();
  // The mark comes from the same event a notification would: once it shows, none was raised.
  await entry(first).getByTestId('mark-permission').waitFor();
  await entry(first).click();
  await allowByKeys();
  await send('[slow] ends out of sight, quietly');
  await page.locator('[data-testid="assistant-message"][aria-busy="true"]').waitFor();
  await entry(second).click();
  await entry(first).getByTestId('mark-finished').waitFor();
  assert.deepEqual(await notes(), [], 'nothing notifies while notifications are off');
  assert.equal(existsSync(join(project, 'quiet.txt')), true);
});

/** Each Notification.requestPermission call is recorded in window.__asked (then made), with whether a click or key
 * press allowed it (browsers show the prompt only then) and the permission at the time. */
async function recordPermissionRequests(context) {
  await context.addInitScript(() => {
    const asked = [];
    Object.defineProperty(window, '__asked', { value: asked });
    const request = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args) => {
      asked.push({ activated: navigator.userActivation.isActive, permission: Notification.permission });
      return request(...args);
    };
  });
}

step('in a browser that has not been asked, turning notifications on asks; once allowed, a request notifies', async () => {
  // A second browser on the same Baton, its notification permission untouched ("default").
  const prepare = async (context) => {
    await recordRaised(context);
    await recordPermissionRequests(context);
  };
  const { context, page: fresh } = await openPage({ viewport: { width: 1280, height: 800 }, pageErrors, timeoutMs: TURN_MS, prepare });
  try {
    await fresh.goto(url);
    await fresh.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
    const there = (id) => fresh.locator(`[data-testid="session-entry"][data-session="${id}"]`);
    await there(second).click();
    assert.equal(await fresh.evaluate(() => Notification.permission), 'default');
    assert.deepEqual(await fresh.evaluate(() => /** @type {any} */ (window).__asked), [], 'nothing asked before the person acts');
    await fresh.getByTestId('open-settings').click();
    await fresh.getByTestId('settings-notifications').check();
    await fresh.getByTestId('settings-save').click();
    await fresh.waitForFunction(() => /** @type {any} */ (window).__asked.length > 0);
    assert.deepEqual(
      await fresh.evaluate(() => /** @type {any} */ (window).__asked),
      [{ activated: true, permission: 'default' }],
      'Save asked once, from its click',
    );
    // Headless Chromium shows no prompt: the person's "Allow" is granted to the context.
    await allowNotifications(context);
    // The first browser makes the first session ask; the second browser shows the second session.
    await entry(first).click();
    await send('[slow] [write asked.txt a]');
    await fresh.waitForFunction(() => /** @type {any} */ (window).__notes.some((n) => /needs you/.test(n.title) && /Write: .*asked\.txt/.test(n.body)));
    await there(first).getByTestId('mark-permission').waitFor();
    await allowByKeys();
    assert.equal(existsSync(join(project, 'asked.txt')), true);
  } finally {
    await context.close();
  }
});

step('after `baton serve` stops (a restart takes a new port and token), the old tab says to open the new address', async () => {
  process.kill(batonPid, 'SIGTERM');
  const banner = page.getByTestId('connection-banner');
  await banner.filter({ hasText: 'open that one' }).waitFor();
  assert.equal(await banner.getAttribute('data-state'), 'lost');
  await shot('restarted');
});
