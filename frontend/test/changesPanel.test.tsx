// The Changes panel over the real store and a scripted transport: the list, a file's diff, revert, review comments
// sent as one prompt, and a stale worktree's notice.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { describe, expect, it } from 'vitest';
import { ChangesPanel } from '../src/components/changes/ChangesPanel';
import { LandDialog } from '../src/components/changes/LandDialog';
import type { ChangesResult, FileDiff } from '../src/protocol/api.gen';
import { newSession } from '../src/store/fold';
import { StoreProvider } from '../src/store/hooks';
import { ConsoleStore } from '../src/store/store';
import { FakeTransport, settle } from './fakeTransport';

const S = '27270000-0000-4000-8000-0000000000d1';
const WT = { repo: '/r', path: '/r/.claude/worktrees/a', branch: 'baton/a', base: 'main' };
const LIST: ChangesResult = {
  folder: WT.path,
  base: 'main',
  worktree: WT,
  missing: false,
  files: [{ path: 'src/a.ts', status: 'modified', added: 2, deleted: 1, binary: false }],
};
const DIFF: FileDiff = {
  path: 'src/a.ts',
  binary: false,
  truncated: false,
  hunks: [
    {
      oldStart: 1,
      oldLines: 1,
      newStart: 1,
      newLines: 2,
      section: '',
      lines: [
        { kind: 'deleted', text: 'const a = 1;', old: 1, new: 0, noNewline: false },
        { kind: 'added', text: 'const a = 2;', old: 0, new: 1, noNewline: false },
        { kind: 'added', text: 'const b = 3;', old: 0, new: 2, noNewline: false },
      ],
    },
  ],
};

async function renderPanel(list: ChangesResult) {
  const transport = new FakeTransport();
  transport.on('sessionChanges', () => structuredClone(list));
  transport.on('fileDiff', () => structuredClone(DIFF));
  transport.on('revertFile', () => ({}));
  transport.on('sendPrompt', () => ({ turn: 't1', queued: false }));
  transport.snapshot.sessions = [
    { session: S, cwd: WT.path, requestedModel: 'default', effectiveModel: '', permissionMode: 'default', state: 'awake', events: [] },
  ];
  // Pushed events fold at once (the host's changes push is what the live test sends).
  const store = new ConsoleStore(transport, { schedule: (flush) => flush(), isForeground: () => true });
  const session = { ...newSession({ id: S, cwd: WT.path }), live: true };
  store.start();
  render(
    <StoreProvider store={store}>
      <VirtuosoMockContext.Provider value={{ viewportHeight: 10_000, itemHeight: 20 }}>
        <ChangesPanel session={session} />
      </VirtuosoMockContext.Provider>
    </StoreProvider>,
  );
  await act(async () => {
    transport.setConnection('open');
    await settle();
    // The panel's first read is a timer of 0 ms (its live refresh): one macrotask turn runs it.
    await new Promise((r) => setTimeout(r, 0));
    await settle();
  });
  return transport;
}

