// Short messages about actions (a call that failed, a request already answered); errors stay until closed. They
// sit above the composer, never over it (useComposerClearance.ts). Each notice goes 6 s after it came: a newer
// one does not keep the older ones up.
import { useEffect } from 'react';
import { useConsole, useStore } from '../../store/hooks';
import type { Toast } from '../../store/types';
import { useComposerClearance } from './useComposerClearance';

export const INFO_TOAST_MS = 6000;

export function Toasts() {
  const toasts = useConsole((s) => s.toasts);
  const bottom = useComposerClearance(toasts.length > 0);
  if (toasts.length === 0) return null;
  return (
    <div className="toasts" aria-live="assertive" style={{ bottom }} data-testid="toasts">
      {toasts.map((t) => (
        <ToastRow key={t.id} toast={t} />
      ))}
    </div>
  );
}

function ToastRow({ toast }: { toast: Toast }) {
  const store = useStore();
  const { id, kind } = toast;
  useEffect(() => {
    if (kind !== 'info') return;
    const timer = setTimeout(() => store.dismissToast(id), INFO_TOAST_MS);
    return () => clearTimeout(timer);
  }, [id, kind, store]);
  return (
    <div className={`toast ${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid="toast">
      <span className="plain">{toast.message}</span>
      <button type="button" className="icon" aria-label="Dismiss" onClick={() => store.dismissToast(id)}>
        ×
      </button>
    </div>
  );
}
