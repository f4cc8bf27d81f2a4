// The new-session dialog's "Start in a worktree" option: the session gets a git worktree of its own, on a new
// branch named from the first prompt (or the one typed, new or existing) off the current branch (or the base typed).
// Settings say whether it starts checked and the prefix of a branch named from the prompt (the host applies it).
export interface WorktreeChoice {
  on: boolean;
  branch: string;
  base: string;
}

export const NO_WORKTREE: WorktreeChoice = { on: false, branch: '', base: '' };

/** startSession's worktree option for the choice (undefined: not in a worktree). */
export function worktreeParams(c: WorktreeChoice, prompt: string): { prompt?: string; branch?: string; base?: string } | undefined {
  if (!c.on) return undefined;
  return {
    ...(prompt.trim() !== '' ? { prompt } : {}),
    ...(c.branch.trim() !== '' ? { branch: c.branch.trim() } : {}),
    ...(c.base.trim() !== '' ? { base: c.base.trim() } : {}),
  };
}

export function WorktreeFields({ choice, prefix, onChange }: { choice: WorktreeChoice; prefix: string; onChange: (c: WorktreeChoice) => void }) {
  return (
    <div className="worktree-fields">
      <label>
        <input type="checkbox" checked={choice.on} onChange={(e) => onChange({ ...choice, on: e.target.checked })} data-testid="new-session-worktree" /> Start
        in a worktree <span className="muted small">(its own checkout and branch; review and land it from Changes)</span>
      </label>
      {choice.on && (
        <div className="field-row">
          <label className="field">
            <span>
              Branch <span className="muted small">(default: {prefix !== '' ? `${prefix}…, ` : ''}named from the prompt)</span>
            </span>
            <input value={choice.branch} onChange={(e) => onChange({ ...choice, branch: e.target.value })} data-testid="new-session-branch" />
          </label>
          <label className="field">
            <span>
              Base <span className="muted small">(default: the current branch)</span>
            </span>
            <input value={choice.base} onChange={(e) => onChange({ ...choice, base: e.target.value })} data-testid="new-session-base" />
          </label>
        </div>
      )}
    </div>
  );
}
