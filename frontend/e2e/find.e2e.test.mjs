// End to end in headless Chromium against `baton serve` (real runtime, scripted Messages API): a long stored
// session whose words sit far back in its history, beyond the first page the console loads. A sidebar content
// hit opens the session scrolled to that message, highlighted; Ctrl+F in the session finds every match of its
// whole history through the index, says "n of m", and steps to each, paging history as needed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before } from 'node:test';
import { batonBinary, demoProject, openPage, pathSteps, shotPath, startServedBaton, stopAll, stopOnSignals } from './harness.mjs';

const TURN_MS = 45_000;
/** Turns of the long session: a few events each, several history pages (the console's page is 200 events). */
const TURNS = 240;
/** Only the second prompt says it. */
const NEEDLE = 'zebrafinch';
/** Three replies say it: near the start, in the middle and near the end. */
const FIND = 'heronry';
const FIND_TURNS = [3, 120, 236];

let page;
let url;
let env;
let project;
let longId;
const pageErrors = [];

stopOnSignals();

before(async () => {
  ({ url, env } = await startServedBaton('find'));
  project = demoProject('find');
  ({ page } = await openPage({ viewport: { width: 1280, height: 800 }, pageErrors, timeoutMs: TURN_MS }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('find-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => page, 'failed-find-');

/** The one transcript the recorded session wrote: its folder and lines. */
function recorded() {
  const projects = join(env.CLAUDE_CONFIG_DIR, 'projects');
  for (const key of readdirSync(projects)) {
    for (const f of readdirSync(join(projects, key))) {
      if (f.endsWith('.jsonl'))
        return {
          dir: join(projects, key),
          lines: readFileSync(join(projects, key, f), 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l)),
        };
    }
  }
  throw new Error('the recorded session wrote no transcript');
}

/** A long session made of the recorded one's prompt and reply lines, each turn with its own words and uuids. */
function writeLongSession() {
  const { dir, lines } = recorded();
  const prompt = lines.find((l) => l.type === 'user' && typeof l.message?.content === 'string');
  const reply = lines.find((l) => l.type === 'assistant' && l.message?.content?.some((b) => b.type === 'text'));
  assert.ok(prompt !== undefined && reply !== undefined, 'the recorded transcript has a prompt and a reply');
  longId = randomUUID();
  const start = Date.now() - TURNS * 60_000;
  const out = [];
  let parent = null;
  for (let i = 0; i < TURNS; i++) {
    const time = (k) => new Date(start + i * 60_000 + k * 1000).toISOString();
    const user = { ...prompt, sessionId: longId, parentUuid: parent, uuid: randomUUID(), timestamp: time(0), promptId: randomUUID() };
    user.message = { role: 'user', content: i === 1 ? `Look up the ${NEEDLE} please (turn ${i})` : `Filler question number ${i}` };
    const text = FIND_TURNS.includes(i) ? `Answer ${i}: the ${FIND} is by the lake.` : `Filler answer number ${i}.`;
    const assistant = { ...reply, sessionId: longId, parentUuid: user.uuid, uuid: randomUUID(), timestamp: time(1) };
    assistant.message = { ...reply.message, id: `msg_long_${i}`, content: [{ type: 'text', text }] };
    out.push(JSON.stringify(user), JSON.stringify(assistant));
    parent = assistant.uuid;
  }
  writeFileSync(join(dir, `${longId}.jsonl`), `${out.join('\n')}\n`);
}

/** Whether the element's box is inside the conversation's scroller. */
async function inView(locator) {
  return locator.evaluate((el) => {
    const scroller = el.closest('.transcript');
    if (scroller === null) return false;
    const a = el.getBoundingClientRect();
    const b = scroller.getBoundingClientRect();
    return a.bottom > b.top && a.top < b.bottom;
  });
}

/** Waits until the row holding text is the found one, on screen. */
async function waitFound(text) {
  const row = page.locator('[data-found="true"]').filter({ hasText: text });
  await row.waitFor();
  await page.waitForFunction((want) => {
    const el = Array.from(document.querySelectorAll('[data-found="true"]')).find((e) => e.textContent?.includes(want));
    const scroller = el?.closest('.transcript');
    if (el === undefined || scroller === null || scroller === undefined) return false;
    const a = el.getBoundingClientRect();
    const b = scroller.getBoundingClientRect();
    return a.bottom > b.top && a.top < b.bottom;
  }, text);
  return row;
}

step('a long session is stored, its words far back in its history', async () => {
  await promisify(execFile)(batonBinary(), ['exec', '--cwd', project, 'hello there'], { env });
  writeLongSession();
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
});

/** The content hit for the words, typed again until the index has the session (the results do not follow the
 * index as it takes a new transcript in). */
async function contentHit(words) {
  const filter = page.getByLabel('Filter sessions');
  const hit = page.getByTestId('content-hit').filter({ hasText: words }).first();
  for (const until = Date.now() + 2 * TURN_MS; Date.now() < until; ) {
    await filter.fill('');
    await filter.fill(words);
    await page.getByTestId('content-results').locator('.content-results-head').filter({ hasNotText: 'Searching' }).waitFor();
    if ((await hit.count()) > 0) return hit;
    await page.waitForTimeout(250); // a poll's pause: the index has no event a page can wait on for one session
  }
  throw new Error(`no content hit for ${words}`);
}

step('a content hit opens the session at that message, highlighted, though it is pages back', async () => {
  const hit = await contentHit(NEEDLE);
  // By the keyboard, as from Ctrl+K: Tab to the hit, Enter (a click runs the same).
  await hit.focus();
  await hit.press('Enter');
  const row = await waitFound(`Look up the ${NEEDLE}`);
  assert.ok(await inView(row));
  // The history was paged back to it: the session's first prompt is loaded above it.
  await page.getByTestId('user-message').filter({ hasText: 'Filler question number 0' }).waitFor({ state: 'attached' });
  await page.screenshot({ path: shotPath('find-01-opened-at-hit') });
});

step('Ctrl+F finds every match of the whole history, n of m, and steps back through them', async () => {
  // Back to the tail, where only the newest page is loaded; the find bar searches all of it anyway.
  await page.getByLabel('Filter sessions').fill('');
  await page.getByTestId('conversation').click({ position: { x: 20, y: 20 } });
  await page.keyboard.press('Control+f');
  const input = page.getByTestId('find-input');
  await input.waitFor();
  await input.fill(FIND);
  const count = page.getByTestId('find-count');
  await count.filter({ hasText: '3 of 3' }).waitFor();
  await waitFound(`Answer ${FIND_TURNS[2]}:`);
  // The match itself is highlighted in the row's text.
  await page.waitForFunction((want) => {
    const hl = /** @type {any} */ (CSS).highlights?.get('baton-find');
    return hl !== undefined && Array.from(hl).some((r) => String(r).toLowerCase() === want);
  }, FIND);
  await input.press('Enter');
  await count.filter({ hasText: '2 of 3' }).waitFor();
  await waitFound(`Answer ${FIND_TURNS[1]}:`);
  await input.press('Enter');
  await count.filter({ hasText: '1 of 3' }).waitFor();
  await waitFound(`Answer ${FIND_TURNS[0]}:`);
  await page.screenshot({ path: shotPath('find-02-find-bar') });
  // Shift+Enter goes the other way, back down.
  await input.press('Shift+Enter');
  await count.filter({ hasText: '2 of 3' }).waitFor();
  await input.press('Escape');
  await input.waitFor({ state: 'detached' });
  assert.deepEqual(pageErrors, []);
});
