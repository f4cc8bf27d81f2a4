// Takes the README's screenshot (frontend/docs/screenshot.png): the console at 1440×900 over a small demo project,
// driven like the e2e tests (real `baton serve`, sidecar and claude CLI, the scripted Messages API). Run after
// scripts/build: `node frontend/scripts/readme-screenshot.mjs`.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, REPO, sendPrompt, startServedBaton, stopAll, tempDir } from '../e2e/harness.mjs';

const OUT = join(REPO, 'frontend/docs/screenshot.png');
/** The README shows it inline: keep the file small. */
const MAX_BYTES = 200_000;

const idle = (page) =>
  page
    .getByTestId('send')
    .filter({ hasText: /^Send$/ })
    .waitFor();

async function allow(page) {
  await page.getByTestId('permission-card').waitFor();
  await page.getByTestId('composer-input').press('Tab');
  await page.keyboard.press('1');
}

let shown;
try {
  const { url } = await startServedBaton('readme');
  // A folder named as a person's would be (the sidebar and header show its name).
  const project = join(tempDir('readme'), 'demo');
  mkdirSync(project);
  writeFileSync(join(project, 'README.md'), '# Demo\n\nA small project to show Baton with.\n');
  const pageErrors = [];
  const { page } = await openPage({ viewport: { width: 1440, height: 900 }, pageErrors });
  shown = page;
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(url);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
  await sendPrompt(page, 'What does this project hold?');
  await page.getByTestId('assistant-message').filter({ hasText: 'You said: What does this project hold?' }).waitFor();
  await idle(page);
  await sendPrompt(page, 'Add a greeting [write hello.txt Hello from Baton]');
  await allow(page);
  await page.getByTestId('permission-row').filter({ hasText: 'Write: Allowed' }).waitFor();
  await idle(page);
  // Read-only commands run without asking.
  await sendPrompt(page, 'Show it [bash cat hello.txt && wc -l README.md]');
  await page.locator('[data-testid="tool-card"][data-tool="Bash"]').filter({ hasText: 'Hello from Baton' }).waitFor();
  await idle(page);
  await sendPrompt(page, 'Now write the changelog [write CHANGELOG.md # Changelog]');
  await page.getByTestId('permission-card').waitFor();
  mkdirSync(join(REPO, 'frontend/docs'), { recursive: true });
  await page.screenshot({ path: OUT });
  const size = statSync(OUT).size;
  if (size > MAX_BYTES) throw new Error(`${OUT} is ${size} bytes, more than ${MAX_BYTES}`);
  if (pageErrors.length > 0) throw new Error(`the page raised: ${pageErrors.join('; ')}`);
  console.log(`${OUT}: ${size} bytes`);
} catch (err) {
  await shown?.screenshot({ path: join(REPO, 'test-artifacts/readme-failed.png') }).catch(() => undefined);
  throw err;
} finally {
  await stopAll();
}
