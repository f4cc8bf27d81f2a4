import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SleepBadge, WAKING_SHOWN_AFTER_MS } from '../src/components/session/SleepState';
import { newSession } from '../src/store/fold';
import { StoreProvider } from '../src/store/hooks';
import { ConsoleStore } from '../src/store/store';
import type { SessionState } from '../src/store/types';
import type { ProvisionState } from '../src/protocol/hostState';
import type { ConsoleEvent, SessionEvent } from '../src/protocol/events';
import { FakeTransport, settle } from './fakeTransport';
import { lasting, liveSession, RECORDED_SESSION, recordedWithUnknown } from './fixtures';
import { renderConsole } from './render';

const S = RECORDED_SESSION;
const T = '2026-01-01T00:00:00.000Z';
const events = recordedWithUnknown();
const turnStart = (turn: string) => events.findIndex((e) => e.kind === 'turn.started' && e.turn === turn);
const firstAfter = (from: number, match: (e: SessionEvent) => boolean) => from + events.slice(from).findIndex(match);

const dock = () => document.querySelector('.permission-dock');

describe('replaying the recorded session in the console', () => {
  it('streams replies, shows raw rows, and runs the permission-card flow', async () => {
    const t3 = turnStart('t3');
    const { transport, push, select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession(lasting(events.slice(0, turnStart('t2'))))] };
      t.on('answerPermission', () => ({ settled: true }));
    });
    await select(S);
    expect(screen.getAllByTestId('user-message')[0]?.textContent).toContain('Hello! What can you do?');
    expect(screen.getByText('You said: Hello! What can you do?')).toBeTruthy();
    expect(screen.getByTestId('unknown-row').textContent).toContain('brand_new_message');

    // Turn t2 streams: the piece written so far shows before the message completes.
    const firstDelta = firstAfter(turnStart('t2'), (e) => e.kind === 'message.delta' && e.block === 'text');
    await push(...events.slice(turnStart('t2'), firstDelta + 1));
    expect(screen.getByText(/You said: \[think\] Plan t/).closest('[aria-busy="true"]')).toBeTruthy();
    // The CLI counts finished requests; the text still streaming is estimated on top (≈).
    expect(screen.getByTestId('tokens-live').textContent).toMatch(/≈\d+ tokens/);
    await push(...events.slice(firstDelta + 1, t3));
    expect(screen.getByText('You said: [think] Plan the release notes.').closest('[aria-busy="true"]')).toBeNull();
    expect(screen.getByText('Thought')).toBeTruthy();

    // t3 asks to Write: the card waits in the dock; Allow answers it once.
    const ask = firstAfter(t3, (e) => e.kind === 'permission.requested');
    await push(...events.slice(t3, ask + 1));
    const card = within(dock() as HTMLElement).getByTestId('permission-card');
    expect(card.textContent).toContain('notes.txt');
    expect(screen.getByTestId('permission-row').textContent).toContain('waiting for your answer');
    await userEvent.click(within(card).getByRole('button', { name: 'Allow' }));
    const request = events[ask]?.kind === 'permission.requested' ? events[ask].requestId : '';
    expect(transport.callsOf('answerPermission')).toEqual([{ session: S, requestId: request, verdict: 'allow' }]);
    await push(...events.slice(ask + 1, turnStart('t4')));
    expect(dock()).toBeNull();
    expect(screen.getAllByTestId('permission-row')[0]?.textContent).toBe('Write: Allowed');
    expect(screen.getByText('Create')).toBeTruthy();

    // t4: denied with a message.
    const t4 = turnStart('t4');
    const ask4 = firstAfter(t4, (e) => e.kind === 'permission.requested');
    await push(...events.slice(t4, ask4 + 1));
    const card4 = within(dock() as HTMLElement).getByTestId('permission-card');
    // Issue 24 renamed the choices on purpose: a plain Deny stops Claude, a message goes with "Deny and tell Claude".
    await userEvent.click(within(card4).getByRole('button', { name: 'Deny with a message…' }));
    await userEvent.type(within(card4).getByLabelText('Message with the denial'), 'Not that file');
    await userEvent.click(within(card4).getByRole('button', { name: 'Deny and tell Claude' }));
    expect(transport.callsOf('answerPermission').at(-1)).toMatchObject({ verdict: 'deny', message: 'Not that file' });
    await push(...events.slice(ask4 + 1, turnStart('t9')));
    expect(screen.getAllByTestId('permission-row')[1]?.textContent).toBe('Write: Denied — “Not that file”');

    // t9: "always allow" says which rule it adds; the verdict comes from another window.
    const t9 = turnStart('t9');
    const ask9 = firstAfter(t9, (e) => e.kind === 'permission.requested');
    await push(...events.slice(t9, ask9 + 1));
    const card9 = within(dock() as HTMLElement).getByTestId('permission-card');
    expect(card9.textContent).toContain('Always allow will switch permissions to “Accept edits” for this session.');
    expect(within(card9).getByTestId('diff').textContent).toContain('Final readme.');
    await push(...events.slice(ask9 + 1));
    expect(dock()).toBeNull();
    expect(screen.getAllByTestId('permission-row')[2]?.textContent).toBe('Edit: Always allowed in another window');
    expect(screen.getByTestId('plan-panel').textContent).toContain('Write the release notes');
    expect(screen.getByTestId('context-gauge').textContent).toContain('% context');
    expect(screen.getByText('Session closed')).toBeTruthy();
  });
});

