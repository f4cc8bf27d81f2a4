// Where the person writes. Enter sends, Shift+Enter adds a line, Esc stops the running turn (queued prompts come
// back here). Prompts sent while a turn runs are queued (shown, editable, removable); a past session is resumed by
// the first prompt.
import { useEffect, useRef, useState } from 'react';
import { useConsole, useStore } from '../../store/hooks';
import type { SessionState } from '../../store/types';
import { CommandHints, matchingCommands } from './CommandHints';
import { ModelPicker } from './ModelPicker';
import { ModePicker } from './ModePicker';
import { PermissionDock } from './PermissionDock';
import { QueuedTurns } from './QueuedTurns';
import { UsageMeter } from './UsageMeter';

export function Composer({ session }: { session: SessionState }) {
  const store = useStore();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const running = session.runningTurn !== undefined;
  const stopping = running && session.stopping === session.runningTurn;
  const hints = matchingCommands(session.commands, text);
  const complete = (name: string) => {
    setText(`/${name} `);
    ref.current?.focus();
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the composer takes the focus again when the session changes.
  useEffect(() => {
    ref.current?.focus();
  }, [session.id]);

  // Text handed back to the composer (a rewound prompt, queued prompts taken back by Stop) joins what is there.
  const draft = useConsole((s) => s.drafts[session.id]);
  useEffect(() => {
    if (draft === undefined) return;
    const back = store.takeDraft(session.id);
    if (back === undefined) return;
    setText((now) => (now.trim() === '' ? back : `${now}\n\n${back}`));
    ref.current?.focus();
  }, [draft, session.id, store]);

  const send = async (steer = false) => {
    const prompt = text.trim();
    if (prompt === '' || sending) return;
    setSending(true);
    setText('');
    const ok = steer ? await store.guideTurn(session.id, prompt) : await store.sendPrompt(session.id, prompt);
    if (!ok) setText(prompt);
    setSending(false);
    ref.current?.focus();
  };

  const placeholder = !session.live ? 'Write to resume this session…' : running ? 'Claude is working — what you send now waits in line' : 'Ask Claude…';

  return (
    <div className="composer-area">
      {running && session.activity?.startsWith('retrying') === true && (
        <div className="retry-banner" role="status" data-testid="retry-banner">
          <span>The API request failed; Claude Code is {session.activity}.</span>
          <button type="button" className="danger" disabled={stopping} onClick={() => void store.stopTurn(session.id)}>
            {stopping ? 'Stopping…' : 'Stop'}
          </button>
        </div>
      )}
      <PermissionDock session={session} />
      <QueuedTurns session={session} />
      <CommandHints matches={hints} onPick={complete} />
      <div className="composer">
        <textarea
          ref={ref}
          data-testid="composer-input"
          aria-label="Prompt"
          rows={Math.min(10, Math.max(2, text.split('\n').length))}
          value={text}
          placeholder={placeholder}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Tab' && hints[0] !== undefined) {
              e.preventDefault();
              complete(hints[0].name);
            } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            } else if (e.key === 'Escape' && running && !stopping) {
              e.preventDefault();
              void store.stopTurn(session.id);
            }
          }}
        />
        <div className="composer-buttons">
          {running && (
            <button
              type="button"
              className="danger"
              disabled={stopping}
              onClick={() => void store.stopTurn(session.id)}
              title="Stop the running turn (Esc); prompts waiting in line come back here to edit"
              data-testid="cancel-turn"
            >
              {stopping ? 'Stopping…' : 'Stop'}
            </button>
          )}
          {running && !stopping && (
            <button
              type="button"
              disabled={text.trim() === '' || sending}
              onClick={() => void send(true)}
              title="Send now: interrupt the reply being written and steer this turn"
              data-testid="steer"
            >
              Steer
            </button>
          )}
          <button type="button" className="primary" disabled={text.trim() === '' || sending} onClick={() => void send()} data-testid="send">
            {running ? 'Queue' : session.live ? 'Send' : 'Resume'}
          </button>
        </div>
      </div>
      <div className="composer-status">
        <ModelPicker session={session} />
        <ModePicker session={session} />
        <span className="spacer" />
        <UsageMeter session={session} />
      </div>
    </div>
  );
}
