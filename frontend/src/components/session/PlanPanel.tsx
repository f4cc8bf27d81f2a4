// The agent's todo/task checklist, as a panel beside the conversation; in a narrow window (900 px or less) it
// opens over the conversation from a toggle that says how far it is.
import type { PlanItem } from '../../protocol/events';
import { useRememberedPanel } from './useRememberedPanel';

const MARK: Record<PlanItem['status'], string> = { pending: '○', in_progress: '◐', completed: '●' };

export function PlanPanel({ session, items }: { session: string; items: readonly PlanItem[] }) {
  const [open, setOpen] = useRememberedPanel(session, 'checklist');
  if (items.length === 0) return null;
  const done = items.filter((i) => i.status === 'completed').length;
  return (
    <>
      <button type="button" className="plan-toggle" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="plan-toggle">
        Checklist {done}/{items.length}
      </button>
      <aside className={`plan-panel${open ? ' open' : ''}`} aria-label="Checklist" data-testid="plan-panel">
        <h3>
          Checklist{' '}
          <span className="muted small">
            {done}/{items.length}
          </span>
        </h3>
        <ul>
          {items.map((item) => (
            <li key={item.id} className={`plan-item ${item.status}`}>
              <span className="plan-mark" role="img" aria-label={item.status.replace('_', ' ')}>
                {MARK[item.status]}
              </span>
              <span>{item.status === 'in_progress' && item.activeForm !== undefined ? item.activeForm : item.content}</span>
            </li>
          ))}
        </ul>
      </aside>
    </>
  );
}
