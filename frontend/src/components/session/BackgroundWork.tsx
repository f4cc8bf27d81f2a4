// What the session does beside the conversation: the background tasks Claude Code runs (with how long each has
// run and a stop button) and the goal `/goal` set (met or not, how many checks, a way to clear it).
import { formatDuration } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import { useStore } from '../../store/hooks';
import type { SessionState } from '../../store/types';

export function BackgroundWork({ session }: { session: SessionState }) {
  const tasks = session.tasks.filter((t) => t.ambient !== true);
  if (tasks.length === 0 && session.goal === undefined) return null;
  return (
    <section className="background-work" aria-label="Background work" data-testid="background-work">
      {tasks.length > 0 && <TaskList session={session} />}
      {session.goal !== undefined && <GoalLine session={session} />}
    </section>
  );
}

function TaskList({ session }: { session: SessionState }) {
  const store = useStore();
  const now = useNow(1000);
  const tasks = session.tasks.filter((t) => t.ambient !== true);
  return (
    <ul className="task-list">
      {tasks.map((task) => {
        const started = session.taskStarts[task.taskId];
        const elapsed = started !== undefined ? Math.max(0, now - Date.parse(started)) : undefined;
        return (
          <li key={task.taskId} className="task" data-testid="background-task">
            <span className="dot live" aria-hidden="true" />
            <span className="task-description" title={task.taskType}>
              {task.description}
            </span>
            {elapsed !== undefined && <span className="muted small">{formatDuration(Math.floor(elapsed / 1000) * 1000)}</span>}
            {session.live && (
              <button type="button" className="small" onClick={() => void store.stopTask(session.id, task.taskId)} title="Stop this background task">
                Stop
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function GoalLine({ session }: { session: SessionState }) {
  const store = useStore();
  const goal = session.goal!;
  return (
    <div className={`goal ${goal.met ? 'met' : 'active'}`} data-testid="goal">
      <span className="goal-label">{goal.met ? 'Goal met' : 'Goal'}</span>
      <span className="goal-condition">{goal.condition}</span>
      <span className="muted small">
        {goal.iterations === 1 ? '1 check' : `${goal.iterations} checks`}
        {!goal.met && goal.lastReason !== undefined ? ` · ${goal.lastReason}` : ''}
      </span>
      {!goal.met && session.live && (
        <button type="button" className="small" onClick={() => void store.sendPrompt(session.id, '/goal clear')} title="Stop pursuing this goal">
          Clear
        </button>
      )}
    </div>
  );
}
