// The permission mode, as the CLI reports it. Bypass is confirmed first (BypassDialog). Shift+Tab in the composer
// cycles the mode as in the CLI.
import { useEffect, useState } from 'react';
import { PERMISSION_MODES, type PermissionMode } from '../../protocol/events';
import { toApiError } from '../../protocol/api';
import { MODE_LABELS } from '../../lib/names';
import { useStore } from '../../store/hooks';
import type { SessionState } from '../../store/types';
import { BypassDialog } from '../dialogs/BypassDialog';

export { MODE_LABELS } from '../../lib/names';

/** The CLI's Shift+Tab cycle: ask → accept edits → plan → ask; any other mode goes back to asking. */
const CYCLE: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan'];

export function nextMode(mode: PermissionMode): PermissionMode {
  const at = CYCLE.indexOf(mode);
  return at === -1 ? 'default' : (CYCLE[(at + 1) % CYCLE.length] ?? 'default');
}

/** Whether a key is the mode cycle's: Shift+Tab (nothing else held) in the composer. */
export function cyclesMode(e: KeyboardEvent): boolean {
  if (e.key !== 'Tab' || !e.shiftKey || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return false;
  return e.target instanceof HTMLElement && e.target.dataset['testid'] === 'composer-input';
}

export function ModePicker({ session }: { session: SessionState }) {
  const store = useStore();
  const [confirming, setConfirming] = useState(false);
  const change = (mode: PermissionMode) => store.setPermissionMode(session.id, mode);
  const { id, live, permissionMode } = session;
  useEffect(() => {
    if (!live) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (!cyclesMode(e)) return;
      e.preventDefault();
      store.setPermissionMode(id, nextMode(permissionMode)).catch((err: unknown) => store.toast('error', toApiError(err).message));
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [id, live, permissionMode, store]);
  return (
    <span className="picker" data-testid="mode-picker">
      <label>
        Permissions{' '}
        <select
          value={session.permissionMode}
          disabled={!session.live}
          onChange={(e) => {
            const mode = e.target.value as PermissionMode;
            if (mode === 'bypassPermissions') setConfirming(true);
            else change(mode).catch((err: unknown) => store.toast('error', toApiError(err).message));
          }}
        >
          {PERMISSION_MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
      </label>
      {confirming && <BypassDialog onConfirm={() => change('bypassPermissions')} onClose={() => setConfirming(false)} />}
    </span>
  );
}
