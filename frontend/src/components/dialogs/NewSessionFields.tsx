// The fields of the new-session dialog: the folder (with the native picker where there is one), the model and
// the permission mode.
import { type ModelEntry, type PermissionMode, PERMISSION_MODES } from '../../protocol/events';
import { modelChoices } from '../composer/ModelPicker';
import { MODE_LABELS } from '../composer/ModePicker';

export function FolderField({ cwd, onChange, onPick }: { cwd: string; onChange: (cwd: string) => void; onPick: (() => void) | undefined }) {
  return (
    <label className="field">
      Folder
      <span className="folder-row">
        <input
          autoFocus
          type="text"
          value={cwd}
          onChange={(e) => onChange(e.target.value)}
          placeholder="/path/to/your/project"
          aria-label="Folder"
          data-testid="new-session-folder"
          spellCheck={false}
        />
        {onPick !== undefined && (
          <button type="button" onClick={onPick}>
            Choose…
          </button>
        )}
      </span>
    </label>
  );
}

export function ModelField({ model, models, note, onChange }: { model: string; models: ModelEntry[]; note: string | undefined; onChange: (model: string) => void }) {
  const described = new Map(models.map((m) => [m.value, m]));
  return (
    <label className="field">
      Model
      <select value={model} onChange={(e) => onChange(e.target.value)} data-testid="new-session-model">
        {modelChoices(
          models.map((m) => m.value),
          model,
        ).map((m) => (
          <option key={m} value={m} title={described.get(m)?.description ?? ''}>
            {described.get(m)?.displayName ?? m}
          </option>
        ))}
      </select>
      {note !== undefined && <span className="muted small">{note}</span>}
    </label>
  );
}

export function ModeField({ mode, onChange }: { mode: PermissionMode; onChange: (mode: PermissionMode) => void }) {
  return (
    <label className="field">
      Permissions
      <select value={mode} onChange={(e) => onChange(e.target.value as PermissionMode)} data-testid="new-session-mode">
        {PERMISSION_MODES.map((m) => (
          <option key={m} value={m}>
            {MODE_LABELS[m]}
          </option>
        ))}
      </select>
    </label>
  );
}
