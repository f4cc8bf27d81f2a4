import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../src/protocol/api';
import type { ConsoleEvent } from '../src/protocol/events';
import { renderMarkdown } from '../src/lib/markdown';
import { archivedCount, dateGroup, groupEntries, plainLine, recentFolders, shownBranch, type SidebarEntry } from '../src/store/sidebar';
import { ConsoleStore } from '../src/store/store';
import { FakeTransport, settle } from './fakeTransport';
import { renderConsole } from './render';

const NOW = new Date(2026, 11, 1, 15, 0, 0).getTime();
const DAY = 86_400_000;

function entry(session: string, cwd: string, ageMs: number, extra: Partial<SidebarEntry> = {}): SidebarEntry {
  return {
    session,
    title: session,
    cwd,
    lastModified: NOW - ageMs,
    live: false,
    pinned: false,
    archived: false,
    asleep: false,
    waiting: false,
    finished: false,
    busy: false,
    ...extra,
  };
}

describe('sidebar grouping', () => {
  const list = [
    entry('a', '/w/api', 1000),
    entry('b', '/w/web', 2 * 3600_000),
    entry('c', '/w/api', DAY + 3600_000),
    entry('d', '/w/web', 3 * DAY, { pinned: true }),
    entry('e', '/w/api', 20 * DAY),
    entry('f', '/x/api', 90 * DAY),
    entry('g', '/w/web', 5 * DAY, { archived: true }),
  ];

  it('groups by project, most recently active first, with pinned on top and archived apart', () => {
    const groups = groupEntries(list, 'project', NOW, false);
    expect(groups.map((g) => [g.label, g.entries.map((e) => e.session)])).toEqual([
      ['Pinned', ['d']],
      ['api — w', ['a', 'c', 'e']],
      ['web', ['b']],
      ['api — x', ['f']],
    ]);
    expect(groups[1]?.hint).toBe('/w/api');
    expect(archivedCount(list)).toBe(1);
    expect(groupEntries(list, 'project', NOW, true).at(-1)).toMatchObject({ key: 'archived', label: 'Archived', entries: [list[6]] });
  });

  it('groups by date in local days', () => {
    const groups = groupEntries(list, 'date', NOW, false);
    expect(groups.map((g) => [g.label, g.entries.map((e) => e.session)])).toEqual([
      ['Pinned', ['d']],
      ['Today', ['a', 'b']],
      ['Yesterday', ['c']],
      ['Previous 30 days', ['e']],
      ['Older', ['f']],
    ]);
    expect(dateGroup(NOW - 3 * DAY, NOW).label).toBe('Previous 7 days');
  });

  it('keeps a live session out of the archive', () => {
    const live = [entry('l', '/w/api', 40 * DAY, { archived: true, live: true })];
    expect(groupEntries(live, 'date', NOW, false).map((g) => g.label)).toEqual(['Today']);
    expect(archivedCount(live)).toBe(0);
  });

  it('offers recent folders once each, newest first, and hides the HEAD of a folder that is not a repository', () => {
    const infos: SessionInfo[] = list.map((e) => ({
      session: e.session,
      title: e.title,
      cwd: e.cwd ?? '',
      lastModified: e.lastModified,
      live: false,
      pinned: false,
      archived: false,
    }));
    expect(recentFolders(infos)).toEqual(['/w/api', '/w/web', '/x/api']);
    expect(shownBranch('HEAD')).toBeUndefined();
    expect(shownBranch('')).toBeUndefined();
    expect(shownBranch('main')).toBe('main');
  });

  it('turns a Markdown prompt into a plain one-line title', () => {
    expect(plainLine('## Fix **the** `parser`\n\n- [x] and [docs](http://x)')).toBe('Fix the parser and docs');
  });
});

describe('code blocks', () => {
  it('get a language label and a Copy button the text itself cannot forge', () => {
    const html = renderMarkdown(
      'Here:\n\n```go\nfunc main() {\n\tprintln("hi")\n}\n```\n\n<div class="code-block"><button class="code-copy">fake</button></div>',
    );
    const doc = document.createElement('div');
    doc.innerHTML = html;
    const blocks = doc.querySelectorAll('.code-block');
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.querySelector('.code-lang')?.textContent).toBe('go');
    expect(blocks[0]?.querySelector('button.code-copy')?.textContent).toBe('Copy');
    expect(blocks[0]?.querySelector('pre code')?.textContent).toBe('func main() {\n\tprintln("hi")\n}');
    // The forged frame lost its classes, and with them the console's behaviour.
    expect(doc.querySelectorAll('button.code-copy, .code-block')).toHaveLength(2);
  });

  it('keeps an unknown fence tag as the label', () => {
    const doc = document.createElement('div');
    doc.innerHTML = renderMarkdown('Here:\n\n```kotlin\nval x = 1\n```');
    expect(doc.querySelector('.code-lang')?.textContent).toBe('kotlin');
    doc.innerHTML = renderMarkdown('Here:\n\n```\nplain\n```');
    expect(doc.querySelector('.code-lang')?.textContent).toBe('text');
  });
});

