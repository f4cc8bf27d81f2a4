// Short messages about actions (a call that failed, a request already answered); errors stay until closed. They
// sit above the composer, never over it (useComposerClearance.ts).
import { useEffect } from 'react';
import { useConsole, useStore } from '../../store/hooks';
import { useComposerClearance } from './useComposerClearance';

export function Toasts() {
  const store = useStore();
  const toasts = useConsole((s) => s.toasts);
  const bottom = useComposerClearance(toasts.length > 0);
  useEffect(() => {
    const infos = toasts.filter((t) => t.kind === 'info');
    if (infos.length === 0) return;
    const timer = setTimeout(() => {
      for (const t of infos) store.dismissToast(t.id);
    }, 6000);
    return () => clearTimeout(timer);
  }, [toasts, store]);
  if (toasts.length === 0) return null;
  return (
    <div className="toasts" aria-live="assertive" style={{ bottom }} data-testid="toasts">
      {toasts.map((t) => (
        <div key={t.id} className={`toast ${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'} data-testid="toast">
          <span className="plain">{t.message}</span>
          <button type="button" className="icon" aria-label="Dismiss" onClick={() => store.dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
