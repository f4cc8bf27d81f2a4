// Tokens written this turn, live while it streams, and the context gauge, only when the CLI reported the
// model's context window.
import { formatTokens } from '../../lib/format';
import type { SessionState } from '../../store/types';

/**
 * Tokens written this turn: the CLI's count (finished requests, and thinking under way as Claude Code estimates
 * it) plus, for reply text still streaming, an estimate at 4 characters a token, so the number moves while the
 * reply is written. Thinking is never guessed from its text: the count already holds Claude Code's estimate.
 */
export function liveTokens(session: SessionState): { tokens: number; estimated: boolean } {
  let chars = 0;
  for (const key of session.transcript.streams.values()) {
    const item = session.transcript.items.get(key);
    if (item?.type === 'assistant') chars += item.text.length;
  }
  const thinking = session.usage.thinkingTokens ?? 0;
  return { tokens: session.usage.turnOutputTokens + Math.ceil(chars / 4), estimated: chars > 0 || thinking > 0 };
}

export function UsageMeter({ session }: { session: SessionState }) {
  const { usage } = session;
  const live = liveTokens(session);
  const running = session.runningTurn !== undefined;
  // The CLI's own measure (context.updated) when there is one, else the last turn's usage.
  const window = session.context?.maxTokens ?? usage.contextWindow;
  const used = session.context !== undefined && session.context.maxTokens !== undefined ? session.context.totalTokens : usage.contextTokens;
  return (
    <span className="usage">
      {running && session.pending.length > 0 && (
        <span className="tokens-live waiting" data-testid="tokens-live">
          waiting for you
        </span>
      )}
      {running && session.pending.length === 0 && (
        <span className="tokens-live" data-testid="tokens-live">
          {session.activity !== undefined && session.activity !== 'requesting' ? `${session.activity}… · ` : 'writing · '}
          {live.estimated ? '≈' : ''}
          {formatTokens(live.tokens)} tokens
        </span>
      )}
      {window !== undefined && window > 0 && used !== undefined && (
        <span className="gauge" title={`${used.toLocaleString()} of ${window.toLocaleString()} tokens of context in use`} data-testid="context-gauge">
          <span className="gauge-bar">
            <span className="gauge-fill" style={{ width: `${Math.min(100, (used / window) * 100).toFixed(1)}%` }} />
          </span>
          <span className="small">{Math.round((used / window) * 100)}% context</span>
        </span>
      )}
    </span>
  );
}