describe('the sidebar in the console', () => {
  const sessions: SessionInfo[] = [
    {
      session: '11111111-1111-4111-8111-111111111111',
      title: 'Release notes',
      cwd: '/home/u/site',
      lastModified: Date.now() - 1000,
      live: false,
      pinned: false,
      archived: false,
      gitBranch: 'HEAD',
    },
    {
      session: '22222222-2222-4222-8222-222222222222',
      title: 'Parser bug',
      cwd: '/home/u/parser',
      lastModified: Date.now() - 5000,
      live: false,
      pinned: false,
      archived: false,
      gitBranch: 'main',
    },
    {
      session: '33333333-3333-4333-8333-333333333333',
      title: 'Old spike',
      cwd: '/home/u/parser',
      lastModified: Date.now() - 9000,
      live: false,
      pinned: false,
      archived: false,
      forkOf: '22222222-2222-4222-8222-222222222222',
    },
  ];

  it('a session menu keeps the item the arrows moved to when the sidebar lists again', async () => {
    const { push } = await renderConsole((t) => {
      t.on('listSessions', () => ({ sessions }));
    });
    await userEvent.click(screen.getAllByTestId('entry-actions')[1] as HTMLElement);
    expect(document.activeElement?.getAttribute('data-testid')).toBe('entry-pin');
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement?.getAttribute('data-testid')).toBe('entry-rename');
    // The host says sessions changed: the sidebar lists again and its entries render anew.
    await push({ kind: 'sessions.changed', session: '', time: new Date().toISOString() });
    await act(async () => {
      await new Promise((r) => setTimeout(r, 120));
      await settle();
    });
    expect(screen.getByTestId('entry-pin')).toBeTruthy();
    expect(document.activeElement?.getAttribute('data-testid')).toBe('entry-rename');
  });

  it('collapses groups with counts, pins, archives, renames, and lists again when the host says sessions changed', async () => {
    const { transport, push } = await renderConsole((t) => {
      t.on('listSessions', () => ({ sessions }));
      t.on('setSessionFlags', (p) => ({ pinned: p.pinned ?? false, archived: p.archived ?? false }));
      t.on('renameSession', (p) => ({ title: p.title.trim() }));
    });
    const groups = () =>
      screen.getAllByTestId('session-group').map((g) => [g.querySelector('.group-label')?.textContent, g.querySelector('.group-count')?.textContent]);
    expect(groups()).toEqual([
      ['site', '1'],
      ['parser', '2'],
    ]);
    // No "HEAD" for a folder that is not a repository; a real branch shows; a fork is marked.
    const entries = () => screen.getAllByTestId('session-entry');
    expect(entries()[0]?.textContent).not.toContain('HEAD');
    expect(entries()[1]?.textContent).toContain('main');
    expect(within(entries()[2] as HTMLElement).getByTestId('mark-fork')).toBeTruthy();

    await userEvent.click(screen.getAllByTestId('group-head')[1] as HTMLElement);
    expect(entries()).toHaveLength(1);
    await userEvent.click(screen.getAllByTestId('group-head')[1] as HTMLElement);
    expect(entries()).toHaveLength(3);

    // Pin the parser bug: it moves to "Pinned" on top.
    await userEvent.click(screen.getAllByTestId('entry-actions')[1] as HTMLElement);
    await userEvent.click(screen.getByTestId('entry-pin'));
    await act(() => settle());
    expect(transport.callsOf('setSessionFlags')).toEqual([{ session: sessions[1]?.session, pinned: true }]);
    expect(groups()[0]).toEqual(['Pinned', '1']);

    // Archive the spike: it leaves the list until "Show archived".
    const spike = entries().findIndex((e) => e.textContent?.includes('Old spike'));
    await userEvent.click(screen.getAllByTestId('entry-actions')[spike] as HTMLElement);
    await userEvent.click(screen.getByTestId('entry-archive'));
    await act(() => settle());
    expect(entries().map((e) => e.querySelector('[data-testid="entry-title"]')?.textContent)).toEqual(['Parser bug', 'Release notes']);
    await userEvent.click(screen.getByTestId('show-archived'));
    expect(groups().at(-1)).toEqual(['Archived', '1']);

    // Rename in place.
    await userEvent.click(screen.getAllByTestId('entry-actions')[1] as HTMLElement);
    await userEvent.click(screen.getByTestId('entry-rename'));
    const input = screen.getByTestId('entry-rename-input');
    await userEvent.clear(input);
    await userEvent.type(input, 'Site release notes{Enter}');
    await act(() => settle());
    expect(transport.callsOf('renameSession')).toEqual([{ session: sessions[0]?.session, title: 'Site release notes', cwd: '/home/u/site' }]);
    expect(screen.getByText('Site release notes')).toBeTruthy();

    // Grouped by date instead.
    await userEvent.click(screen.getByTestId('group-by-date'));
    expect(groups().map((g) => g[0])).toEqual(['Pinned', 'Today', 'Archived']);

    // A session written outside Baton: the host's push makes the console list again.
    const before = transport.callsOf('listSessions').length;
    await push({ kind: 'sessions.changed', session: '', time: new Date().toISOString() });
    await act(async () => {
      await new Promise((r) => setTimeout(r, 120));
      await settle();
    });
    expect(transport.callsOf('listSessions').length).toBe(before + 1);
  });

  it('hides and shows the sidebar, and remembers it', async () => {
    await renderConsole((t) => t.on('listSessions', () => ({ sessions })));
    await userEvent.click(screen.getByTestId('sidebar-hide'));
    expect(screen.queryByTestId('sidebar')).toBeNull();
    expect(localStorage.getItem('baton.sidebar')).toContain('"hidden":true');
    await userEvent.click(screen.getByTestId('sidebar-show'));
    expect(screen.getByTestId('sidebar')).toBeTruthy();
    await userEvent.keyboard('{Control>}b{/Control}');
    expect(screen.queryByTestId('sidebar')).toBeNull();
  });

  it('Ctrl+K: ↑/↓ choose among the sessions found (skipping collapsed groups) and Enter opens the one chosen', async () => {
    await renderConsole((t) => {
      t.on('listSessions', () => ({ sessions }));
      t.on('history', () => ({ events: [], total: 0, start: 0 }));
    });
    await act(() => settle());
    const active = () => screen.getAllByTestId('session-entry').find((e) => e.getAttribute('data-active') === 'true')?.textContent ?? '';
    const current = () => screen.getAllByTestId('session-entry').find((e) => e.getAttribute('aria-current') === 'true')?.textContent ?? '';
    await userEvent.keyboard('{Control>}k{/Control}');
    await userEvent.keyboard('parser');
    expect(active()).toContain('Parser bug');
    await userEvent.keyboard('{ArrowDown}');
    expect(active()).toContain('Old spike');
    await userEvent.keyboard('{ArrowDown}');
    expect(active()).toContain('Parser bug');
    await userEvent.keyboard('{ArrowUp}{Enter}');
    await act(() => settle());
    expect(current()).toContain('Old spike');
    expect(screen.getByLabelText('Filter sessions')).toHaveProperty('value', '');

    // Without a filter the arrows go over what shows: a collapsed group's sessions are skipped.
    await userEvent.click(screen.getAllByTestId('group-head')[0] as HTMLElement);
    await userEvent.click(screen.getByLabelText('Filter sessions'));
    expect(active()).toContain('Parser bug');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(active()).toContain('Parser bug');
    await userEvent.keyboard('{Enter}');
    await act(() => settle());
    expect(current()).toContain('Parser bug');
  });

  it('opens the session shown before a reload', async () => {
    localStorage.setItem('baton.selectedSession', sessions[1]?.session ?? '');
    await renderConsole((t) => {
      t.on('listSessions', () => ({ sessions }));
      t.on('history', () => ({ events: [], total: 0, start: 0 }));
    });
    await act(() => settle());
    expect(screen.getAllByTestId('session-entry').find((e) => e.getAttribute('aria-current') === 'true')?.textContent).toContain('Parser bug');
    expect(document.querySelectorAll('[aria-current="true"]')).toHaveLength(1);
  });
});

