// The fields of the new-session dialog besides the folder (FolderField.tsx): the model and the permission mode.
import { type ModelEntry, type PermissionMode, PERMISSION_MODES } from '../../protocol/events';
import { modelChoices } from '../composer/ModelPicker';
import { MODE_LABELS } from '../composer/ModePicker';

/** A model select's options: the account's models (or the aliases), "default" and the requested one. */
export function ModelOptions({ model, models }: { model: string; models: ModelEntry[] }) {
  const described = new Map(models.map((m) => [m.value, m]));
  return modelChoices(
    models.map((m) => m.value),
    model,
  ).map((m) => (
    <option key={m} value={m} title={described.get(m)?.description ?? ''}>
      {described.get(m)?.displayName ?? m}
    </option>
  ));
}

export function ModelField({
  model,
  models,
  note,
  onChange,
}: {
  model: string;
  models: ModelEntry[];
  note: string | undefined;
  onChange: (model: string) => void;
}) {
  return (
    <label className="field">
      Model
      <select value={model} onChange={(e) => onChange(e.target.value)} data-testid="new-session-model">
        <ModelOptions model={model} models={models} />
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
