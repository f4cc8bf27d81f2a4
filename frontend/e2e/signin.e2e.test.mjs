// End to end in headless Chromium against `baton serve`: "Sign in…" runs claude's own `claude auth login` in a
// terminal inside Baton, in Baton's config dir, and the sign-in watcher shows the new state. The claude here is a
// stand-in (Anthropic's OAuth server cannot be reached from this machine, so the real login cannot finish): it
// prints a URL and reads a code as the real one does, and where the real one saves credentials it writes a dummy
// file into CLAUDE_CONFIG_DIR, which its `auth status` then reports as signed in. Baton only carries the keys.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { batonBinary, openPage, pathSteps, shotPath, startBaton, stopAll, stopOnSignals, tempDir, waitForTerminalLine } from './harness.mjs';

let page;
let url;
let home;
const pageErrors = [];

stopOnSignals();

const STAND_IN = `#!/bin/sh
# A stand-in for claude's auth commands (see signin.e2e.test.mjs).
creds="$CLAUDE_CONFIG_DIR/.credentials.json"
case "$1 $2" in
"auth status")
  if [ -f "$creds" ]; then
    printf '{"loggedIn":true,"authMethod":"claude.ai","apiProvider":"firstParty","email":"e2e@example.com","subscriptionType":"pro"}\\n'
  else
    printf '{"loggedIn":false,"authMethod":"none","apiProvider":"firstParty"}\\n'
    exit 1
  fi ;;
"auth login")
  printf 'Browse to https://claude.ai/oauth/authorize?state=E2E to sign in.\\n'
  printf 'Paste code here if prompted > '
  read code
  printf '{"standIn":true,"codeLength":%s}\\n' "\${#code}" > "$creds"
  printf 'Login successful.\\n' ;;
*) printf '2.1.0 (Claude Code)\\n' ;;
esac
`;

before(async () => {
  const bin = batonBinary();
  const tools = tempDir('signin-tools');
  const claude = join(tools, 'claude');
  writeFileSync(claude, STAND_IN, { mode: 0o755 });
  ({ url, home } = await startBaton({ apiUrl: 'http://127.0.0.1:9', bin, extraEnv: { CLAUDE_CODE_EXECUTABLE: claude, ANTHROPIC_API_KEY: '' } }));
  ({ page } = await openPage({ viewport: { width: 1280, height: 1000 }, pageErrors }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('signin-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => page, 'signin-failed-');

const waitForScreen = (text) => waitForTerminalLine(page, text);

step('Sign in runs claude auth login in a Baton terminal and the console sees the new state', async () => {
  assert.equal((await page.goto(url))?.status(), 200);
  const auth = page.getByTestId('auth-status');
  await auth.getByRole('button', { name: 'Sign in…' }).click();
  await page.getByRole('dialog', { name: 'Sign in to Claude Code' }).waitFor();
  await waitForScreen('https://claude.ai/oauth/authorize?state=E2E');
  await waitForScreen('Paste code here if prompted >');
  await page.getByTestId('terminal-screen').click();
  await page.keyboard.type('code-1234\n');
  await waitForScreen('Login successful.');
  // The sign-in watcher saw the file claude wrote and asked claude again: the console shows the new state.
  await page.locator('[data-testid="auth-status"].signed_in').waitFor();
  const creds = join(home, '.claude', '.credentials.json');
  assert.ok(existsSync(creds), 'the login ran in Baton’s config dir');
  assert.equal(readFileSync(creds, 'utf8'), '{"standIn":true,"codeLength":9}\n');
  assert.deepEqual(pageErrors, []);
});