describe('a session’s changes in the sidebar', () => {
  const W = '27270000-0000-4000-8000-0000000000e1';
  const T = new Date().toISOString();
  it('shows the counts the host pushes, and ready to land once the worktree session is idle', async () => {
    const { push } = await renderConsole((t) => {
      t.on('listSessions', () => ({ sessions: [] }));
      t.snapshot.sessions = [
        { session: W, cwd: '/r/.claude/worktrees/w', requestedModel: 'default', effectiveModel: '', permissionMode: 'default', state: 'awake', events: [] },
      ];
    });
    const entry = () => screen.getAllByTestId('session-entry').find((e) => e.getAttribute('data-session') === W) as HTMLElement;
    expect(within(entry()).queryByTestId('entry-changes')).toBeNull();
    await push({ kind: 'turn.started', session: W, turn: 't1', time: T, prompt: 'work', seq: 1 });
    await push({ kind: 'changes.updated', session: '', time: T, changes: { session: W, worktree: true, files: 2, added: 7, deleted: 3, missing: false } });
    expect(within(entry()).getByTestId('entry-changes').textContent).toBe('+7 −3');
    expect(within(entry()).getByTestId('entry-changes').getAttribute('title')).toBe('2 files changed');
    expect(within(entry()).getByTestId('mark-busy')).toBeTruthy();
    expect(within(entry()).queryByTestId('mark-landable')).toBeNull();
    await push({ kind: 'turn.completed', session: W, turn: 't1', time: T, seq: 2 } as ConsoleEvent);
    expect(within(entry()).getByTestId('mark-landable').textContent).toBe('ready to land');
    // A folder's changes outside a worktree are shown, but are not a land.
    await push({ kind: 'changes.updated', session: '', time: T, changes: { session: W, worktree: false, files: 1, added: 1, deleted: 0, missing: false } });
    expect(within(entry()).getByTestId('entry-changes').textContent).toBe('+1 −0');
    expect(within(entry()).queryByTestId('mark-landable')).toBeNull();
  });
});