describe('the composer', () => {
  const running: ConsoleEvent[] = [
    { kind: 'session.started', session: S, time: T, cwd: '/p', model: 'default', permissionMode: 'default', resumed: false, seq: 1 },
    { kind: 'turn.started', session: S, turn: 't1', time: T, prompt: 'first', uuid: 'u1', seq: 2 },
  ];

  it('sends on Enter, adds a line on Shift+Enter, queues while a turn runs and removes a queued prompt', async () => {
    const { transport, select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession(running)] };
      t.on('sendPrompt', () => ({ turn: 't2', queued: true }));
      t.on('cancelTurn', () => ({ disposition: 'pre_accept', turn: 't2', phase: 'queued', forced: false }));
    });
    await select(S);
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    await userEvent.type(input, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(input.value).toBe('line one\nline two');
    expect(transport.callsOf('sendPrompt')).toHaveLength(0);
    await userEvent.type(input, '{Enter}');
    await act(() => settle());
    expect(transport.callsOf('sendPrompt')).toEqual([{ session: S, prompt: 'line one\nline two' }]);
    expect(input.value).toBe('');
    const queued = screen.getByTestId('queued-turns');
    expect(queued.textContent).toContain('line one');
    await userEvent.click(within(queued).getByRole('button', { name: /Remove queued prompt/ }));
    await act(() => settle());
    expect(transport.callsOf('cancelTurn')).toEqual([{ session: S, turn: 't2' }]);
    expect(screen.queryByTestId('queued-turns')).toBeNull();
  });

  it('cancels the running turn with Esc, naming it', async () => {
    const { transport, select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession(running)] };
      t.on('cancelTurn', () => ({ disposition: 'provider_active', turn: 't1', phase: 'dispatched', forced: false }));
    });
    await select(S);
    fireEvent.keyDown(screen.getByTestId('composer-input'), { key: 'Escape' });
    await act(() => settle());
    expect(transport.callsOf('cancelTurn')).toEqual([{ session: S, turn: 't1' }]);
  });

  it('steers the running turn with the Steer button, and shows the guidance as steering', async () => {
    const { transport, push, select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession(running)] };
      t.on('guideTurn', () => ({ turn: 't1', guided: true }));
    });
    await select(S);
    await userEvent.type(screen.getByTestId('composer-input'), 'shorter, please');
    await userEvent.click(screen.getByTestId('steer'));
    await act(() => settle());
    expect(transport.callsOf('guideTurn')).toEqual([{ session: S, prompt: 'shorter, please' }]);
    expect(transport.callsOf('sendPrompt')).toHaveLength(0);
    await push({ kind: 'turn.guided', session: S, turn: 't1', time: T, prompt: 'shorter, please', seq: 3 });
    expect(screen.getByTestId('steered')).toBeTruthy();
    expect(screen.getAllByTestId('user-message').at(-1)?.textContent).toContain('shorter, please');
  });

  it('shows Stopping… until the turn ends, then says it was force-stopped', async () => {
    let answer: (() => void) | undefined;
    const { push, select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession(running)] };
      t.on(
        'cancelTurn',
        () =>
          new Promise((resolve) => {
            answer = () => resolve({ disposition: 'provider_active', turn: 't1', phase: 'dispatched', forced: true });
          }),
      );
    });
    await select(S);
    await userEvent.click(screen.getByTestId('cancel-turn'));
    await act(() => settle());
    const button = screen.getByTestId('cancel-turn') as HTMLButtonElement;
    expect(button.textContent).toBe('Stopping…');
    expect(button.disabled).toBe(true);
    await push({ kind: 'turn.canceled', session: S, turn: 't1', time: T, disposition: 'provider_active', forced: true, seq: 3 });
    answer?.();
    await act(() => settle());
    expect(screen.queryByTestId('cancel-turn')).toBeNull();
    expect(screen.getByTestId('turn-canceled').textContent).toContain('Force-stopped: Claude Code did not answer');
  });

  it('shows the requested and the effective model honestly, and no gauge without a context window', async () => {
    const { select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession(running, { effectiveModel: 'claude-opus-5-5' })] };
    });
    await select(S);
    const picker = screen.getByTestId('model-picker');
    expect((within(picker).getByRole('combobox') as HTMLSelectElement).value).toBe('default');
    expect(screen.getByTestId('effective-model').textContent).toBe('runs claude-opus-5-5');
    expect(screen.queryByTestId('context-gauge')).toBeNull();
  });

  it('offers the models, slash commands and context measure the CLI reports (protocol v2 side reads)', async () => {
    const { push, select, transport } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession(running)] };
      t.on('setModel', () => ({}));
    });
    await select(S);
    await push(
      {
        kind: 'models.updated',
        session: S,
        time: T,
        models: [
          { value: 'default', displayName: 'Default (recommended)', description: '' },
          { value: 'sonnet', displayName: 'Sonnet', description: '' },
        ],
      },
      {
        kind: 'commands.updated',
        session: S,
        time: T,
        commands: [
          { name: 'compact', description: 'Clear history but keep a summary' },
          { name: 'cost', description: '' },
        ],
      },
      { kind: 'context.updated', session: S, time: T, totalTokens: 50_000, maxTokens: 200_000, percentage: 25 },
      { kind: 'session.updated', session: S, turn: 't1', time: T, ephemeral: true, status: 'compacting' },
    );
    const picker = within(screen.getByTestId('model-picker')).getByRole('combobox');
    expect([...picker.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['Default (recommended)', 'Sonnet', 'other…']);
    await userEvent.selectOptions(picker, 'sonnet');
    expect(transport.callsOf('setModel')).toEqual([{ session: S, model: 'sonnet' }]);
    expect(screen.getByTestId('context-gauge').textContent).toContain('25% context');
    expect(screen.getByTestId('tokens-live').textContent).toContain('compacting…');
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    await userEvent.type(input, '/co');
    expect(screen.getByTestId('command-hints').textContent).toContain('/compact');
    await userEvent.keyboard('{Tab}');
    expect(input.value).toBe('/compact ');
    expect(screen.queryByTestId('command-hints')).toBeNull();
  });

  it('confirms bypass mode first and shows the CLI’s refusal', async () => {
    const { transport, select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession(running)] };
      t.on('setPermissionMode', () =>
        Promise.reject({ code: 'internal', message: '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons' }),
      );
    });
    await select(S);
    const select_ = within(screen.getByTestId('mode-picker')).getByRole('combobox');
    await userEvent.selectOptions(select_, 'bypassPermissions');
    expect(transport.callsOf('setPermissionMode')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Bypass permissions' }));
    await act(() => settle());
    expect(transport.callsOf('setPermissionMode')).toEqual([{ session: S, mode: 'bypassPermissions' }]);
    expect(screen.getByTestId('bypass-refused').textContent).toContain('root/sudo');
    expect(screen.getByTestId('bypass-refused').textContent).toContain('IS_SANDBOX=1');
  });
});

