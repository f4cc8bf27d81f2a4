// The permission mode, as the CLI reports it. Bypass is confirmed first (BypassDialog).
import { useState } from 'react';
import { PERMISSION_MODES, type PermissionMode } from '../../protocol/events';
import { toApiError } from '../../protocol/api';
import { MODE_LABELS } from '../../lib/names';
import { useStore } from '../../store/hooks';
import type { SessionState } from '../../store/types';
import { BypassDialog } from '../dialogs/BypassDialog';

export { MODE_LABELS } from '../../lib/names';

export function ModePicker({ session }: { session: SessionState }) {
  const store = useStore();
  const [confirming, setConfirming] = useState(false);
  const change = (mode: PermissionMode) => store.setPermissionMode(session.id, mode);
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
