// Settings' fields that are more than one control: the default model (the account's models, or any model id) and
// the worktree defaults a new session starts with.
import { useState } from 'react';
import type { WorktreeDefaults } from '../../protocol/api';
import type { ModelEntry } from '../../protocol/events';
import { ModelOptions } from './NewSessionFields';

const OTHER = '__other';

export function DefaultModelField({
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
  // A model id typed by hand is edited in a text field; picking from the list leaves it.
  const [typing, setTyping] = useState(false);
  return (
    <>
      <label>
        Model{' '}
        <select
          value={typing ? OTHER : model}
          onChange={(e) => {
            const typed = e.target.value === OTHER;
            setTyping(typed);
            if (!typed) onChange(e.target.value);
          }}
          data-testid="settings-model"
          aria-describedby="settings-model-hint"
        >
          <ModelOptions model={model} models={models} />
          <option value={OTHER}>Another model id…</option>
        </select>
      </label>
      {typing && (
        <label>
          Model id <input autoFocus value={model} onChange={(e) => onChange(e.target.value)} placeholder="claude-…" data-testid="settings-model-id" />
        </label>
      )}
      <span id="settings-model-hint" className="muted small">
        {note ?? 'One your account offers, or another model id.'}
      </span>
    </>
  );
}

export function WorktreeDefaultsFields({ value, onChange }: { value: WorktreeDefaults; onChange: (next: WorktreeDefaults) => void }) {
  return (
    <fieldset>
      <legend>Worktrees</legend>
      <label>
        <input
          type="checkbox"
          checked={value.startInWorktree}
          onChange={(e) => onChange({ ...value, startInWorktree: e.target.checked })}
          data-testid="settings-start-in-worktree"
        />{' '}
        Start new sessions in a worktree of their own
      </label>
      <span className="muted small">The new-session dialog starts with it checked; uncheck it there for a folder outside git.</span>
      <label>
        Branch prefix{' '}
        <input
          value={value.branchPrefix}
          onChange={(e) => onChange({ ...value, branchPrefix: e.target.value })}
          placeholder="none"
          spellCheck={false}
          data-testid="settings-branch-prefix"
          aria-describedby="settings-branch-prefix-hint"
        />
      </label>
      <span id="settings-branch-prefix-hint" className="muted small">
        Starts the name of a branch named from the first prompt, unless the repository sets its own (git config baton.branchPrefix).
      </span>
    </fieldset>
  );
}
