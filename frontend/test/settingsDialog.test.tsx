// Settings' defaults reach the new-session dialog: the model picked from the account's list, the mode, and a
// worktree of its own (with its branch prefix); the dialog saves them whole (saveSettings).
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Settings } from '../src/protocol/api';
import { settle } from './fakeTransport';
import { renderConsole } from './render';

const saved: Settings = {
  defaultModel: 'default',
  defaultPermissionMode: 'default',
  theme: 'system',
  notifications: true,
  sessionIdleSeconds: 600,
  worktrees: { startInWorktree: false, branchPrefix: 'baton/' },
};

const models = {
  account: 'firstParty/api_key:abc',
  models: [
    { value: 'default', displayName: 'Default', description: '' },
    { value: 'opus', displayName: 'Opus', description: 'Most capable' },
  ],
};

async function openSettings() {
  await userEvent.click(screen.getByTestId('open-settings'));
  await act(() => settle());
}

describe('settings for new sessions', () => {
  it('saves the model picked from the account’s list, the mode and the worktree defaults', async () => {
    const { transport } = await renderConsole((t) => {
      t.on('getSettings', () => saved);
      t.on('listModels', () => models);
      t.on('saveSettings', (p) => p);
    });
    await openSettings();
    const model = screen.getByTestId('settings-model');
    expect([...model.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['Default', 'Opus', 'Another model id…']);
    await userEvent.selectOptions(model, 'opus');
    await userEvent.selectOptions(screen.getByTestId('settings-mode'), 'plan');
    await userEvent.click(screen.getByTestId('settings-start-in-worktree'));
    const prefix = screen.getByTestId('settings-branch-prefix');
    await userEvent.clear(prefix);
    await userEvent.type(prefix, 'me/');
    await userEvent.click(screen.getByTestId('settings-save'));
    await act(() => settle());
    expect(transport.callsOf('saveSettings')).toEqual([
      { ...saved, defaultModel: 'opus', defaultPermissionMode: 'plan', worktrees: { startInWorktree: true, branchPrefix: 'me/' } },
    ]);
  });

  it('takes a model id typed by hand', async () => {
    const { transport } = await renderConsole((t) => {
      t.on('getSettings', () => saved);
      t.on('listModels', () => models);
      t.on('saveSettings', (p) => p);
    });
    await openSettings();
    await userEvent.selectOptions(screen.getByTestId('settings-model'), '__other');
    await userEvent.clear(screen.getByTestId('settings-model-id'));
    await userEvent.type(screen.getByTestId('settings-model-id'), 'claude-x-1');
    await userEvent.click(screen.getByTestId('settings-save'));
    await act(() => settle());
    expect(transport.callsOf('saveSettings')).toMatchObject([{ defaultModel: 'claude-x-1' }]);
  });

  it('opens the new-session dialog on the saved model, mode and worktree', async () => {
    const { transport } = await renderConsole((t) => {
      t.on('getSettings', () => ({
        ...saved,
        defaultModel: 'opus',
        defaultPermissionMode: 'acceptEdits',
        worktrees: { startInWorktree: true, branchPrefix: 'me/' },
      }));
      t.on('listModels', () => models);
      t.on('startSession', () => ({ session: 'w-1' }));
    });
    await userEvent.click(screen.getByTestId('new-session'));
    await act(() => settle());
    expect((screen.getByTestId('new-session-model') as HTMLSelectElement).value).toBe('opus');
    expect((screen.getByTestId('new-session-mode') as HTMLSelectElement).value).toBe('acceptEdits');
    expect((screen.getByTestId('new-session-worktree') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/default: me\/…, named from the prompt/)).toBeTruthy();
    await userEvent.type(screen.getByTestId('new-session-folder'), '/repo{Enter}');
    await act(() => settle());
    expect(transport.callsOf('startSession')).toEqual([{ cwd: '/repo', model: 'opus', permissionMode: 'acceptEdits', worktree: {} }]);
  });
});
