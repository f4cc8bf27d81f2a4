// Prompts sent while the agent works wait in line; each can be edited (taken back into the composer) or removed
// before it starts.
import { useStore } from '../../store/hooks';
import type { SessionState, TurnInfo } from '../../store/types';

export function QueuedTurns({ session }: { session: SessionState }) {
  const store = useStore();
  const queued = session.turnOrder.map((id) => session.turns.get(id)).filter((t): t is TurnInfo => t !== undefined && t.status === 'queued');
  if (queued.length === 0) return null;
  return (
    <ul className="queued" aria-label="Queued prompts" data-testid="queued-turns">
      {queued.map((turn) => (
        <li key={turn.id} className="queued-turn">
          <span className="muted small">queued</span>
          <span className="queued-text">{turn.prompt}</span>
          <button
            type="button"
            className="link"
            aria-label={`Edit queued prompt: ${turn.prompt}`}
            title="Take it back into the composer to edit"
            onClick={() => void store.editQueued(session.id, turn.id)}
          >
            Edit
          </button>
          <button
            type="button"
            className="icon"
            aria-label={`Remove queued prompt: ${turn.prompt}`}
            title="Remove before it starts"
            onClick={() => void store.cancelTurn(session.id, turn.id)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
