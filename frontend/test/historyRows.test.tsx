// A past session's history in the console (issue 26): everything its transcript holds, each as its own row.
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { settle } from './fakeTransport';
import { PAST, PAST_EVENTS, PNG_1PX } from './pastSession';
import { renderConsole } from './render';

async function openPast() {
  const view = await renderConsole((t) => {
    t.on('history', () => ({ events: PAST_EVENTS, total: PAST_EVENTS.length, start: 0 }));
  });
  await act(async () => {
    view.store.select(PAST, { session: PAST, title: 'Rename', cwd: '/w', lastModified: 1, live: false, pinned: false, archived: false });
    await settle();
  });
  return view;
}

const card = (command: string) => screen.getAllByTestId('tool-card').find((c) => c.querySelector('.command')?.textContent?.includes(command)) as HTMLElement;

describe('a past session’s history', () => {
  it('divides the conversation where it was compacted, the summary collapsed under the marker', async () => {
    await openPast();
    const marker = screen.getByTestId('compacted');
    expect(marker.getAttribute('role')).toBe('separator');
    expect(marker.textContent).toBe(`Conversation compacted automatically (${(15210).toLocaleString()} tokens before)`);
    // What the summary replaced is above the marker.
    const prompt = screen.getByText('Rename the module');
    expect(prompt.compareDocumentPosition(marker) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const summary = screen.getByTestId('compact-summary') as HTMLDetailsElement;
    expect(summary.open).toBe(false);
    expect(summary.textContent).toBe('Summary of the earlier conversation');
    expect(screen.queryByText(/one use was found/)).toBeNull();
    await userEvent.click(within(summary).getByText('Summary of the earlier conversation'));
    expect(within(summary).getByText(/one use was found/)).toBeTruthy();
    expect(screen.getAllByTestId('user-message').map((m) => m.querySelector('.plain')?.textContent)).toEqual([
      'Rename the module',
      'What is in this screenshot?',
    ]);
  });

  it('shows API errors as error cards, a subagent’s inside its Agent card with the rest of its work', async () => {
    await openPast();
    expect(screen.getAllByTestId('error-row').map((e) => e.querySelector('strong')?.textContent)).toEqual(['The API is overloaded']);
    const agent = screen.getAllByTestId('tool-card').find((c) => c.dataset['tool'] === 'Agent') as HTMLElement;
    await userEvent.click(within(agent).getByRole('button', { name: 'Show what it did (3)' }));
    const nested = agent.querySelector('.nested') as HTMLElement;
    const error = within(nested).getByTestId('error-row');
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.querySelector('strong')?.textContent).toBe('Rate limit reached (429)');
    expect(error.textContent).toContain('API Error: Rate limit reached');
    expect(
      within(nested)
        .getAllByTestId('tool-card')
        .map((c) => c.dataset['tool']),
    ).toEqual(['Bash']);
  });

  it('shows local commands with their output (error output marked, long output collapsed) and lone output alone', async () => {
    await openPast();
    const [mcp, context, alone] = screen.getAllByTestId('command-row');
    expect(mcp?.querySelector('.command-name')?.textContent).toBe('/mcp list');
    const outputs = [...(mcp?.querySelectorAll('pre') ?? [])];
    expect(outputs.map((o) => [o.textContent, o.dataset['stream'], o.classList.contains('stderr')])).toEqual([
      ['No MCP servers configured', 'stdout', false],
      ['warning: no settings file', 'stderr', true],
    ]);
    expect(context?.querySelector('.command-name')?.textContent).toBe('/context');
    const long = context?.querySelector('details') as HTMLDetailsElement;
    expect(long.open).toBe(false);
    expect(long.querySelector('summary')?.textContent).toBe('Output (30 lines)');
    // Its colours are the terminal's; no escape code is shown.
    const pre = long.querySelector('pre') as HTMLElement;
    expect(pre.textContent).not.toContain('\x1b');
    expect(pre.textContent?.split('\n')[0]).toBe('line 1');
    expect(pre.querySelector('span')?.style.color).toBe('var(--ansi-cyan)');
    expect(alone?.querySelector('.command-name')).toBeNull();
    expect(alone?.textContent).toBe('Bye!');
    expect(screen.getByText('2 lines of this transcript could not be read')).toBeTruthy();
  });

  it('renders a tool’s ANSI colours as colours and drops every other escape sequence', async () => {
    await openPast();
    const output = card('npm test').querySelector('.tool-output pre') as HTMLElement;
    expect(output.textContent).toBe('PASS src/a.test.ts\n 100%\n1 failed');
    const spans = [...output.querySelectorAll('span')].map((s) => [s.textContent, s.style.color, s.style.fontWeight]);
    expect(spans).toEqual([
      ['PASS', 'var(--ansi-green)', '600'],
      ['1 failed', 'var(--ansi-red)', ''],
    ]);
  });

  it('reads a tool the session ended in as ended, never running', async () => {
    await openPast();
    const sleep = card('sleep 100');
    expect(within(sleep).getByTestId('tool-ended').textContent).toBe('ended');
    expect(sleep.textContent).not.toContain('running');
    expect(sleep.parentElement?.querySelector('[data-testid="tool-ended-note"]')?.textContent).toBe('The session ended before this finished');
  });

  it('shows a prompt’s images as thumbnails from their own data, and placeholders for those it cannot show', async () => {
    await openPast();
    const prompt = screen.getAllByTestId('user-message')[1] as HTMLElement;
    const images = within(prompt).getAllByRole('img');
    expect(images.map((i) => i.getAttribute('alt') ?? i.getAttribute('aria-label'))).toEqual([
      'Image 1 of the prompt (PNG, 70 B)',
      'Image 2 of the prompt (PNG, 8.6 MB), not shown: too large to show here',
      'Image 3 of the prompt (SVG+XML, 6 B), not shown: this type is not shown',
    ]);
    expect(images[0]?.getAttribute('src')).toBe(`data:image/png;base64,${PNG_1PX}`);
    expect(
      within(prompt)
        .getAllByTestId('image-placeholder')
        .map((p) => p.textContent),
    ).toEqual(['image/png8.6 MB', 'image/svg+xml6 B']);
    // Nothing is fetched: every image on the page is from its own data.
    for (const img of document.querySelectorAll('img')) expect(img.getAttribute('src')?.startsWith('data:image/')).toBe(true);
    const read = screen.getAllByTestId('tool-card').find((c) => c.dataset['tool'] === 'Read') as HTMLElement;
    const returned = read.parentElement?.querySelector('[data-testid="thumbnails"] img');
    expect(returned?.getAttribute('alt')).toBe('Image 1 of Read’s result (JPEG, 3 B)');
    expect(returned?.getAttribute('src')).toBe('data:image/jpeg;base64,/9j/');
  });

  it('enlarges a thumbnail in an overlay that Escape closes, giving focus back to the thumbnail', async () => {
    await openPast();
    const prompt = screen.getAllByTestId('user-message')[1] as HTMLElement;
    const thumb = within(prompt).getByRole('button', { name: 'Image 1 of the prompt (PNG, 70 B)' });
    await userEvent.click(thumb);
    const dialog = screen.getByRole('dialog', { name: 'Image 1 of the prompt (PNG, 70 B)' });
    expect(within(dialog).getByRole('img').getAttribute('src')).toBe(`data:image/png;base64,${PNG_1PX}`);
    expect(dialog.contains(document.activeElement)).toBe(true);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(thumb);
  });
});
