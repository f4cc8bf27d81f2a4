// End to end in headless Chromium against two `baton serve` instances (real runtime, sidecar and claude CLI,
// scripted Messages API) and a plain loopback server standing for any other program on this machine. Browsers
// share a host's cookies across its ports (RFC 6265 §8.5), so the token must never be a cookie: the other
// server, visited in the same browser after the console, must receive no token in anything it is sent; two
// consoles in one browser both stay signed in; a tab without the token is told what to open; a stale
// `baton_token` cookie from an older Baton is dropped. Screenshots go to test-artifacts/ (e2e-token-*.png).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { batonBinary, onStop, pathSteps, shotPath, startBaton, startBrowser, startFakeApi, stopAll, stopOnSignals, tempDir } from './harness.mjs';

const WAIT_MS = 30_000;

let context;
let pageA;
let pageB;
let urlA;
let urlB;
let other;
/** Every request the other server received: method, URL and all its headers. */
const received = [];
const pageErrors = [];

stopOnSignals();

/** A loopback server on another port: it records every request, and its page asks it for more. */
async function startOtherServer() {
  const server = createServer((req, res) => {
    received.push({ method: req.method, url: req.url, headers: req.headers });
    if (req.url === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(
        '<!doctype html><title>other</title><img src="/img.png">' +
          '<script>fetch("/fetch", { credentials: "include" }).finally(() => { document.title = "done"; });</script>',
      );
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('ok');
  });
  server.on('connection', (socket) => socket.on('error', () => undefined));
  await new Promise((res) => server.listen(0, '127.0.0.1', () => res(undefined)));
  onStop(() => new Promise((res) => server.close(() => res(undefined))));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return `http://127.0.0.1:${port}`;
}

const tokenOf = (url) => new URL(url).hash.replace('#token=', '');
const origin = (url) => new URL(url).origin;

async function newPage() {
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.setDefaultTimeout(WAIT_MS);
  return page;
}

const connected = (page) => page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();

before(async () => {
  const bin = batonBinary();
  const tools = tempDir('token-tools');
  other = await startOtherServer();
  const apiUrl = await startFakeApi(join(tools, 'baton-fakeapi'));
  ({ url: urlA } = await startBaton({ apiUrl, bin }));
  ({ url: urlB } = await startBaton({ apiUrl, bin }));
  const browser = await startBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  pageA = await newPage();
  pageB = await newPage();
});

after(async () => {
  if (pageA !== undefined) await pageA.screenshot({ path: shotPath('token-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => pageA, 'token-failed-');

step('the console opens, takes the token out of the address and keeps it in this tab only', async () => {
  assert.equal((await pageA.goto(urlA))?.status(), 200);
  await connected(pageA);
  assert.equal(new URL(pageA.url()).hash, '', 'the token left the address bar');
  assert.equal(await pageA.evaluate(() => sessionStorage.getItem('baton.token')), tokenOf(urlA));
  assert.deepEqual(await context.cookies(), [], 'no cookie is set');
});

step('a server on another loopback port, visited in the same browser, receives no token', async () => {
  const page = await newPage();
  await page.goto(`${other}/`);
  await page.waitForFunction(() => document.title === 'done');
  await page.close();
  assert.ok(received.length >= 3, `the other server saw its page, image and fetch: ${JSON.stringify(received)}`);
  for (const req of received) {
    const seen = JSON.stringify(req);
    assert.ok(!seen.includes(tokenOf(urlA)), `the token reached another port: ${seen}`);
    assert.ok(!seen.includes('baton_token'), `a Baton cookie reached another port: ${seen}`);
    assert.equal(req.headers.cookie, undefined, `a cookie reached another port: ${seen}`);
  }
});

step('two baton serve instances in one browser both stay signed in', async () => {
  assert.equal((await pageB.goto(urlB))?.status(), 200);
  await connected(pageB);
  // A reload reconnects with what the tab kept; the other instance's sign-in must not have replaced it.
  await pageA.reload();
  await connected(pageA);
  await pageB.reload();
  await connected(pageB);
  await pageA.getByTestId('welcome').getByRole('button', { name: 'Start a new session' }).waitFor();
  await pageB.getByTestId('welcome').getByRole('button', { name: 'Start a new session' }).waitFor();
  await pageA.screenshot({ path: shotPath('token-two-consoles') });
});

step('a tab opened without the token is told what to open', async () => {
  const page = await newPage();
  await page.goto(`${origin(urlA)}/`);
  await page.getByTestId('access-refused').waitFor();
  await page.getByTestId('connection').filter({ hasText: 'no access' }).waitFor();
  await page.screenshot({ path: shotPath('token-refused') });
  await page.close();
});

step('a stale baton_token cookie from an older Baton is dropped and opens nothing', async () => {
  await context.addCookies([{ name: 'baton_token', value: tokenOf(urlA), url: origin(urlA) }]);
  const page = await newPage();
  await page.goto(`${origin(urlA)}/`);
  await page.getByTestId('access-refused').waitFor();
  assert.deepEqual(
    (await context.cookies()).map((c) => c.name),
    [],
    'the server told the browser to expire it',
  );
  await page.close();
  assert.deepEqual(pageErrors, [], 'page errors');
});
