// The model: what was asked for (requested; "default" stays "default") and what the CLI says it runs
// (effective), side by side.
import { useState } from 'react';
import { modelName } from '../../lib/names';
import { useStore } from '../../store/hooks';
import type { SessionState } from '../../store/types';

/** Until the CLI lists its models (models.updated), the aliases it always takes. */
export const MODEL_CHOICES = ['default', 'opus', 'sonnet', 'haiku'];

/** The CLI's list (or the aliases), always with "default" and with whatever is requested now. */
export function modelChoices(listed: readonly string[], requested: string): string[] {
  const base = listed.length > 0 ? listed : MODEL_CHOICES;
  const out = base.includes('default') ? [...base] : ['default', ...base];
  if (!out.includes(requested)) out.push(requested);
  return out;
}

export function ModelPicker({ session }: { session: SessionState }) {
  const store = useStore();
  const [custom, setCustom] = useState(false);
  const requested = session.requestedModel;
  const choices = modelChoices(
    session.models.map((m) => m.value),
    requested,
  );
  const described = new Map(session.models.map((m) => [m.value, m]));
  return (
    <span className="picker" data-testid="model-picker">
      {/* biome-ignore lint/a11y/noLabelWithoutControl: the label holds its control (a select, or an input for another model). */}
      <label>
        Model{' '}
        {custom ? (
          <input
            autoFocus
            className="model-input"
            aria-label="Model name"
            placeholder="model id"
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                const value = e.currentTarget.value.trim();
                if (value !== '') void store.setModel(session.id, value);
                setCustom(false);
              } else if (e.key === 'Escape') {
                e.stopPropagation();
                setCustom(false);
              }
            }}
            onBlur={() => setCustom(false)}
          />
        ) : (
          <select
            value={requested}
            disabled={!session.live}
            onChange={(e) => {
              if (e.target.value === '__other') setCustom(true);
              else void store.setModel(session.id, e.target.value);
            }}
          >
            {choices.map((m) => (
              <option key={m} value={m} title={described.get(m)?.description ?? ''}>
                {modelName(m, session.models)}
              </option>
            ))}
            <option value="__other">other…</option>
          </select>
        )}
      </label>
      {session.effectiveModel !== undefined && (
        <span className="muted small" title="The model Claude Code reports it runs" data-testid="effective-model">
          runs {session.effectiveModel}
        </span>
      )}
    </span>
  );
}
