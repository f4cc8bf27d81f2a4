// End to end in headless Chromium against `baton serve` (real runtime, sidecar and claude CLI, scripted Messages
// API): the composer. The slash menu moves with the arrows and picks with Enter or Tab, one line per command with
// its argument hint; ↑/↓ recall the session's earlier prompts only from the first/last line; an unsent draft
// survives switching sessions and a reload; images pasted (PNG, JPEG, GIF, WebP), dropped or picked with Attach go as
// image blocks and show in the prompt, other files pasted, dropped or picked become @-mentions; /usage and
// /context keep their layout live and after a reload. Screenshots go to test-artifacts/ (e2e-composer-*.png).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { openPage, pathSteps, sendPrompt, shotPath, startServedBaton, stopAll, stopOnSignals, tempDir, waitForTurnEnds } from './harness.mjs';

let page;
let url;
let project;
const pageErrors = [];

stopOnSignals();

before(async () => {
  ({ url } = await startServedBaton('composer'));
  project = tempDir('composer-project');
  makeRepo(project);
  ({ page } = await openPage({ viewport: { width: 1280, height: 900 }, pageErrors }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('composer-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => page, 'composer-failed-');
const input = () => page.getByTestId('composer-input');
const value = () => input().inputValue();
const selectedSession = () => page.locator('[data-testid="session-entry"][aria-current="true"]').getAttribute('data-session');

/** Screenshots at 900×700 and 1440×900, light and dark (the page goes back to its own size and scheme after). */
async function shots(name) {
  for (const [w, h] of [
    [900, 700],
    [1440, 900],
  ]) {
    await page.setViewportSize({ width: w, height: h });
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await page.waitForFunction((c) => document.documentElement.dataset.theme === c, colorScheme);
      await page.screenshot({ path: shotPath(`composer-${name}-${w}x${h}-${colorScheme}`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function newSession(folder) {
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(folder);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
}

let first = '';

/** A git repository with a few files, one folder of them ignored. */
function makeRepo(root) {
  const files = {
    'src/components/Button.tsx': 'x',
    'src/components/Badge.tsx': 'x',
    'src/main.ts': 'x',
    'docs/guide.md': 'x',
    'dist/bundle.js': 'x',
    '.gitignore': 'dist/\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const git = spawnSync('git', ['init', '-q'], { cwd: root, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
  assert.equal(git.status, 0, String(git.stderr));
}

step('a new session opens', async () => {
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await newSession(project);
  first = (await selectedSession()) ?? '';
});

step('the slash menu: arrows move, Enter and Tab pick, one line each with the argument hint', async () => {
  await input().fill('/');
  const options = page.getByTestId('command-hints').getByRole('option');
  await options.nth(1).waitFor();
  const names = await page.getByTestId('command-hints').locator('code').allTextContents();
  assert.equal(await options.nth(0).getAttribute('aria-selected'), 'true');
  await input().press('ArrowDown');
  assert.equal(await options.nth(1).getAttribute('aria-selected'), 'true', 'ArrowDown moves the selection');
  assert.equal(await options.nth(0).getAttribute('aria-selected'), 'false');
  await input().press('ArrowDown');
  await input().press('ArrowUp');
  await input().press('Enter');
  assert.equal(await value(), `${names[1]} `, 'Enter picks the selected command');
  await input().fill('/');
  await options.nth(2).waitFor();
  await input().press('ArrowDown');
  await input().press('ArrowDown');
  await input().press('Tab');
  assert.equal(await value(), `${names[2]} `, 'Tab picks the selected command');
  await input().fill('/');
  await options.nth(1).waitFor();
  const descriptions = await page.getByTestId('command-desc').allTextContents();
  assert.ok(descriptions.length > 0, 'commands show descriptions');
  for (const d of descriptions) assert.ok(!d.includes('\n') && d.length <= 125, `a description is one short line: ${JSON.stringify(d)}`);
  assert.ok((await page.getByTestId('command-arg').count()) > 0, 'argument hints are shown');
  await shots('01-slash-menu');
  await input().press('Escape');
  assert.equal(await page.getByTestId('command-hints').count(), 0, 'Escape closes the menu');
  await input().fill('');
});

step('@ opens a picker over the folder’s files and folders; arrows and Enter insert the path', async () => {
  await input().fill('look at @');
  const options = page.getByTestId('mention-option');
  await options.first().waitFor();
  const shallow = await options.allTextContents();
  assert.ok(
    shallow.some((t) => t.includes('src/')),
    `folders are offered: ${shallow}`,
  );
  assert.ok(!shallow.some((t) => t.includes('dist')), `ignored files are not: ${shallow}`);
  await input().pressSequentially('butt');
  await page.getByTestId('mention-option').first().filter({ hasText: 'src/components/Button.tsx' }).waitFor();
  await input().press('Enter');
  assert.equal(await value(), 'look at @src/components/Button.tsx ', 'Enter inserts the path');
  await input().pressSequentially('and @comp');
  await options.first().filter({ hasText: 'src/components/' }).waitFor();
  await shots('02-mentions');
  const listed = await options.allTextContents();
  const badge = listed.findIndex((t) => t.includes('Badge.tsx'));
  assert.ok(badge > 0, `Badge.tsx is offered below the first match: ${listed}`);
  for (let i = 0; i < badge; i++) await input().press('ArrowDown');
  assert.equal(await options.nth(badge).locator('xpath=..').getAttribute('aria-selected'), 'true');
  await input().press('Tab');
  assert.equal(await value(), 'look at @src/components/Button.tsx and @src/components/Badge.tsx ', 'Tab inserts the selected path');
  await input().pressSequentially('@bundle');
  await page.getByTestId('mention-note').waitFor();
  assert.equal(await page.getByTestId('mention-option').count(), 0, 'an ignored file is never offered');
  await input().press('Escape');
  await input().fill('');
});

/** Hands files to the composer as a clipboard would (a paste event carrying a DataTransfer), or with via 'drop' as a
 * drag would (dragover, then drop on the composer). An image is drawn on a canvas and encoded as spec.canvas.type
 * (PNG unless said), or is spec.bytes as they are. */
function handFiles(specs, via = 'paste') {
  return page.evaluate(
    async ({ specs, via }) => {
      const dt = new DataTransfer();
      for (const spec of specs) {
        let blob;
        if (spec.canvas !== undefined) {
          const canvas = document.createElement('canvas');
          canvas.width = spec.canvas.width;
          canvas.height = spec.canvas.height;
          const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
          g.fillStyle = '#3a6';
          g.fillRect(0, 0, canvas.width, canvas.height);
          g.fillStyle = '#fff';
          g.fillRect(canvas.width / 4, canvas.height / 4, canvas.width / 2, canvas.height / 2);
          const as = spec.canvas.type ?? 'image/png';
          blob = await new Promise((res) => canvas.toBlob(res, as));
          // A browser that cannot encode the type writes PNG instead: that would test something else.
          if (blob?.type !== as) throw new Error(`this browser encoded ${as} as ${blob?.type}`);
        } else if (spec.bytes !== undefined) {
          blob = new Blob([new Uint8Array(spec.bytes)], { type: spec.type });
        } else {
          blob = new Blob([spec.text], { type: spec.type });
        }
        dt.items.add(new File([blob], spec.name, { type: spec.type }));
      }
      if (via === 'drop') {
        const area = /** @type {HTMLElement} */ (document.querySelector('.composer-area'));
        area.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
        area.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        return;
      }
      const target = /** @type {HTMLTextAreaElement} */ (document.querySelector('[data-testid="composer-input"]'));
      target.focus();
      target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    { specs, via },
  );
}

const pasteFiles = (specs) => handFiles(specs, 'paste');

step('a pasted image is scaled to the API’s limits, sent as an image block and shown in the prompt, also after a reload', async () => {
  await pasteFiles([{ name: 'screenshot.png', type: 'image/png', canvas: { width: 3000, height: 2000 } }]);
  const attached = page.getByTestId('attachment');
  await attached.waitFor();
  const [, w, h] = /(\d+)×(\d+) px/.exec((await attached.getAttribute('title')) ?? '') ?? [];
  assert.ok(Number(w) <= 1568 && Number(h) <= 1568 && Number(w) * Number(h) <= 1_150_000, `scaled to ${w}×${h}`);
  assert.ok(Number(w) > 1000, `kept as large as the limits allow: ${w}×${h}`);
  await shots('03-attached');
  await sendPrompt(page, 'what is this [images]');
  // What the scripted API saw: one image block in the prompt (Claude Code adds a text naming where it kept it).
  await page.waitForFunction(() => /You said: what is this \[images\][\s\S]* Images: image\/png \(\d+ base64 bytes\)/.test(document.body.textContent ?? ''));
  assert.equal(await attached.count(), 0, 'sent attachments leave the composer');
  const bubble = page.getByTestId('user-message').filter({ hasText: 'what is this' });
  await bubble.getByTestId('thumbnails').locator('img').waitFor();
  await page.screenshot({ path: shotPath('composer-04-sent-image') });
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('user-message').filter({ hasText: 'what is this' }).getByTestId('thumbnails').locator('img').waitFor();
});

step('what cannot be sent says why; a dropped file becomes an @-mention of its path', async () => {
  await pasteFiles([
    { name: 'drawing.bmp', type: 'image/bmp', text: 'BM' },
    { name: 'broken.png', type: 'image/png', text: 'not a png' },
  ]);
  const error = page.getByTestId('attachment-error');
  await error.filter({ hasText: 'drawing.bmp is image/bmp; Claude reads PNG, JPEG, GIF and WebP images.' }).waitFor();
  await error.filter({ hasText: 'broken.png could not be read as an image.' }).waitFor();
  assert.equal(await page.getByTestId('attachment').count(), 0);
  await input().fill('see');
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['# guide'], 'guide.md', { type: 'text/markdown' }));
    const area = /** @type {HTMLElement} */ (document.querySelector('.composer-area'));
    area.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    area.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.querySelector('[data-testid="composer-input"]')).value.includes('@'));
  assert.equal(await value(), 'see @docs/guide.md ');
  await input().fill('');
});

step('↑/↓ recall this session’s earlier prompts, only from the first or last line', async () => {
  const ended = await page.locator('[data-testid="turn-completed"], [data-testid="turn-canceled"], [data-testid="error-row"]').count();
  await sendPrompt(page, 'first prompt');
  await waitForTurnEnds(page, ended + 1);
  await sendPrompt(page, 'second prompt');
  await waitForTurnEnds(page, ended + 2);
  await input().fill('my draft');
  await input().press('ArrowUp');
  assert.equal(await value(), 'second prompt');
  await input().press('ArrowUp');
  assert.equal(await value(), 'first prompt');
  await input().press('ArrowUp');
  assert.equal(await value(), 'what is this [images]', 'the image prompt of the earlier step');
  await input().press('ArrowUp');
  assert.equal(await value(), 'what is this [images]', 'nothing older: it stays');
  await input().press('ArrowDown');
  assert.equal(await value(), 'first prompt');
  await input().press('ArrowDown');
  assert.equal(await value(), 'second prompt');
  await input().press('ArrowDown');
  assert.equal(await value(), 'my draft', 'the draft comes back at the bottom');
  await input().fill('line one\nline two');
  await input().press('ArrowUp'); // the caret is on the last line: it moves up a line, no recall
  assert.equal(await value(), 'line one\nline two');
  await input().press('ArrowUp'); // now on the first line: recall
  assert.equal(await value(), 'second prompt');
  await input().fill('');
});

step('an unsent draft, its attached image too, survives switching sessions and a reload', async () => {
  await input().fill('unsent words\nsecond line');
  await pasteFiles([{ name: 'draft.png', type: 'image/png', canvas: { width: 40, height: 30 } }]);
  const attached = page.getByTestId('attachment');
  await attached.waitFor();
  await newSession(tempDir('composer-other'));
  await page.locator(`[data-testid="session-entry"][aria-current="true"]:not([data-session="${first}"])`).waitFor();
  assert.equal(await value(), '', 'the other session has its own (empty) composer');
  assert.equal(await attached.count(), 0, 'and no image of the first one');
  await input().fill('other draft');
  await page.locator(`[data-testid="session-entry"][data-session="${first}"]`).click();
  await page.locator(`[data-testid="session-entry"][data-session="${first}"][aria-current="true"]`).waitFor();
  assert.equal(await value(), 'unsent words\nsecond line');
  await attached.waitFor();
  assert.match((await attached.getAttribute('title')) ?? '', /draft\.png, 40×30 px/);
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.locator(`[data-testid="session-entry"][data-session="${first}"][aria-current="true"]`).waitFor();
  await input().waitFor();
  assert.equal(await value(), 'unsent words\nsecond line');
  await attached.waitFor();
  assert.match((await attached.getAttribute('title')) ?? '', /40×30 px/);
  await page.screenshot({ path: shotPath('composer-draft-image') });
  await page.getByTestId('attachment-remove').click();
  await input().fill('');
  assert.equal(await attached.count(), 0);
});

/**
 * A 1×1 GIF89a written out byte by byte (a canvas cannot encode GIF): header, logical screen of 1×1 with a global
 * table of two colours, that table (black, white), one image of 1×1, and its LZW data: minimum code size 2, then
 * the codes clear (4), colour 0 and end (5) in 3 bits each, packed low bit first into 0x44 0x01.
 */
const GIF = [
  ...Buffer.from('GIF89a', 'latin1'),
  ...[0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00],
  ...[0x00, 0x00, 0x00, 0xff, 0xff, 0xff],
  ...[0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00],
  ...[0x02, 0x02, 0x44, 0x01, 0x00],
  0x3b,
];

/** The bytes of a w×h image drawn and encoded in the page, as a picked file would hold them. */
async function canvasBytes(type, w, h) {
  const url = await page.evaluate(
    ({ type, w, h }) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
      g.fillStyle = '#36a';
      g.fillRect(0, 0, w, h);
      return canvas.toDataURL(type);
    },
    { type, w, h },
  );
  assert.ok(url.startsWith(`data:${type};base64,`), `the page encoded ${type}: ${url.slice(0, 30)}`);
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
}

/** Waits until the reply to the prompt holding words lists the images the scripted API saw, and returns that list. */
async function imagesSeen(words) {
  const handle = await page.waitForFunction((w) => {
    for (const el of Array.from(document.querySelectorAll('[data-testid="assistant-message"][aria-busy="false"] .markdown'))) {
      const text = (el.textContent ?? '').trim();
      if (text.includes(`You said: ${w}`) && text.includes(' Images: ')) return text.slice(text.lastIndexOf(' Images: ') + ' Images: '.length);
    }
    return false;
  }, words);
  return /** @type {string} */ (await handle.jsonValue());
}

/** Waits until the prompt bubble holding words shows n thumbnails, every one decoded (not a broken image). */
async function thumbnailsShown(words, n) {
  await page.waitForFunction(
    ({ w, n }) => {
      const bubble = Array.from(document.querySelectorAll('[data-testid="user-message"]')).find((el) => (el.textContent ?? '').includes(w));
      const imgs = bubble === undefined ? [] : Array.from(bubble.querySelectorAll('[data-testid="thumbnails"] img'));
      return imgs.length === n && imgs.every((img) => /** @type {HTMLImageElement} */ (img).complete && /** @type {HTMLImageElement} */ (img).naturalWidth > 0);
    },
    { w: words, n },
  );
}

step('Attach picks an image, sent as an image block, and a file, mentioned by its path', async () => {
  await input().fill('picked [images]');
  await page.getByTestId('attach-input').setInputFiles([
    { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await canvasBytes('image/jpeg', 120, 80) },
    { name: 'Button.tsx', mimeType: 'text/plain', buffer: Buffer.from('x') },
  ]);
  const attached = page.getByTestId('attachment');
  await attached.waitFor();
  assert.match((await attached.getAttribute('title')) ?? '', /^photo\.jpg, 120×80 px$/);
  await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.querySelector('[data-testid="composer-input"]')).value.includes('@'));
  assert.equal(await value(), 'picked [images] @src/components/Button.tsx ');
  await input().press('Enter');
  assert.match(await imagesSeen('picked [images]'), /^image\/jpeg \(\d+ base64 bytes\)$/);
  await thumbnailsShown('picked [images]', 1);
});

step('pasted JPEG, GIF and WebP images each reach Claude as an image block of their type, shown as thumbnails', async () => {
  await pasteFiles([
    { name: 'photo.jpg', type: 'image/jpeg', canvas: { width: 64, height: 48, type: 'image/jpeg' } },
    { name: 'dot.gif', type: 'image/gif', bytes: GIF },
    { name: 'art.webp', type: 'image/webp', canvas: { width: 50, height: 40, type: 'image/webp' } },
  ]);
  const attached = page.getByTestId('attachment');
  await attached.nth(2).waitFor();
  assert.deepEqual(await attached.evaluateAll((els) => els.map((el) => el.getAttribute('title'))), [
    'photo.jpg, 64×48 px',
    'dot.gif, 1×1 px',
    'art.webp, 50×40 px',
  ]);
  assert.equal(await page.getByTestId('attachment-error').count(), 0);
  await sendPrompt(page, 'three kinds [images]');
  // The GIF goes as it is (within the limits, so never re-encoded): its own bytes, in base64.
  const gif = Math.ceil(GIF.length / 3) * 4;
  const seen = await imagesSeen('three kinds [images]');
  assert.match(seen, new RegExp(`^image/jpeg \\(\\d+ base64 bytes\\), image/gif \\(${gif} base64 bytes\\), image/webp \\(\\d+ base64 bytes\\)$`));
  await thumbnailsShown('three kinds [images]', 3);
  assert.equal(await attached.count(), 0);
});

step('a dropped image is sent as an image block', async () => {
  await input().fill('dropped [images]');
  await handFiles([{ name: 'dropped.png', type: 'image/png', canvas: { width: 30, height: 20 } }], 'drop');
  await page
    .getByTestId('attachment')
    .filter({ has: page.locator('img[alt="dropped.png, attached"]') })
    .waitFor();
  assert.equal(await value(), 'dropped [images]', 'an image is attached, not mentioned');
  await input().press('Enter');
  assert.match(await imagesSeen('dropped [images]'), /^image\/png \(\d+ base64 bytes\)$/);
  await thumbnailsShown('dropped [images]', 1);
});

step('a pasted file that is not an image becomes an @-mention of its path', async () => {
  await input().fill('read');
  await pasteFiles([
    { name: 'main.ts', type: 'video/mp2t', text: 'x' },
    { name: 'guide.md', type: 'text/markdown', text: '# guide' },
  ]);
  await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.querySelector('[data-testid="composer-input"]')).value.includes('@'));
  assert.equal(await value(), 'read @src/main.ts @docs/guide.md ');
  assert.equal(await page.getByTestId('attachment').count(), 0, 'nothing is attached as an image');
  await input().fill('');
});

step('/usage and /context keep their layout live and after a reload', async () => {
  const usage = () => page.locator('pre.command-output').filter({ hasText: 'Total duration (API):' });
  const context = () => page.locator('.command-markdown table').first();
  const check = async (when) => {
    await usage().first().waitFor();
    const text = (await usage().first().textContent()) ?? '';
    assert.match(text, /Estimated cost:\s+\$[\d.]+\nTotal duration \(API\):/, `${when}: /usage keeps its lines: ${JSON.stringify(text)}`);
    await context().waitFor();
    assert.ok((await page.locator('.command-markdown').first().locator('tr').count()) > 3, `${when}: /context's table is a table`);
  };
  await sendPrompt(page, '/usage');
  await usage().first().waitFor();
  await sendPrompt(page, '/context');
  await check('live');
  await page.screenshot({ path: shotPath('composer-05-commands-live') });
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await check('after a reload');
  assert.deepEqual(pageErrors, []);
});