describe('rewind', () => {
  it('shows the dry-run counts before rewinding files and conversation', async () => {
    const { transport, select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession(lasting(events.slice(0, turnStart('t4'))))] };
      t.on('rewindFiles', (p) =>
        p.dryRun ? { canRewind: true, filesChanged: ['/home/user/project/notes.txt'], insertions: 0, deletions: 1 } : { canRewind: true },
      );
      t.on('rewindConversation', (p) => ({ session: p.session }));
      t.on('history', () => ({ events: [], total: 0, start: 0 }));
    });
    await select(S);
    const prompt = screen.getByText('[write notes.txt Release notes: everything is faster.]').closest('[data-testid="user-message"]') as HTMLElement;
    // Virtuoso keeps its list visibility:hidden until it has measured, which happy-dom never does: find by text.
    await userEvent.click(within(prompt).getByText('Rewind…'));
    await act(() => settle());
    expect(transport.callsOf('rewindFiles')).toEqual([{ session: S, message: '7d3c1e2a-0000-4000-8000-000000000003', dryRun: true }]);
    expect(screen.getByTestId('rewind-counts').textContent).toBe('1 file would change: +0 −1');
    expect(screen.getByText('/home/user/project/notes.txt')).toBeTruthy();
    await userEvent.click(screen.getByTestId('rewind-confirm'));
    await act(() => settle());
    expect(transport.callsOf('rewindFiles').at(-1)).toMatchObject({ dryRun: false });
    expect(transport.callsOf('rewindConversation')).toEqual([{ session: S, message: '7d3c1e2a-0000-4000-8000-000000000003' }]);
  });
});

