// End to end in headless Chromium against `baton serve`: a session's Terminal panel runs a shell (a stand-in login
// shell, /bin/sh, so none of the machine's own shell setup runs) in the session's folder in a real PTY, over the
// authenticated WebSocket. Typing a command makes a file the test checks and prints into the xterm.js buffer; a
// reload shows the panel open with the same tab in front, redrawn from its scrollback; a 1 MB burst arrives whole
// while the page keeps answering.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import {
  openPage,
  pathSteps,
  sendPrompt,
  shotPath,
  startServedBaton,
  stopAll,
  stopOnSignals,
  tempDir,
  waitForTerminalLine,
  waitForTurnEnds,
} from './harness.mjs';

let page;
let url;
let project;
let home;
const pageErrors = [];

stopOnSignals();

before(async () => {
  const shell = join(tempDir('terminal-shell'), 'login-shell');
  // The person's login shell, as $SHELL names it; Baton adds -l, which this stand-in drops.
  writeFileSync(shell, '#!/bin/sh\nunset ENV\nPS1="e2e$ " exec /bin/sh\n', { mode: 0o755 });
  ({ url, home } = await startServedBaton('terminal', { SHELL: shell }));
  project = tempDir('terminal-project');
  ({ page } = await openPage({ viewport: { width: 1280, height: 1000 }, pageErrors }));
});

after(async () => {
  if (page !== undefined) await page.screenshot({ path: shotPath('terminal-last') }).catch(() => undefined);
  await stopAll();
});

const step = pathSteps(() => page, 'terminal-failed-');

const waitForScreen = (text) => waitForTerminalLine(page, text);

async function openPanel() {
  await page.getByRole('button', { name: 'Terminal', exact: true }).click();
  await page.getByTestId('terminal-screen').waitFor();
}

step('the Terminal button opens a shell in the session folder, and what is typed runs there', async () => {
  assert.equal((await page.goto(url))?.status(), 200);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-session-folder').fill(project);
  await page.getByTestId('new-session-start').click();
  await page.getByTestId('session-live').waitFor();
  await openPanel();
  await waitForScreen('e2e$');
  await page.getByTestId('terminal-screen').click();
  // printf's %s splits each marker, so the echoed command line never matches what it prints.
  await page.keyboard.type("printf 'made %s\\n' here > made.txt; printf 'SEEN%s\\n' _OK\n");
  await waitForScreen('SEEN_OK');
  assert.equal(readFileSync(join(project, 'made.txt'), 'utf8'), 'made here\n');
});

step('Ctrl+` hides and shows the panel, and the shell keeps running', async () => {
  await page.keyboard.press('Control+Backquote');
  await page.getByTestId('terminal-panel').waitFor({ state: 'detached' });
  await page.keyboard.press('Control+Backquote');
  await waitForScreen('SEEN_OK');
});

step('a reload shows the panel as it was left: open, the same tab in front, redrawn from its scrollback', async () => {
  // A second tab, in front when the page reloads.
  await page.getByRole('button', { name: '+ Shell' }).click();
  await page
    .getByRole('tab')
    .nth(1)
    .and(page.getByRole('tab', { selected: true }))
    .waitFor();
  await waitForScreen('e2e$');
  await page.getByTestId('terminal-screen').click();
  await page.keyboard.type("printf 'TWO%s\\n' _OK\n");
  await waitForScreen('TWO_OK');
  await page.reload();
  await page.getByTestId('session-live').waitFor();
  // No click on Terminal: the panel opens because it was open.
  await page.getByTestId('terminal-screen').waitFor();
  await waitForScreen('TWO_OK');
  assert.equal(await page.getByRole('tab').count(), 2, 'the same terminals, not new ones');
  assert.equal(await page.getByRole('tab').nth(1).getAttribute('aria-selected'), 'true', 'the tab that was in front');
  // Back to the first tab alone, as the steps below expect.
  await page
    .getByRole('button', { name: /^Close / })
    .nth(1)
    .click();
  await page.getByRole('tab').nth(1).waitFor({ state: 'detached' });
  await waitForScreen('SEEN_OK');
});

step('a 1 MB burst reaches the screen whole and the page keeps answering', async () => {
  await page.getByTestId('terminal-screen').click();
  await page.keyboard.type("i=0; while [ $i -lt 20000 ]; do printf '%050d\\n' $i; i=$((i+1)); done; printf 'BURST%s\\n' _END\n");
  await waitForScreen('BURST_END');
  await waitForScreen(String(19999).padStart(50, '0'));
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  await page.getByTestId('composer-input').fill('still typing');
  assert.equal(await page.getByTestId('composer-input').inputValue(), 'still typing');
  assert.deepEqual(pageErrors, []);
});

step('a 20 MB flood (yes) leaves the screen drawing its end, and the page answering', async () => {
  await page.getByTestId('terminal-screen').click();
  await page.keyboard.type("yes flood | head -c 20000000; printf 'FLOOD%s\\n' _END\n");
  await waitForScreen('FLOOD_END');
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  assert.deepEqual(pageErrors, []);
});

step('Open in Claude Code runs the real TUI on the session, and the console continues from what it added', async () => {
  await sendPrompt(page, 'hello from the console');
  await waitForTurnEnds(page, 1);
  // Claude Code's first-run screens done, this project trusted and the scripted API's key accepted, as a person's
  // own config would have them: the TUI opens straight onto the conversation.
  const config = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: ['sk-test'], rejected: [] },
    projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  writeFileSync(join(home, '.claude', '.claude.json'), JSON.stringify(config));
  await page.getByRole('button', { name: 'Open in Claude Code' }).click();
  await page.getByRole('tab', { name: 'Claude Code', selected: true }).waitFor();
  await waitForScreen('You said: hello from the console');
  await page.getByTestId('terminal-screen').click();
  await page.keyboard.type('typed in the tui');
  await waitForScreen('typed in the tui');
  await page.keyboard.press('Enter');
  await waitForScreen('You said: typed in the tui');
  await page.keyboard.type('/exit');
  await waitForScreen('/exit');
  await page.keyboard.press('Enter');
  // The TUI exited: the conversation is read again from the transcript, with the TUI's turn in it.
  await page.getByTestId('conversation').getByText('You said: typed in the tui').waitFor();
  await sendPrompt(page, '[recall]');
  await page
    .getByTestId('conversation')
    .getByText(/Earlier you said: .*typed in the tui/)
    .waitFor();
  assert.deepEqual(pageErrors, []);
});
