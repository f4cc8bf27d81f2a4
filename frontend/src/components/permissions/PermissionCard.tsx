// A permission request waiting for the person: allow, always allow (saying which rule that adds), or deny
// with an optional message. Answered once; a verdict from elsewhere replaces the buttons with the outcome.
import { useState } from 'react';
import type { Verdict } from '../../protocol/events';
import { useStore } from '../../store/hooks';
import type { PermissionItem } from '../../store/types';
import { PermissionInput } from './PermissionInput';
import { settlementText } from './settlement';
import { describeSuggestions } from './suggestions';

export function PermissionCard({ sessionId, item, before }: { sessionId: string; item: PermissionItem; before?: string | null }) {
  const store = useStore();
  const [denying, setDenying] = useState(false);
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState<Verdict | undefined>(undefined);
  const answer = (verdict: Verdict) => {
    setSent(verdict);
    void store.answerPermission(sessionId, item.requestId, verdict, verdict === 'deny' ? message : undefined).finally(() => setSent(undefined));
  };
  const rule = item.suggestions.length > 0 ? describeSuggestions(item.suggestions) : undefined;
  return (
    <div className="permission-card" role="group" aria-label={`Permission for ${item.toolName}`} data-testid="permission-card" data-request={item.requestId}>
      <div className="permission-title">
        <strong>{item.title ?? `Allow ${item.toolName}?`}</strong>
        {item.description !== undefined && <span className="muted"> — {item.description}</span>}
      </div>
      {item.decisionReason !== undefined && <div className="muted small">{item.decisionReason}</div>}
      <PermissionInput toolName={item.toolName} input={item.input} {...(before !== undefined ? { before } : {})} />
      {item.settled !== undefined ? (
        <div className={`settled ${item.settled.verdict === 'deny' ? 'bad' : 'ok'}`} data-testid="permission-settled">
          {settlementText(item.settled)}
          {item.settled.message !== undefined && <span className="muted"> — “{item.settled.message}”</span>}
        </div>
      ) : denying ? (
        <form
          className="deny-form"
          onSubmit={(e) => {
            e.preventDefault();
            answer('deny');
          }}
        >
          <input
            autoFocus
            type="text"
            placeholder="Tell Claude why or what to do instead (optional)"
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.stopPropagation();
                setDenying(false);
              }
            }}
            aria-label="Message with the denial"
          />
          <button type="submit" className="danger" disabled={sent !== undefined}>
            Deny
          </button>
          <button type="button" onClick={() => setDenying(false)}>
            Back
          </button>
        </form>
      ) : (
        <div className="permission-buttons">
          <button type="button" className="primary" disabled={sent !== undefined} onClick={() => answer('allow')}>
            Allow
          </button>
          {rule !== undefined && (
            <button type="button" disabled={sent !== undefined} onClick={() => answer('allow_always')} title={rule}>
              Always allow
            </button>
          )}
          <button type="button" className="danger" disabled={sent !== undefined} onClick={() => setDenying(true)}>
            Deny…
          </button>
          {rule !== undefined && <div className="muted small rule">Always allow will {rule}.</div>}
        </div>
      )}
    </div>
  );
}
