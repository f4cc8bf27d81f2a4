// End to end in headless Chromium: `baton serve`'s token stays with its own console. Browsers send a host's
// cookies to every port of it (RFC 6265 §8.5), so a token kept in a cookie would reach any other server on
// 127.0.0.1 and two serve instances would overwrite each other's. Here one browser context opens the console,
// then a page of a second loopback server (which records every request it gets: it must see no token in any
// header, cookie, URL or referer), then a second `baton serve`; both consoles stay connected across a reload.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { batonBinary, onStop, pathSteps, startBaton, startBrowser, startFakeApi, stopAll, stopOnSignals, tempDir } from './harness.mjs';

let context;
let first;
let second;
let urls;
let other;
/** Every request the other loopback server received: method, URL and all headers. */
const seen = [];

stopOnSignals();

/** Another program's web server on the same host: a page that loads an image and a script from itself. */
async function startOther() {
  const server = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, headers: { ...req.headers } });
    if (req.url === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>other</title><img src="/pixel.png"><script src="/app.js"></script><p id="ready">other</p>');
      return;
    }
    res.writeHead(200, { 'Content-Type': req.url.endsWith('.js') ? 'text/javascript' : 'image/png' });
    res.end();
  });
  server.on('connection', (socket) => socket.on('error', () => undefined));
  await new Promise((res) => server.listen(0, '127.0.0.1', () => res(undefined)));
  onStop(() => new Promise((res) => server.close(() => res(undefined))));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return `http://127.0.0.1:${port}`;
}

const tokenOf = (u) => new URL(u).hash.replace(/^#token=/, '');

async function connected(page) {
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
}

before(async () => {
  const bin = batonBinary();
  const apiUrl = await startFakeApi(join(tempDir('tools'), 'baton-fakeapi'));
  other = await startOther();
  const a = await startBaton({ apiUrl, bin });
  const b = await startBaton({ apiUrl, bin });
  urls = [a.url, b.url];
  const browser = await startBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  first = await context.newPage();
});

after(async () => {
  await stopAll();
});

const step = pathSteps(() => first, 'token-failed-');

step('the console connects with the token from its fragment', async () => {
  await first.goto(urls[0]);
  await connected(first);
  assert.equal(new URL(first.url()).hash, '', 'the token left the address bar');
  assert.deepEqual(await context.cookies(), [], 'the console set no cookie');
});

step('another loopback server gets no token from the same browser', async () => {
  // Typed into the address bar, in a new tab of the same context.
  const visit = await context.newPage();
  await visit.goto(other);
  await visit.locator('#ready').waitFor();
  await visit.close();
  // Navigated to from the console itself, so a referer would name the console if one were sent.
  await first.evaluate((to) => {
    window.location.href = `${to}/`;
  }, other);
  await first.waitForURL(`${other}/`);
  await first.locator('#ready').waitFor();
  assert.ok(seen.length >= 4, `the other server saw ${seen.length} requests`);
  const token = tokenOf(urls[0]);
  for (const hit of seen) {
    const text = JSON.stringify(hit);
    assert.ok(!text.includes(token), `the token reached the other server: ${text}`);
    assert.equal(hit.headers.cookie, undefined, `a cookie reached the other server: ${text}`);
    assert.ok(!/token/i.test(text), `something token-like reached the other server: ${text}`);
  }
  await first.goBack();
  await connected(first);
});

step('two serve instances in one browser both stay connected', async () => {
  second = await context.newPage();
  await second.goto(urls[1]);
  await connected(second);
  // The first tab's token survives a reload in its sessionStorage; the second instance changed nothing of it.
  await first.reload();
  await connected(first);
  await second.reload();
  await connected(second);
  assert.deepEqual(await context.cookies(), [], 'neither console set a cookie');
  const kept = await Promise.all([first, second].map((p) => p.evaluate(() => sessionStorage.getItem('baton.token'))));
  assert.deepEqual(kept, urls.map(tokenOf), 'each origin keeps its own token');
});
