// Settings in one place, saved in Baton's data dir (saveSettings): what a new session starts with (model, mode,
// whether it gets a worktree of its own and its branch's prefix), the theme, notifications and how long an idle
// session waits before it sleeps.
import { useState } from 'react';
import { toApiError, type Settings, type Theme } from '../../protocol/api';
import { PERMISSION_MODES, type PermissionMode } from '../../protocol/events';
import { MODE_LABELS } from '../../lib/names';
import { useConsole, useStore } from '../../store/hooks';
import { IDLE_CHOICES } from '../session/SleepState';
import { Modal } from './Modal';
import { DefaultModelField, WorktreeDefaultsFields } from './SettingsFields';
import { useAccountModels } from './useAccountModels';

const THEMES: ReadonlyArray<readonly [Theme, string]> = [
  ['system', 'Like the system'],
  ['light', 'Light'],
  ['dark', 'Dark'],
];

export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const store = useStore();
  const saved = useConsole((s) => s.settings);
  const [draft, setDraft] = useState<Settings | undefined>(saved);
  const [error, setError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const { models, note: modelsNote } = useAccountModels(store);
  if (draft === undefined) {
    return (
      <Modal title="Settings" onClose={onClose}>
        <p className="muted">This Baton keeps no settings (it has no data folder).</p>
      </Modal>
    );
  }
  const change = (next: Partial<Settings>) => setDraft({ ...draft, ...next });
  const save = async () => {
    setSaving(true);
    try {
      await store.saveSettings(draft);
      if (draft.notifications) store.askNotificationsNow();
      onClose();
    } catch (err) {
      setError(toApiError(err).message);
    } finally {
      setSaving(false);
    }
  };
  const idleChoices = IDLE_CHOICES.some(([v]) => v === draft.sessionIdleSeconds)
    ? IDLE_CHOICES
    : [...IDLE_CHOICES, [draft.sessionIdleSeconds, `${draft.sessionIdleSeconds} s`] as const];
  return (
    <Modal title="Settings" onClose={onClose}>
      <form
        className="settings-form"
        data-testid="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <fieldset>
          <legend>New sessions</legend>
          <DefaultModelField model={draft.defaultModel} models={models} note={modelsNote} onChange={(defaultModel) => change({ defaultModel })} />
          <label>
            Permissions{' '}
            <select
              value={draft.defaultPermissionMode}
              onChange={(e) => change({ defaultPermissionMode: e.target.value as PermissionMode })}
              data-testid="settings-mode"
            >
              {PERMISSION_MODES.filter((m) => m !== 'bypassPermissions').map((m) => (
                <option key={m} value={m}>
                  {MODE_LABELS[m]}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
        <WorktreeDefaultsFields value={draft.worktrees} onChange={(worktrees) => change({ worktrees })} />
        <fieldset>
          <legend>Look and signals</legend>
          <label>
            Theme{' '}
            <select value={draft.theme} onChange={(e) => change({ theme: e.target.value as Theme })} data-testid="settings-theme">
              {THEMES.map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label>
            <input
              type="checkbox"
              checked={draft.notifications}
              onChange={(e) => change({ notifications: e.target.checked })}
              data-testid="settings-notifications"
            />{' '}
            Notify me when a session needs me or finishes
          </label>
          <label>
            Sleep idle sessions after{' '}
            <select value={draft.sessionIdleSeconds} onChange={(e) => change({ sessionIdleSeconds: Number(e.target.value) })} data-testid="settings-idle">
              {idleChoices.map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
        {error !== undefined && (
          <div className="error-text small" role="alert">
            {error}
          </div>
        )}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={saving} data-testid="settings-save">
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}
