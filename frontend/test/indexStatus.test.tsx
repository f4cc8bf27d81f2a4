// The session index's state in the console (issue 26): a quiet line with a progress bar in the sidebar while it
// builds, gone when ready, a message when it failed; a session opened before it is indexed says it is being read.
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { IndexState } from '../src/protocol/hostState';
import { ConsoleStore } from '../src/store/store';
import { FakeTransport, settle } from './fakeTransport';
import { PAST, PAST_EVENTS } from './pastSession';
import { renderConsole } from './render';

const TIME = '2026-12-02T05:00:00.000Z';

function building(filesDone: number, filesTotal: number, extra: Partial<IndexState> = {}): IndexState {
  return { state: 'building', filesDone, filesTotal, bytesDone: filesDone * 1000, bytesTotal: filesTotal * 1000, ...extra };
}

const indexPush = (index: IndexState) => ({ kind: 'index.state' as const, session: '', time: TIME, index });

describe('the index’s state in the store', () => {
  it('comes with the snapshot and follows every index push', async () => {
    const t = new FakeTransport();
    t.snapshot = { ...t.snapshot, index: building(3, 10) };
    const store = new ConsoleStore(t, { schedule: () => undefined, isForeground: () => true });
    store.start();
    t.setConnection('open');
    await settle();
    expect(store.getState().index).toEqual(building(3, 10));
    t.push(indexPush(building(7, 10)));
    store.flush();
    expect(store.getState().index).toEqual(building(7, 10));
    t.push(indexPush({ state: 'ready', filesDone: 10, filesTotal: 10, bytesDone: 10_000, bytesTotal: 10_000 }));
    store.flush();
    expect(store.getState().index.state).toBe('ready');
  });
});

describe('the sidebar’s index indicator', () => {
  it('shows the count and a progress bar while the index builds, and nothing once it is ready', async () => {
    const { push } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, index: building(312, 1204) };
    });
    const sidebar = screen.getByTestId('sidebar');
    const status = within(sidebar).getByTestId('index-status');
    expect(status.getAttribute('role')).toBe('status');
    expect(status.textContent).toBe(`Indexing sessions… ${(312).toLocaleString()} of ${(1204).toLocaleString()}`);
    const bar = within(status).getByRole('progressbar') as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([312_000, 1_204_000]);

    await push(indexPush(building(1000, 1204, { state: 'rebuilding', reason: 'mapper' })));
    expect(screen.getByTestId('index-status').textContent).toBe(
      `Indexing sessions again for this version of Baton… ${(1000).toLocaleString()} of ${(1204).toLocaleString()}`,
    );

    await push(indexPush({ state: 'ready', filesDone: 1204, filesTotal: 1204, bytesDone: 1_204_000, bytesTotal: 1_204_000 }));
    expect(screen.queryByTestId('index-status')).toBeNull();
  });

  it('says what went wrong and what to do when the index failed', async () => {
    const message = 'Baton could not index the stored sessions: disk full. Quit Baton and start it again to retry.';
    const { push } = await renderConsole();
    expect(screen.queryByTestId('index-status')).toBeNull();
    await push(indexPush({ state: 'failed', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, message }));
    const status = screen.getByTestId('index-status');
    expect(status.getAttribute('role')).toBe('alert');
    expect(status.textContent).toBe(message);
  });
});

describe('a session opened before it is indexed', () => {
  it('says it is being read while its history waits for the index, then shows the history', async () => {
    let answer: (page: { events: typeof PAST_EVENTS; total: number; start: number }) => void = () => undefined;
    const view = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, index: building(2, 40) };
      t.on('history', () => new Promise((resolve) => (answer = resolve)));
    });
    await act(async () => {
      view.store.select(PAST, { session: PAST, title: 'Rename', cwd: '/w', lastModified: 1, live: false, pinned: false, archived: false });
      await settle();
    });
    await view.push(indexPush(building(2, 40, { first: PAST })));
    const reading = screen.getByTestId('conversation-reading');
    expect(reading.getAttribute('role')).toBe('status');
    expect(reading.textContent).toContain('Reading this session from its transcript…');
    expect(reading.textContent).toContain('Baton indexes it ahead of the other sessions.');
    expect(screen.queryByTestId('conversation-empty')).toBeNull();

    await act(async () => {
      answer({ events: PAST_EVENTS, total: PAST_EVENTS.length, start: 0 });
      await settle();
    });
    expect(screen.queryByTestId('conversation-reading')).toBeNull();
    expect(screen.getByText('Rename the module')).toBeTruthy();
  });
});
