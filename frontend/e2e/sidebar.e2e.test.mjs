// End to end in headless Chromium against `baton serve` (real runtime, scripted Messages API): the sidebar and the
// new-session dialog. The folder completions and Ctrl+K's sessions found move with ↑/↓ and open with Enter; a session
// created by `baton exec` appears in the open console within 2 s of its transcript being written; sessions group by
// project and by date, collapse, pin, archive and rename, and a rename and the selected session survive a reload; a
// code block's Copy button puts the code on the clipboard; at 900 px, at the default and the narrowest sidebar
// width, nothing of the project filter is cut off and no mark covers a title. Screenshots at 900×700, 1440×900 and
// 2560×1440 in light and dark go to test-artifacts/.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import { batonBinary, onStop, openPage, pathSteps, shotPath, startBaton, startFakeApi, stopAll, stopOnSignals, tempDir, waitForTurnEnds } from './harness.mjs';

const TURN_MS = 45_000;
/** How soon a session made outside Baton must show in an open console (issue 13). */
const OUTSIDE_SESSION_MS = 2_000;

let page;
let url;
let env;
let bin;
let projectA;
let projectB;
let configDir;
const pageErrors = [];

stopOnSignals();

before(async () => {
  bin = batonBinary();
  const tools = tempDir('tools');
  const apiUrl = await startFakeApi(join(tools, 'baton-fakeapi'));
  let home;
  ({ url, env, home } = await startBaton({ apiUrl, bin }));
  configDir = join(home, '.claude');
  projectA = tempDir('alpha');
  projectB = tempDir('beta');
  writeFileSync(join(projectA, 'README.md'), '# Alpha\n');
  ({ page } = await openPage({
    viewport: { width: 1440, height: 900 },
    pageErrors,
    timeoutMs: TURN_MS,
    contextOptions: { permissions: ['clipboard-read', 'clipboard-write'] },
  }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('sidebar-last') }).catch(() => undefined);
  await stopAll();
});

async function shot(name) {
  await page.screenshot({ path: shotPath(name) });
}

const step = pathSteps(() => page, 'failed-sidebar-');

const entry = (text) => page.getByTestId('session-entry').filter({ hasText: text });
const group = (label) => page.getByTestId('session-group').filter({ has: page.locator('.group-label', { hasText: label }) });

/** The transcripts of one project folder under Claude's config (the key is the path with separators as dashes). */
function transcripts() {
  const out = [];
  try {
    for (const key of readdirSync(join(configDir, 'projects'))) {
      for (const f of readdirSync(join(configDir, 'projects', key))) if (f.endsWith('.jsonl')) out.push(join(key, f));
    }
  } catch {
    // no projects folder yet
  }
  return out;
}

step('the console loads; the one new-session dialog starts a session with a first prompt', async () => {
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('new-session').click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  // Path completion from the host: the parent folder's subfolders that start with what was typed.
  await page.getByTestId('new-session-folder').fill(join(projectA, '..', basename(projectA).slice(0, -2)));
  await page
    .getByTestId('folder-completions')
    .getByRole('option', { name: basename(projectA) })
    .click();
  assert.equal(await page.getByTestId('new-session-folder').inputValue(), `${projectA}/`);
  await page.getByTestId('new-session-prompt').fill('Show me code\n```go\nfunc main() {\n\tprintln("copied")\n}\n```\n\n- [x] tested\n- [ ] shipped');
  await shot('sidebar-01-new-session-dialog');
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
  await waitForTurnEnds(page, 1);
  await entry('Show me code').waitFor();
});