describe('Changes panel', () => {
  it('lists the files, shows a diff, reverts, and sends line comments as one prompt', async () => {
    const t = await renderPanel(LIST);
    expect((await screen.findByTestId('changes-summary')).textContent).toBe('1 files +2 −1 against main (baton/a)');
    const file = await screen.findByTestId('changes-file');
    expect(file.textContent).toContain('src/a.ts');
    fireEvent.click(screen.getByTitle('src/a.ts'));
    await waitFor(() => expect(screen.getByTestId('diff-pane').textContent).toContain('const b = 3;'));
    // The deleted line 1 and the added line 1 are two places: a comment on each, neither lost.
    const comment = async (row: number, text: string) => {
      fireEvent.click(screen.getAllByTestId('diff-line-no')[row] as HTMLElement);
      fireEvent.change(await screen.findByTestId('diff-comment-input'), { target: { value: text } });
      fireEvent.click(screen.getByTestId('diff-comment-add'));
    };
    await comment(0, 'Why drop a = 1?');
    await comment(2, 'Why 2?');
    await comment(5, 'Why b?');
    expect(screen.getAllByTestId('diff-comment').map((c) => c.textContent)).toEqual(['💬 Why drop a = 1?', '💬 Why 2?', '💬 Why b?']);
    await act(async () => {
      fireEvent.click(await screen.findByTestId('send-comments'));
      await settle();
    });
    expect(t.calls.find((c) => c.method === 'sendPrompt')?.params).toEqual({
      session: S,
      prompt:
        'Please address these review comments on your changes:\n\n- src/a.ts:1 (a removed line): Why drop a = 1?\n- src/a.ts:1: Why 2?\n- src/a.ts:2: Why b?',
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('revert-file'));
      await settle();
    });
    expect(t.calls.find((c) => c.method === 'revertFile')?.params).toEqual({ session: S, path: 'src/a.ts' });
  });

  it('reads the list again when the host pushes the session’s changes (an edit made anywhere)', async () => {
    const t = await renderPanel(LIST);
    expect((await screen.findByTestId('changes-summary')).textContent).toContain('1 files');
    const more: ChangesResult = { ...LIST, files: [...LIST.files, { path: 'b.txt', status: 'added', added: 1, deleted: 0, binary: false }] };
    t.on('sessionChanges', () => structuredClone(more));
    const reads = t.calls.filter((c) => c.method === 'sessionChanges').length;
    await act(async () => {
      t.push({
        kind: 'changes.updated',
        session: '',
        time: new Date().toISOString(),
        changes: { session: S, worktree: true, files: 2, added: 3, deleted: 1, missing: false },
      });
      await settle();
    });
    // The read waits out the panel's throttle (800 ms after the last one).
    await waitFor(() => expect(screen.getByTestId('changes-summary').textContent).toContain('2 files +3 −1'), { timeout: 10_000 });
    expect(t.calls.filter((c) => c.method === 'sessionChanges').length).toBe(reads + 1);
  });

  it('says when the worktree was deleted, with Archive to prune it', async () => {
    await renderPanel({ ...LIST, missing: true, files: [] });
    expect((await screen.findByTestId('changes-missing')).textContent).toContain('was deleted');
    expect(screen.getByTestId('changes-archive')).toBeTruthy();
  });
});

describe('pull request checks', () => {
  it('shows the checks gh reports once the pull request is opened, and reads them again', async () => {
    // The host's gh is not run here: the transport answers as the host does with gh's canned checks.
    const transport = new FakeTransport();
    transport.on('openPullRequest', () => ({ committed: false, pushed: true, remote: 'origin', url: 'https://github.example/o/r/pull/7', commands: [] }));
    let pending = true;
    transport.on('pullRequestChecks', () => ({
      checks: [
        { name: 'test', state: 'SUCCESS', bucket: 'pass', link: 'https://ci.example/1' },
        { name: 'lint', state: pending ? 'PENDING' : 'FAILURE', bucket: pending ? 'pending' : 'fail' },
      ],
      commands: [],
    }));
    const store = new ConsoleStore(transport, { schedule: (flush) => flush(), isForeground: () => true });
    render(
      <StoreProvider store={store}>
        <LandDialog session={S} base="main" branch="baton/a" onClose={() => undefined} onLanded={() => undefined} />
      </StoreProvider>,
    );
    await act(async () => {
      fireEvent.click(screen.getByTestId('land-pr'));
      await settle();
    });
    await waitFor(() => expect(screen.getAllByTestId('pr-check').map((c) => c.textContent)).toEqual(['✓ test success', '… lint pending']));
    pending = false;
    await act(async () => {
      fireEvent.click(screen.getByTestId('pr-checks-refresh'));
      await settle();
    });
    await waitFor(() => expect(screen.getAllByTestId('pr-check')[1]?.textContent).toBe('✗ lint failure'));
    expect(transport.calls.filter((c) => c.method === 'pullRequestChecks')).toEqual([
      { method: 'pullRequestChecks', params: { session: S } },
      { method: 'pullRequestChecks', params: { session: S } },
    ]);
  });
});