describe('the sidebar and the shell', () => {
  it('lists sessions newest first, marks live and waiting ones, and filters', async () => {
    const { push } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession([])] };
      t.on('listSessions', () => ({
        sessions: [
          { session: S, title: 'Release notes', cwd: '/home/user/project', lastModified: Date.now(), live: true, pinned: false, archived: false },
          {
            session: 'old',
            title: 'Fix the parser',
            cwd: '/home/user/parser',
            lastModified: Date.now() - 86_400_000,
            live: false,
            pinned: false,
            archived: false,
          },
        ],
      }));
    });
    const entries = () => screen.getAllByTestId('session-entry');
    expect(entries().map((e) => e.querySelector('.entry-title')?.textContent)).toEqual(['Release notes', 'Fix the parser']);
    expect(entries()[0]?.querySelector('.dot.live')).toBeTruthy();
    await push({
      kind: 'permission.requested',
      session: S,
      turn: 't',
      time: T,
      requestId: 'r',
      toolUseId: 'x',
      toolName: 'Bash',
      toolKind: 'shell',
      toolTitle: 'Bash',
      input: {},
      suggestions: [],
      seq: 1,
    });
    expect(within(entries()[0] as HTMLElement).getByTestId('mark-permission')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Filter sessions'), 'parser');
    expect(entries()).toHaveLength(1);
    await userEvent.clear(screen.getByLabelText('Filter sessions'));
    await userEvent.selectOptions(screen.getByLabelText('Filter by project'), '/home/user/project');
    expect(entries().map((e) => e.dataset.session)).toEqual([S]);
  });

  it('shows a session working in the background: its tasks with Stop, the goal with Clear, and the sidebar mark', async () => {
    const { push, transport, select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession([])] };
      t.on('listSessions', () => ({
        sessions: [{ session: S, title: 'Release notes', cwd: '/home/user/project', lastModified: Date.now(), live: true, pinned: false, archived: false }],
      }));
      t.on('stopTask', () => ({}));
      t.on('sendToBackground', () => ({ backgrounded: true }));
      t.on('sendPrompt', () => ({ turn: 'g2', queued: false }));
    });
    await select(S);
    expect(screen.queryByTestId('background-work')).toBeNull();
    expect(screen.queryByTestId('mark-background')).toBeNull();
    await push(
      { kind: 'tasks.updated', session: S, time: T, seq: 1, tasks: [{ taskId: 'b1', taskType: 'local_bash', description: 'npm run build' }] },
      { kind: 'task.started', session: S, time: T, seq: 2, taskId: 'b1', taskType: 'local_bash', description: 'npm run build', backgrounded: true },
      { kind: 'goal.updated', session: S, time: T, seq: 3, goal: { condition: 'the build passes', met: false, iterations: 1, lastReason: 'one error left' } },
    );
    expect(screen.getByTestId('background-task').textContent).toContain('npm run build');
    expect(screen.getByTestId('mark-background').textContent).toBe('1 in background');
    expect(screen.getByTestId('goal').textContent).toContain('the build passes');
    expect(screen.getByTestId('goal').textContent).toContain('one error left');
    await userEvent.click(within(screen.getByTestId('background-task')).getByRole('button', { name: 'Stop' }));
    expect(transport.callsOf('stopTask')).toEqual([{ session: S, taskId: 'b1' }]);
    await userEvent.click(within(screen.getByTestId('goal')).getByRole('button', { name: 'Clear' }));
    expect(transport.callsOf('sendPrompt').at(-1)).toEqual({ session: S, prompt: '/goal clear' });
    await push({ kind: 'tasks.updated', session: S, time: T, seq: 4, tasks: [] }, { kind: 'goal.updated', session: S, time: T, seq: 5 });
    expect(screen.queryByTestId('background-work')).toBeNull();
    expect(screen.queryByTestId('mark-background')).toBeNull();
    // A running foreground command can be sent to the background; one already there cannot.
    await push(
      { kind: 'turn.started', session: S, turn: 'b', time: T, seq: 6, prompt: 'build it' },
      {
        kind: 'tool.started',
        session: S,
        turn: 'b',
        time: T,
        seq: 7,
        toolUseId: 'toolu_fg',
        name: 'Bash',
        toolKind: 'shell',
        title: 'Bash',
        input: { command: 'npm run build' },
      },
      {
        kind: 'tool.started',
        session: S,
        turn: 'b',
        time: T,
        seq: 8,
        toolUseId: 'toolu_bg',
        name: 'Bash',
        toolKind: 'shell',
        title: 'Bash',
        input: { command: 'npm run dev', run_in_background: true },
      },
    );
    expect(screen.getAllByTestId('send-to-background')).toHaveLength(1);
    await userEvent.click(screen.getByTestId('send-to-background'));
    expect(transport.callsOf('sendToBackground')).toEqual([{ session: S, toolUseId: 'toolu_fg' }]);
  });

  it('settles a canceled turn: its open tool reads canceled with no running pill or Background, its reply stays', async () => {
    const { push, select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession([])] };
      t.on('listSessions', () => ({
        sessions: [{ session: S, title: 'Stop me', cwd: '/home/user/project', lastModified: Date.now(), live: true, pinned: false, archived: false }],
      }));
    });
    await select(S);
    await push(
      { kind: 'turn.started', session: S, turn: 'c', time: T, seq: 1, prompt: 'run it' },
      {
        kind: 'tool.started',
        session: S,
        turn: 'c',
        time: T,
        seq: 2,
        toolUseId: 'toolu_sleep',
        name: 'Bash',
        toolKind: 'shell',
        title: 'Bash',
        input: { command: 'sleep 30' },
      },
    );
    expect(screen.getAllByTestId('send-to-background')).toHaveLength(1);
    await push(
      { kind: 'tool.interrupted', session: S, turn: 'c', time: T, seq: 3, toolUseId: 'toolu_sleep', name: 'Bash', cause: 'cancel' },
      { kind: 'message.delta', session: S, turn: 'c', time: T, seq: 4, ephemeral: true, messageId: 'm9', index: 0, block: 'text', text: 'Half of an ans' },
      { kind: 'message.completed', session: S, turn: 'c', time: T, seq: 5, role: 'assistant', messageId: 'm9', text: 'Half of an ans', stopped: true },
      { kind: 'turn.canceled', session: S, turn: 'c', time: T, seq: 6, disposition: 'provider_active', forced: false },
    );
    expect(screen.getByTestId('tool-canceled').textContent).toBe('canceled');
    expect(screen.queryByTestId('send-to-background')).toBeNull();
    expect(document.querySelector('.pill.running')).toBeNull();
    expect(screen.getAllByTestId('assistant-message').at(-1)?.textContent).toContain('Half of an ans');
    expect(screen.getByTestId('reply-stopped')).toBeTruthy();
    expect(screen.getByTestId('turn-canceled').textContent).toBe('Canceled');
  });

  it('shows a provisioning progress bar, then a failure with hints and Retry', async () => {
    const { push } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, provisioning: { state: 'downloading', bytes: 0 } };
    });
    // The host pushes the whole provisioning state each time (API.md).
    const provisioning = (p: ProvisionState) => push({ kind: 'provision.state', session: '', time: T, provisioning: p });
    await provisioning({ state: 'downloading', bytes: 50 * 1024 * 1024, total: 200 * 1024 * 1024, rate: 10 * 1024 * 1024, source: 'npm registry' });
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(screen.getByTestId('provisioning').textContent).toContain('50.0 MB of 200.0 MB · 10.0 MB/s · from npm registry');
    await provisioning({ state: 'failed', message: 'checksum mismatch', hints: ['Check your proxy settings.'] });
    expect(screen.getByText('Check your proxy settings.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    await provisioning({ state: 'ready' });
    expect(screen.queryByTestId('provisioning')).toBeNull();
    expect(screen.getByTestId('welcome')).toBeTruthy();
  });

  it('follows the host’s whole-state pushes: provisioning retried, then signed out with a way to sign in', async () => {
    const { transport, push } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, provisioning: { state: 'failed', message: 'Could not reach the release server', hints: ['Set BATON_NPM_REGISTRY'] } };
      t.on('retryProvision', () => ({}));
      t.on('signIn', () => ({}));
    });
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(transport.callsOf('retryProvision')).toHaveLength(1);
    await push({ kind: 'provision.state', session: '', time: T, provisioning: { state: 'downloading', bytes: 1024, total: 4096, source: 'cdn' } });
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    await push({ kind: 'provision.state', session: '', time: T, provisioning: { state: 'ready', source: 'cdn' } });
    await push({
      kind: 'auth.changed',
      session: '',
      time: T,
      auth: { status: 'signed_out', summary: 'Not signed in', reason: 'No credentials were found.', signInCommand: 'claude auth login' },
    });
    const auth = screen.getByTestId('auth-status');
    expect(auth.textContent).toContain('Not signed in');
    expect(auth.textContent).toContain('No credentials were found.');
    expect(auth.textContent).toContain('claude auth login');
    await userEvent.click(within(auth).getByRole('button', { name: 'Sign in…' }));
    expect(transport.callsOf('signIn')).toHaveLength(1);
  });

  it('starts a session from the one new-session dialog: the native picker in the window, a first prompt, then the composer', async () => {
    let picked: string | null = null;
    const { transport } = await renderConsole((t) => {
      t.caps = { ...t.caps, transport: 'wails', folderPicker: true };
      t.on('pickFolder', () => ({ path: picked }));
      t.on('startSession', () => ({ session: 'picked-1' }));
      t.on('sendPrompt', () => ({ turn: 't1', queued: false }));
      t.on('completePath', () => ({ dir: '/home/user', entries: [], truncated: false }));
    });
    await userEvent.click(screen.getByTestId('new-session'));
    await act(() => settle());
    await userEvent.click(screen.getByRole('button', { name: 'Choose…' }));
    await act(() => settle());
    // Canceled in the picker: nothing starts, the folder stays empty.
    expect(transport.callsOf('startSession')).toHaveLength(0);
    expect((screen.getByTestId('new-session-folder') as HTMLInputElement).value).toBe('');
    picked = '/home/user/picked';
    await userEvent.click(screen.getByRole('button', { name: 'Choose…' }));
    await act(() => settle());
    expect((screen.getByTestId('new-session-folder') as HTMLInputElement).value).toBe('/home/user/picked');
    await userEvent.type(screen.getByTestId('new-session-prompt'), 'Summarize the README');
    await userEvent.click(screen.getByTestId('new-session-start'));
    await act(() => settle());
    expect(transport.callsOf('startSession')).toEqual([{ cwd: '/home/user/picked', permissionMode: 'default' }]);
    expect(transport.callsOf('sendPrompt')).toEqual([{ session: 'picked-1', prompt: 'Summarize the README' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('composer-input')).toBeTruthy();
  });

  it('offers the account’s models in the new-session form, asking the host once per sign-in', async () => {
    const { transport, push } = await renderConsole((t) => {
      t.on('listModels', () => ({
        account: 'firstParty/api_key:abc',
        models: [
          { value: 'default', displayName: 'Default', description: '' },
          { value: 'opus', displayName: 'Opus', description: 'Most capable' },
        ],
      }));
      t.on('startSession', () => ({ session: 'm-1' }));
    });
    await userEvent.click(screen.getByTestId('new-session'));
    await act(() => settle());
    const select = screen.getByTestId('new-session-model');
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['Default', 'Opus']);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByTestId('new-session'));
    await act(() => settle());
    expect(transport.callsOf('listModels')).toHaveLength(1);
    await userEvent.keyboard('{Escape}');
    await push({ kind: 'auth.changed', session: '', time: T, auth: { status: 'signed_in', method: 'claude_ai', summary: 'Signed in with Claude Max' } });
    await userEvent.click(screen.getByTestId('new-session'));
    await act(() => settle());
    expect(transport.callsOf('listModels')).toHaveLength(2);
    await userEvent.selectOptions(screen.getByTestId('new-session-model'), 'opus');
    await userEvent.type(screen.getByTestId('new-session-folder'), '/w{Enter}');
    await act(() => settle());
    expect(transport.callsOf('startSession').at(-1)).toMatchObject({ model: 'opus' });
  });

  it('shows a refused API key once, as a key to fix (no sign-in), with Retry sending the prompt again', async () => {
    const { transport, push, select } = await renderConsole((t) => {
      t.snapshot = {
        ...t.snapshot,
        auth: { status: 'signed_in', method: 'api_key', keySource: 'ANTHROPIC_API_KEY', summary: 'Using an API key', signInCommand: 'claude auth login' },
        sessions: [liveSession([])],
      };
      t.on('sendPrompt', () => ({ turn: 't2', queued: false }));
    });
    await select(S);
    await push(
      { kind: 'turn.started', session: S, turn: 't1', time: T, prompt: 'hi', seq: 1 },
      // The SDK's stand-in reply says what the failure says.
      { kind: 'message.completed', session: S, turn: 't1', time: T, role: 'assistant', text: 'Invalid API key · Fix external API key', seq: 2 },
      { kind: 'turn.failed', session: S, turn: 't1', time: T, code: 'auth', message: 'Invalid API key · Fix external API key', seq: 3 },
    );
    const row = await screen.findByTestId('error-row');
    expect(row.textContent).toContain('The API key was refused');
    expect(row.textContent).toContain('ANTHROPIC_API_KEY');
    expect(row.textContent).not.toContain('code:');
    expect(within(row).queryByText('Sign in…')).toBeNull();
    expect(screen.queryAllByText(/Invalid API key/)).toHaveLength(1);
    await userEvent.click(within(row).getByTestId('retry-turn'));
    await act(() => settle());
    expect(transport.callsOf('sendPrompt')).toEqual([{ session: S, prompt: 'hi' }]);
  });

  it('shows a refused sign-in with the way to sign in', async () => {
    const { transport, push, select } = await renderConsole((t) => {
      t.snapshot = {
        ...t.snapshot,
        auth: { status: 'signed_out', method: 'claude_ai', summary: 'Not signed in', signInCommand: 'claude auth login' },
        sessions: [liveSession([])],
      };
      t.on('signIn', () => Promise.reject({ code: 'unavailable', message: 'Baton cannot open a terminal here; run the sign-in command shown.' }));
    });
    await select(S);
    await push(
      { kind: 'turn.started', session: S, turn: 't1', time: T, prompt: 'hi', seq: 1 },
      { kind: 'turn.failed', session: S, turn: 't1', time: T, code: 'auth', message: 'not signed in', seq: 2 },
    );
    const row = await screen.findByTestId('error-row');
    expect(row.textContent).toContain('Not signed in');
    expect(row.textContent).toContain('claude auth login');
    await userEvent.click(within(row).getByText('Sign in…'));
    await act(() => settle());
    expect(transport.callsOf('signIn')).toHaveLength(1);
    expect(screen.getByTestId('toast').textContent).toContain('run the sign-in command shown');
  });

  it('opens the new-session dialog with Alt+N and starts a session in the typed folder', async () => {
    const { transport } = await renderConsole((t) => {
      t.on('startSession', () => ({ session: 'new-1' }));
    });
    fireEvent.keyDown(window, { key: 'n', code: 'KeyN', altKey: true });
    await act(() => settle());
    const folder = screen.getByTestId('new-session-folder');
    await userEvent.clear(folder);
    await userEvent.type(folder, '/tmp/project{Enter}');
    await act(() => settle());
    expect(transport.callsOf('startSession')).toEqual([{ cwd: '/tmp/project', permissionMode: 'default' }]);
    expect(screen.getByTestId('conversation-empty')).toBeTruthy();
  });
});