step('the folder completions move with ↑/↓ (wrapping), Enter takes the one chosen, Escape closes the list first', async () => {
  const parent = tempDir('folders');
  for (const name of ['app-one', 'app-three', 'app-two']) mkdirSync(join(parent, name));
  await page.getByTestId('new-session').click();
  const dialog = page.getByRole('dialog');
  const folder = page.getByTestId('new-session-folder');
  await folder.fill(join(parent, 'app-'));
  const options = page.getByTestId('folder-completions').getByRole('option');
  await options.nth(2).waitFor();
  assert.deepEqual(await options.allTextContents(), ['app-one', 'app-three', 'app-two']);
  const chosen = () => options.evaluateAll((els) => els.findIndex((el) => el.getAttribute('aria-selected') === 'true'));
  assert.equal(await chosen(), -1, 'nothing is chosen before an arrow');
  for (const [key, want] of [
    ['ArrowDown', 0],
    ['ArrowDown', 1],
    ['ArrowDown', 2],
    ['ArrowDown', 0],
    ['ArrowUp', 2],
    ['ArrowUp', 1],
  ]) {
    await folder.press(key);
    assert.equal(await chosen(), want, `${key} chooses completion ${want}`);
  }
  await folder.press('Enter');
  assert.equal(await folder.inputValue(), `${join(parent, 'app-three')}/`, 'Enter takes the chosen completion');
  assert.equal(await dialog.count(), 1, 'and starts no session');
  await folder.fill(join(parent, 'app-t'));
  await options.nth(1).waitFor();
  await folder.press('Escape');
  await page.getByTestId('folder-completions').waitFor({ state: 'detached' });
  assert.equal(await dialog.count(), 1, 'the first Escape closes only the list');
  await folder.press('Escape');
  await dialog.waitFor({ state: 'detached' });
});

step('a code block has its language and a Copy button that puts the code on the clipboard', async () => {
  const block = page.getByTestId('assistant-message').locator('.code-block').first();
  await block.waitFor();
  assert.equal(await block.locator('.code-lang').textContent(), 'go');
  await block.getByTestId('copy-code').click();
  await block.getByTestId('copy-code').filter({ hasText: 'Copied' }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, 'func main() {\n\tprintln("copied")\n}');
  // The tab is four columns wide.
  assert.equal(await block.locator('pre').evaluate((el) => getComputedStyle(el).tabSize), '4');
  // A task list shows its checkboxes, not bullets as well.
  const task = page
    .getByTestId('assistant-message')
    .locator('li', { has: page.locator('input[type="checkbox"]') })
    .first();
  assert.equal(await task.evaluate((el) => getComputedStyle(el).listStyleType), 'none');
});