describe('a stored worktree session’s changes in the sidebar', () => {
  const W = '27270000-0000-4000-8000-0000000000e2';
  const F = '27270000-0000-4000-8000-0000000000e3';
  it('reads its counts once from the host, and marks it ready to land', async () => {
    const stored = (session: string, cwd: string): SessionInfo => ({
      session,
      title: session === W ? 'worktree work' : 'plain folder',
      cwd,
      lastModified: Date.now(),
      live: false,
      pinned: false,
      archived: false,
    });
    const { transport, store } = await renderConsole((t) => {
      t.on('listSessions', () => ({ sessions: [stored(W, '/r/.claude/worktrees/w'), stored(F, '/r')] }));
      t.on('sessionChanges', () => ({
        folder: '/r/.claude/worktrees/w',
        base: 'main',
        worktree: { path: '/r/.claude/worktrees/w', branch: 'w', base: 'main', repo: '/r' },
        missing: false,
        files: [
          { path: 'a.go', status: 'modified', added: 4, deleted: 1, binary: false },
          { path: 'b.go', status: 'added', added: 3, deleted: 0, binary: false },
        ],
      }));
    });
    const entry = (id: string) => screen.getAllByTestId('session-entry').find((e) => e.getAttribute('data-session') === id) as HTMLElement;
    expect(within(entry(W)).getByTestId('entry-changes').textContent).toBe('+7 −1');
    expect(within(entry(W)).getByTestId('mark-landable').textContent).toBe('ready to land');
    expect(within(entry(F)).queryByTestId('entry-changes')).toBeNull();
    await act(async () => store.refreshSidebar());
    expect(transport.callsOf('sessionChanges')).toEqual([{ session: W }]);
  });
});

describe('listing sessions again', () => {
  it('runs one listing at a time and once more after it, so a stream of pushes never starves the list', async () => {
    const transport = new FakeTransport();
    const answers: Array<(r: { sessions: SessionInfo[] }) => void> = [];
    transport.on('listSessions', () => new Promise((res) => answers.push(res)));
    const store = new ConsoleStore(transport, { schedule: () => undefined, isForeground: () => true });
    const info = (title: string): SessionInfo => ({
      session: '44444444-4444-4444-8444-444444444444',
      title,
      lastModified: 1,
      live: false,
      pinned: false,
      archived: false,
    });
    const first = store.refreshSidebar();
    void store.refreshSidebar();
    void store.refreshSidebar();
    await settle();
    expect(answers).toHaveLength(1);
    answers[0]?.({ sessions: [info('first answer')] });
    await settle();
    expect(store.getState().sidebar.items[0]?.title).toBe('first answer');
    expect(answers).toHaveLength(2);
    answers[1]?.({ sessions: [info('second answer')] });
    await first;
    expect(store.getState().sidebar.items[0]?.title).toBe('second answer');
    expect(transport.callsOf('listSessions')).toHaveLength(2);
  });
});
