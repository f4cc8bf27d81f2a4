// The sidebar's mark for a session working in the background: how many tasks run, or that a goal is pursued.
import { useConsole } from '../../store/hooks';

export function BackgroundBadge({ session }: { session: string }) {
  // Primitive selections, so the entry re-renders only when the count or the goal's state changes.
  const tasks = useConsole((s) => s.sessions[session]?.tasks.filter((t) => t.ambient !== true).length ?? 0);
  const pursuing = useConsole((s) => {
    const goal = s.sessions[session]?.goal;
    return goal !== undefined && !goal.met;
  });
  if (tasks === 0 && !pursuing) return null;
  const label = tasks > 0 ? `${tasks} in background` : 'goal';
  const title = tasks > 0 ? `${tasks} background task${tasks === 1 ? '' : 's'} running` : 'A goal is being pursued';
  return (
    <span className="mark busy" title={title} data-testid="mark-background">
      {label}
    </span>
  );
}