step('a session created by `baton exec` appears in the open console within 2 s', async () => {
  const known = new Set(transcripts());
  const exec = spawn(bin, ['exec', '--cwd', projectB, 'Hello from the terminal'], { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  exec.stderr?.on('data', (d) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  onStop(() => {
    if (exec.pid !== undefined && exec.exitCode === null && exec.signalCode === null) process.kill(-exec.pid, 'SIGKILL');
  });
  const exited = new Promise((res) => exec.once('exit', (code) => res(code)));
  // The clock starts when the transcript appears on disk: from then on the console has 2 s.
  let written;
  const deadline = Date.now() + TURN_MS;
  while (written === undefined && Date.now() < deadline) {
    if (transcripts().some((t) => !known.has(t))) written = Date.now();
    else await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(written !== undefined, 'baton exec wrote no transcript');
  await entry('Hello from the terminal').waitFor({ timeout: OUTSIDE_SESSION_MS });
  const shownAfter = Date.now() - written;
  assert.ok(shownAfter <= OUTSIDE_SESSION_MS, `shown ${shownAfter} ms after the transcript was written`);
  assert.equal(await exited, 0, `baton exec failed:\n${stderr}`);
  console.log(`# a session from baton exec showed ${shownAfter} ms after its transcript appeared`);
});

step('sessions group by project and by date; groups collapse and show counts', async () => {
  await group(basename(projectA)).waitFor();
  await group(basename(projectB)).waitFor();
  assert.equal(await group(basename(projectB)).getByTestId('group-count').textContent(), '1');
  await group(basename(projectB)).getByTestId('group-head').click();
  assert.equal(await entry('Hello from the terminal').count(), 0, 'a collapsed group hides its sessions');
  await group(basename(projectB)).getByTestId('group-head').click();
  await entry('Hello from the terminal').waitFor();
  await page.getByTestId('group-by-date').click();
  assert.equal(await group('Today').getByTestId('group-count').textContent(), '2');
  await page.getByTestId('group-by-project').click();
  // No "HEAD" for folders that are not git repositories.
  assert.doesNotMatch(await page.getByTestId('session-list').textContent(), /HEAD/);
});

step('pin, archive and restore a session', async () => {
  const cli = page.locator('li.entry').filter({ hasText: 'Hello from the terminal' });
  await cli.getByTestId('entry-actions').click();
  await page.getByTestId('entry-pin').click();
  await group('Pinned').filter({ hasText: 'Hello from the terminal' }).waitFor();
  await cli.getByTestId('entry-actions').click();
  await page.getByTestId('entry-archive').click();
  await page.getByTestId('show-archived').filter({ hasText: 'Show archived (1)' }).waitFor();
  assert.equal(await entry('Hello from the terminal').count(), 0);
  await page.getByTestId('show-archived').click();
  await group('Archived').filter({ hasText: 'Hello from the terminal' }).waitFor();
  await shot('sidebar-02-archived');
  await page.locator('li.entry').filter({ hasText: 'Hello from the terminal' }).getByTestId('entry-actions').click();
  await page.getByTestId('entry-archive').click();
  await group('Pinned').filter({ hasText: 'Hello from the terminal' }).waitFor();
});

step('a rename and the open session survive a reload', async () => {
  const live = page.locator('li.entry').filter({ hasText: 'Show me code' });
  await live.getByTestId('entry-actions').click();
  await page.getByTestId('entry-rename').click();
  await page.getByTestId('entry-rename-input').fill('Alpha: Go sample');
  await page.getByTestId('entry-rename-input').press('Enter');
  await entry('Alpha: Go sample').waitFor();
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  const selected = page.locator('[data-testid="session-entry"][aria-current="true"]');
  await selected.filter({ hasText: 'Alpha: Go sample' }).waitFor();
  assert.equal(await selected.count(), 1, 'exactly one entry looks selected');
  await page.locator('.session-title h1', { hasText: 'Alpha: Go sample' }).waitFor();
});

step('a later /rename in Claude Code wins over a name given in Baton', async () => {
  // What the CLI's /rename appends to the transcript.
  const file = transcripts()
    .map((f) => join(configDir, 'projects', f))
    .find((f) => readFileSync(f, 'utf8').includes('Alpha: Go sample'));
  assert.ok(file !== undefined, "the rename is in the session's transcript");
  const sessionId = basename(file, '.jsonl');
  appendFileSync(file, `${JSON.stringify({ type: 'custom-title', customTitle: 'Renamed in the terminal', sessionId })}\n`);
  // The session is open here, so its writes are not news to the sidebar: the next listing (a reload) reads it.
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await entry('Renamed in the terminal').waitFor();
});

/** Ctrl+K, and whether the filter had the focus once the key was handled: a key typed right after must land there. */
function ctrlKFocusesFilter() {
  return page.evaluate(() => {
    if (document.activeElement?.id === 'session-filter') throw new Error('the filter has the focus already');
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', code: 'KeyK', ctrlKey: true, bubbles: true, cancelable: true }));
    return document.activeElement?.id === 'session-filter';
  });
}

step('Ctrl+K: ↑/↓ move among the sessions found (wrapping) and Enter opens the one chosen', async () => {
  await entry('Hello from the terminal').click();
  const current = page.locator('[data-testid="session-entry"][aria-current="true"]');
  await current.filter({ hasText: 'Hello from the terminal' }).waitFor();
  assert.ok(await ctrlKFocusesFilter(), 'Ctrl+K puts the focus in the filter at once');
  await page.keyboard.type('terminal');
  const found = page.getByTestId('session-list').getByTestId('session-entry');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-list"] [data-testid="session-entry"]').length === 2);
  const titles = await found.getByTestId('entry-title').allTextContents();
  assert.deepEqual(titles, ['Hello from the terminal', 'Renamed in the terminal'], 'the pinned one first');
  const active = () => found.evaluateAll((els) => els.findIndex((el) => el.getAttribute('data-active') === 'true'));
  assert.equal(await active(), 0, 'Enter would open the first found');
  for (const [key, want] of [
    ['ArrowDown', 1],
    ['ArrowDown', 0],
    ['ArrowUp', 1],
  ]) {
    await page.keyboard.press(key);
    assert.equal(await active(), want, `${key} moves to session ${want}`);
  }
  assert.equal(await page.getByLabel('Filter sessions').inputValue(), 'terminal', 'the arrows leave the filter as typed');
  await page.keyboard.press('Enter');
  await current.filter({ hasText: 'Renamed in the terminal' }).waitFor();
  assert.equal(await page.getByLabel('Filter sessions').inputValue(), '', 'opening one clears the filter');
});

step('screenshots at three sizes in light and dark, with a permission card waiting', async () => {
  await page.getByTestId('composer-input').fill('[write shot.txt screenshot]');
  await page.getByTestId('composer-input').press('Enter');
  await page.getByTestId('permission-card').waitFor();
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((c) => document.documentElement.dataset.theme === c, scheme);
    for (const [w, h] of [
      [900, 700],
      [1440, 900],
      [2560, 1440],
    ]) {
      await page.setViewportSize({ width: w, height: h });
      // Away from the list, so no entry is hovered in the picture.
      await page.mouse.move(w - 5, 5);
      await shot(`sidebar-${w}x${h}-${scheme}`);
      const composer = await page.locator('.composer').boundingBox();
      const row = await page.locator('.row').first().boundingBox();
      assert.ok(composer !== null && row !== null);
      // The composer is no wider than the conversation's rows.
      assert.ok(composer.width <= row.width + 1, `composer ${composer.width}px vs rows ${row.width}px at ${w}px`);
      const card = await page.locator('.permission-dock').boundingBox();
      const area = await page.locator('.composer-area').boundingBox();
      assert.ok(card !== null && area !== null);
      assert.ok(area.height <= h * 0.45, `composer and permission card take ${area.height}px of ${h}px`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('permission-card').getByRole('button', { name: 'Allow', exact: true }).click();
  await waitForTurnEnds(page, 2);
});

/** The project filter against what its chosen option needs (a copy of it sized to its content), and whether each
 * control of its row lies inside the sidebar. */
function projectFilter() {
  return page.evaluate(() => {
    const select = /** @type {HTMLSelectElement} */ (document.querySelector('select[aria-label="Filter by project"]'));
    const copy = /** @type {HTMLSelectElement} */ (select.cloneNode(false));
    copy.append(/** @type {HTMLOptionElement} */ (select.options[select.selectedIndex]).cloneNode(true));
    copy.style.cssText = 'position: absolute; visibility: hidden; width: auto; min-width: 0; max-width: none; flex: none';
    /** @type {HTMLElement} */ (select.parentElement).append(copy);
    const needs = copy.getBoundingClientRect().width;
    copy.remove();
    const bar = /** @type {HTMLElement} */ (document.querySelector('[data-testid="sidebar"]')).getBoundingClientRect();
    const outside = Array.from(/** @type {HTMLElement} */ (select.parentElement).children)
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.left < bar.left || r.right > bar.right);
    return { text: select.options[select.selectedIndex]?.text, width: select.getBoundingClientRect().width, needs, outside: outside.length };
  });
}

/** Each entry's marks against what shows of its title (its box cut by the ancestors that clip it): the overlaps. */
function marksOverTitles() {
  return page.evaluate(() => {
    const cut = (a, b) => ({
      left: Math.max(a.left, b.left),
      right: Math.min(a.right, b.right),
      top: Math.max(a.top, b.top),
      bottom: Math.min(a.bottom, b.bottom),
    });
    const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const overlaps = [];
    let marks = 0;
    for (const entry of Array.from(document.querySelectorAll('[data-testid="session-entry"]'))) {
      const title = /** @type {HTMLElement} */ (entry.querySelector('[data-testid="entry-title"]'));
      const r = title.getBoundingClientRect();
      let shown = { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      for (let el = title.parentElement; el !== null && el !== entry.parentElement; el = el.parentElement) {
        if (getComputedStyle(el).overflowX !== 'visible') shown = cut(shown, el.getBoundingClientRect());
      }
      for (const mark of Array.from(entry.querySelectorAll('.entry-marks > *'))) {
        marks++;
        if (meet(shown, mark.getBoundingClientRect())) overlaps.push(`${mark.textContent} over ${title.textContent}`);
      }
    }
    return { marks, overlaps };
  });
}

step('at 900 px, the sidebar as wide as it comes and at its narrowest: the project filter shows its text, no mark covers a title', async () => {
  await page.getByTestId('composer-input').fill('[write narrow.txt wait for an answer]');
  await page.getByTestId('composer-input').press('Enter');
  await page.getByTestId('permission-card').waitFor();
  await page.locator('[data-testid="session-entry"][aria-current="true"]').getByTestId('mark-permission').waitFor();
  const resizer = page.getByTestId('sidebar-resizer');
  for (const [width, keys] of [
    [280, 0],
    [200, 5],
  ]) {
    await resizer.dblclick();
    for (let i = 0; i < keys; i++) await resizer.press('ArrowLeft');
    assert.equal(await resizer.getAttribute('aria-valuenow'), String(width));
    await page.setViewportSize({ width: 900, height: 700 });
    await page.getByTestId('sidebar').waitFor({ state: 'detached' });
    if (width === 280) {
      // Ctrl+K opens the closed overlay with the filter focused at once: no key typed right after it is lost.
      assert.ok(await ctrlKFocusesFilter(), 'Ctrl+K opens the overlay with the focus in its filter at once');
      await page.keyboard.type('renamed');
      assert.equal(await page.getByLabel('Filter sessions').inputValue(), 'renamed');
      await page.keyboard.press('Escape');
      assert.equal(await page.getByLabel('Filter sessions').inputValue(), '');
    } else {
      await page.getByTestId('sidebar-show').click();
    }
    const bar = await page.getByTestId('sidebar').boundingBox();
    assert.equal(Math.round(bar?.width ?? 0), width, 'the overlay keeps the width chosen');
    await page.mouse.move(899, 5);
    await shot(`sidebar-narrow-${width}`);
    const filter = await projectFilter();
    assert.equal(filter.text, 'All projects');
    assert.ok(filter.width >= filter.needs - 0.5, `at ${width} px the project filter is ${filter.width} px, its text needs ${filter.needs} px`);
    assert.equal(filter.outside, 0, `at ${width} px a control of the filter row sticks out of the sidebar`);
    const marks = await marksOverTitles();
    assert.ok(marks.marks > 0, 'an entry shows a mark');
    assert.deepEqual(marks.overlaps, [], `at ${width} px`);
    await page.getByTestId('sidebar-hide').click();
    await page.getByTestId('sidebar').waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1440, height: 900 });
  }
  await resizer.dblclick();
  await page.getByTestId('permission-card').getByRole('button', { name: 'Allow', exact: true }).click();
  await waitForTurnEnds(page, 3);
});

test('the page threw no errors', () => {
  assert.deepEqual(pageErrors, []);
});
