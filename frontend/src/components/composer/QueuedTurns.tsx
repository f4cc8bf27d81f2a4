// Prompts sent while the agent works wait in line; each can be edited in place (it keeps its place in line) or
// removed before it starts.
import { useState } from 'react';
import { useStore } from '../../store/hooks';
import type { SessionState, TurnInfo } from '../../store/types';

function QueuedEditor({ sessionId, turn, onDone }: { sessionId: string; turn: TurnInfo; onDone: () => void }) {
  const store = useStore();
  const [text, setText] = useState(turn.prompt);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    const ok = await store.replaceQueued(sessionId, turn.id, text.trim());
    setBusy(false);
    if (!ok) store.toast('info', 'That prompt had already started, so it was left as it was.');
    onDone();
  };
  return (
    <form
      className="queued-edit"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() !== '') void save();
      }}
    >
      <textarea
        autoFocus
        aria-label="Edit the queued prompt"
        value={text}
        rows={Math.min(6, Math.max(1, text.split('\n').length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            if (text.trim() !== '') void save();
          } else if (e.key === 'Escape') {
            e.stopPropagation();
            onDone();
          }
        }}
        data-testid="queued-edit-input"
      />
      <button type="submit" className="primary" disabled={busy || text.trim() === ''} data-testid="queued-edit-save">
        Save
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

export function QueuedTurns({ session }: { session: SessionState }) {
  const store = useStore();
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const queued = session.turnOrder.map((id) => session.turns.get(id)).filter((t): t is TurnInfo => t !== undefined && t.status === 'queued');
  if (queued.length === 0) return null;
  return (
    <ul className="queued" aria-label="Queued prompts" data-testid="queued-turns">
      {queued.map((turn) =>
        editing === turn.id ? (
          <li key={turn.id} className="queued-turn">
            <QueuedEditor sessionId={session.id} turn={turn} onDone={() => setEditing(undefined)} />
          </li>
        ) : (
          <li key={turn.id} className="queued-turn">
            <span className="muted small">queued</span>
            <span className="queued-text">{turn.prompt}</span>
            <button
              type="button"
              className="link"
              aria-label={`Edit queued prompt: ${turn.prompt}`}
              title="Edit it here; it keeps its place in line"
              onClick={() => setEditing(turn.id)}
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
        ),
      )}
    </ul>
  );
}
