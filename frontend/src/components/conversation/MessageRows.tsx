// Rows for what was said: the person's prompts, the agent's replies and thinking, notices, turn endings,
// errors, and events this console does not know (shown raw, never dropped).
import { memo } from 'react';
import { formatCost, formatDuration, prettyJson } from '../../lib/format';
import type { AssistantItem, ErrorItem, NoticeItem, ThinkingItem, TurnEndItem, UnknownItem, UserItem } from '../../store/types';
import { BYPASS_EXPLANATION } from '../dialogs/BypassDialog';
import { useConsole, useStore } from '../../store/hooks';
import { useConversation } from './actions';
import { PlanLimitReset } from './PlanLimitReset';
import { CopyButton } from './CopyButton';
import { Markdown } from './Markdown';
import { Thumbnails } from './Thumbnails';

export const UserRow = memo(function UserRow({ item, nested }: { item: UserItem; nested: boolean }) {
  const actions = useConversation();
  const canAct = !nested && item.uuid !== undefined && actions.editable;
  return (
    <div className="row row-user" data-testid="user-message">
      <div className="bubble bubble-user">
        {item.steered === true && (
          <div className="steered-label" data-testid="steered">
            Steered the running turn
          </div>
        )}
        {item.text !== '' && <div className="plain">{item.text}</div>}
        {item.images !== undefined && <Thumbnails images={item.images} of="the prompt" />}
      </div>
      <div className="row-actions">
        <CopyButton text={item.text} what="prompt" />
        {canAct && item.uuid !== undefined && (
          <button
            type="button"
            className="link"
            onClick={() => actions.rewind(item.uuid ?? '', item.text)}
            data-testid="rewind-prompt"
            title="Rewind the conversation and/or files to before this prompt"
          >
            Rewind…
          </button>
        )}
      </div>
    </div>
  );
});

export const AssistantRow = memo(function AssistantRow({ item, nested }: { item: AssistantItem; nested: boolean }) {
  const actions = useConversation();
  const canFork = !nested && !item.streaming && item.uuid !== undefined && actions.editable;
  return (
    <div className={`row row-assistant${item.streaming ? ' streaming' : ''}`} data-testid="assistant-message" aria-busy={item.streaming}>
      <Markdown text={item.text} />
      {item.stopped === true && (
        <div className="stopped-label small muted" data-testid="reply-stopped">
          Stopped
        </div>
      )}
      {item.streaming && item.text === '' && <span className="caret" role="img" aria-label="writing" />}
      {!item.streaming && item.text !== '' && (
        <div className="row-actions">
          <CopyButton text={item.text} what="reply" />
          {canFork && (
            <button type="button" className="link" onClick={() => actions.fork(item.uuid ?? '')} title="Start a new session that continues from this reply">
              Fork from here
            </button>
          )}
        </div>
      )}
    </div>
  );
});

export const ThinkingRow = memo(function ThinkingRow({ item }: { item: ThinkingItem }) {
  return (
    <details className="row row-thinking" data-testid="thinking">
      <summary>{item.streaming ? 'Thinking…' : item.stopped === true ? 'Thought (stopped)' : 'Thought'}</summary>
      <div className="plain muted">{item.text}</div>
    </details>
  );
});

export const NoticeRow = memo(function NoticeRow({ item }: { item: NoticeItem }) {
  return (
    <div className="row row-notice" data-testid="notice">
      {item.text}
    </div>
  );
});

export const TurnEndRow = memo(function TurnEndRow({ item }: { item: TurnEndItem }) {
  if (item.outcome === 'canceled') {
    return (
      <div className="row row-turn-end canceled" data-testid="turn-canceled">
        {item.forced === true ? 'Force-stopped: Claude Code did not answer' : 'Canceled'}
      </div>
    );
  }
  const parts: string[] = [item.deniedStop === true ? 'Stopped: you denied a tool, Claude waits for you' : 'Done'];
  if (item.durationMs !== undefined) parts.push(formatDuration(item.durationMs));
  if (item.costUsd !== undefined && item.costUsd > 0) parts.push(formatCost(item.costUsd));
  return (
    <div className="row row-turn-end" data-testid="turn-completed">
      {parts.join(' · ')}
    </div>
  );
});

/** What to do about errors whose cause is known. */
export function errorHint(message: string): string | undefined {
  if (/dangerously-skip-permissions|bypass/i.test(message) && /root|sudo/i.test(message)) return BYPASS_EXPLANATION;
  return undefined;
}

/** The prompt a failed turn ran, to send again (live turns; history names turns by their prompt's uuid). */
function useFailedPrompt(turn: string | undefined): string | undefined {
  const { sessionId } = useConversation();
  return useConsole((s) => (turn === undefined ? undefined : s.sessions[sessionId]?.turns.get(turn)?.prompt));
}

export const ErrorRow = memo(function ErrorRow({ item }: { item: ErrorItem }) {
  const hint = errorHint(item.message);
  const auth = useConsole((s) => s.auth);
  const store = useStore();
  const { sessionId } = useConversation();
  // An API error Claude Code recorded (a subagent's among them) is not its turn's end: Retry is the failure's.
  const prompt = useFailedPrompt(item.api === true ? undefined : item.turn);
  // Refused credentials: say which (a rejected key or no sign-in) and offer the way that fixes it.
  const refused = item.code === 'auth';
  const byKey = auth.method === 'api_key' || auth.keySource !== undefined;
  const title = refused ? (byKey ? 'The API key was refused' : 'Not signed in') : item.title;
  return (
    <div className="row row-error" role="alert" data-testid="error-row" data-code={item.code}>
      <strong>{title}</strong>
      <div className="plain">{item.message}</div>
      {hint !== undefined && <div className="small">{hint}</div>}
      <PlanLimitReset code={item.code} turn={item.turn} />
      {refused && byKey && (
        <div className="small" data-testid="fix-key">
          Claude Code uses the API key from{' '}
          {auth.keySource !== undefined && auth.keySource !== '' ? <code>{auth.keySource}</code> : 'your environment or settings'}. Set a valid key, then retry.
        </div>
      )}
      {(refused && !byKey) || prompt !== undefined ? (
        <div className="sign-in">
          {prompt !== undefined && (
            <button
              type="button"
              className={refused && !byKey ? '' : 'primary'}
              onClick={() => void store.sendPrompt(sessionId, prompt)}
              data-testid="retry-turn"
            >
              Retry
            </button>
          )}
          {refused && !byKey && (
            <>
              <button type="button" className="primary" onClick={() => void store.signIn()}>
                Sign in…
              </button>
              {auth.signInCommand !== undefined && auth.signInCommand !== '' && (
                <span className="small">
                  or run <code className="copyable">{auth.signInCommand}</code>
                </span>
              )}
            </>
          )}
        </div>
      ) : null}
    </div>
  );
});

export const UnknownRow = memo(function UnknownRow({ item }: { item: UnknownItem }) {
  return (
    <details className="row row-unknown" data-testid="unknown-row">
      <summary>
        Unrecognized event <code>{item.label}</code>
      </summary>
      <pre className="raw">{prettyJson(item.raw)}</pre>
    </details>
  );
});
