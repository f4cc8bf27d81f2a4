// Screenshots of the newest cards at 900×700 and 1440×900, light and dark, to look at (issue 28, item 10): a
// background Bash card with its live tail, the plan meter, the Changes panel, the terminal panel and a /compact's
// summary. Through `baton serve` with the real runtime, sidecar and claude CLI against the scripted API, as the
// e2e files. Not a test (it asserts only that each view showed): `node e2e/screenshots.mjs [out dir]`, after
// scripts/build; the images go to build/screenshots/ unless told.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  REPO,
  demoProject,
  openPage,
  ownGitConfig,
  runGit,
  sendPrompt,
  startServedBaton,
  stopAll,
  stopOnSignals,
  tempDir,
  waitForTurnEnds,
} from './harness.mjs';

const out = process.argv[2] ?? join(REPO, 'build', 'screenshots');
const SIZES = [
  [900, 700],
  [1440, 900],
];

/** An unsigned gateway token (as planlimits.e2e): the CLI reads a plan's rate-limit headers only for such a sign-in. */
function gatewayToken() {
  const enc = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ aud: 'claude-gateway', exp: 4102444800 })}.`;
}

stopOnSignals();
try {
  mkdirSync(out, { recursive: true });
  const cfg = ownGitConfig('shots');
  const served = await startServedBaton('shots', { ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: gatewayToken(), GIT_CONFIG_GLOBAL: cfg });
  const project = demoProject('shots-repo');
  for (const args of [
    ['init', '--quiet'],
    ['add', '-A'],
    ['commit', '--quiet', '-m', 'first'],
  ]) {
    runGit(served.env, project, ...args);
  }
  const gate = join(tempDir('shots-gate'), 'go');
  const pageErrors = [];
  const { page } = await openPage({ viewport: { width: 1440, height: 900 }, pageErrors });
  await page.goto(served.url);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-mode').selectOption('acceptEdits');
  await page.getByTestId('new-session-worktree').check();
  await page.getByTestId('new-session-prompt').fill('[plan-warning] [write notes.txt remember the milk]');
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
  await waitForTurnEnds(page, 1);
  await page.getByTestId('plan-meter').waitFor();
  // The worktree's toast stays until dismissed; over the composer it would hide the plan meter in every shot.
  await page.getByTestId('toast').getByRole('button', { name: 'Dismiss' }).click();

  const command = `for i in $(seq 1 60); do echo building step $i of 60; done; while [ ! -f ${gate} ]; do sleep 0.05; done`;
  await sendPrompt(page, `[tool Bash ${JSON.stringify({ command, description: 'build in the background', run_in_background: true })}]`);
  await page.getByTestId('permission-card').getByRole('button', { name: 'Allow', exact: true }).click();
  const bash = page.locator('[data-testid="tool-card"][data-tool="Bash"]');
  await bash.getByTestId('background-tail').filter({ hasText: 'step 60' }).waitFor();
  await page.getByTestId('assistant-message').filter({ hasText: 'Command running in background' }).waitFor();

  /** Shoots the page at every size and scheme; before() puts the view in place after each resize. */
  async function shootAll(name, before) {
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
        await page.emulateMedia({ colorScheme });
        await page.waitForFunction((want) => document.documentElement.dataset.theme === want, colorScheme);
        await before();
        await page.screenshot({ path: join(out, `${name}-${width}x${height}-${colorScheme}.png`) });
      }
    }
  }

  await shootAll('bash-tail', () => bash.scrollIntoViewIfNeeded());
  await page.getByTestId('toggle-changes').click();
  await page.getByTestId('changes-file').filter({ hasText: 'notes.txt' }).waitFor();
  await shootAll('changes', async () => undefined);
  await page.getByTestId('toggle-changes').click();
  await page.keyboard.press('Control+Backquote');
  await page.getByTestId('terminal-screen').waitFor();
  await page.getByTestId('terminal-screen').click();
  await page.keyboard.type("printf 'ready %s\\n' here\n");
  await shootAll('terminal', async () => undefined);
  await page.keyboard.press('Control+Backquote');
  await page.getByTestId('terminal-panel').waitFor({ state: 'detached' });

  writeFileSync(gate, '');
  await page.getByTestId('assistant-message').filter({ hasText: 'The background work finished' }).waitFor();
  await page
    .getByTestId('send')
    .filter({ hasText: /^Send$/ })
    .waitFor();
  await sendPrompt(page, '/compact');
  await page.getByTestId('conversation').getByText('Compacted', { exact: true }).waitFor();
  await page
    .getByTestId('send')
    .filter({ hasText: /^Send$/ })
    .waitFor();
  await shootAll('compact', async () => undefined);
  if (pageErrors.length > 0) throw new Error(`page errors: ${pageErrors.join('; ')}`);
  console.log(`screenshots in ${out}`);
} finally {
  await stopAll();
}