describe('sleep and wake in the console', () => {
  const state = (s: 'asleep' | 'waking' | 'awake'): SessionEvent => ({ kind: 'session.updated', session: S, time: T, state: s });

  it('marks an asleep session until it is awake again, and sets the idle time through the host', async () => {
    const { transport, push, select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessionIdleSeconds: 600, sessions: [liveSession(lasting(events.slice(0, turnStart('t2'))), { state: 'asleep' })] };
      t.on('setSessionIdle', (p) => p);
    });
    await select(S);
    expect(screen.getByTestId('session-asleep')).toBeTruthy();
    expect(screen.getByLabelText('asleep')).toBeTruthy(); // the sidebar's dot

    await push(state('waking'), state('awake'));
    expect(screen.queryByTestId('session-asleep')).toBeNull();
    expect(screen.queryByTestId('session-waking')).toBeNull(); // a quick wake says nothing

    fireEvent.change(screen.getByTestId('idle-setting'), { target: { value: '0' } });
    await act(async () => {
      await settle();
    });
    expect(transport.callsOf('setSessionIdle')).toEqual([{ seconds: 0 }]);
  });

  it('says waking… only once waking took longer than a moment', () => {
    vi.useFakeTimers();
    try {
      const store = new ConsoleStore(new FakeTransport());
      const badge = (s: SessionState) => (
        <StoreProvider store={store}>
          <SleepBadge session={s} />
        </StoreProvider>
      );
      const session = { ...newSession({ id: S, cwd: '/p' }), live: true, sleep: 'waking' as const };
      const view = render(badge(session));
      act(() => vi.advanceTimersByTime(WAKING_SHOWN_AFTER_MS - 1));
      expect(screen.queryByTestId('session-waking')).toBeNull();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.getByTestId('session-waking').textContent).toBe('waking…');
      const { sleep: _, ...awake } = session;
      view.rerender(badge(awake));
      expect(screen.queryByTestId('session-waking')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says nothing of a wake begun as the prompt is typed until the prompt is sent', () => {
    vi.useFakeTimers();
    try {
      const transport = new FakeTransport().on('wakeSession', () => new Promise(() => undefined));
      const store = new ConsoleStore(transport);
      const badge = (s: SessionState) => (
        <StoreProvider store={store}>
          <SleepBadge session={s} />
        </StoreProvider>
      );
      const asleep = { ...newSession({ id: S, cwd: '/p' }), live: true, sleep: 'asleep' as const };
      store.waker.typing(asleep);
      const view = render(badge({ ...asleep, sleep: 'waking' }));
      act(() => vi.advanceTimersByTime(WAKING_SHOWN_AFTER_MS));
      expect(screen.queryByTestId('session-waking')).toBeNull();
      // Sent while it still wakes: now someone waits, and the next wait past the moment says so.
      store.waker.sent(S);
      view.rerender(badge(asleep));
      view.rerender(badge({ ...asleep, sleep: 'waking' }));
      act(() => vi.advanceTimersByTime(WAKING_SHOWN_AFTER_MS));
      expect(screen.getByTestId('session-waking').textContent).toBe('waking…');
    } finally {
      vi.useRealTimers();
    }
  });
});
