// A permission request waiting for the person: allow, always allow (saying which rule that adds), deny (the
// terminal's "No": Claude stops and waits for you), or deny with a message to Claude (it reads the message and
// carries on), by click or by key while the card has the focus (Tab from the composer brings it here; arrows
// move between the buttons). Answered once; a verdict from elsewhere replaces the buttons with the outcome.
import { useState } from 'react';
import type { Verdict } from '../../protocol/events';
import { useStore } from '../../store/hooks';
import type { PermissionItem } from '../../store/types';
import { moveAmongButtons, permissionKey } from './cardKeys';
import { PermissionInput } from './PermissionInput';
import { settlementText } from './settlement';
import { describeSuggestions } from './suggestions';

export function PermissionCard({ sessionId, item, before, keys = false }: { sessionId: string; item: PermissionItem; before?: string | null; keys?: boolean }) {
  const store = useStore();
  const [denying, setDenying] = useState(false);
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState<Verdict | undefined>(undefined);
  const answer = (verdict: Verdict, told = '') => {
    setSent(verdict);
    void store
      .answerPermission(sessionId, item.requestId, verdict, verdict === 'deny' && told !== '' ? { message: told } : {})
      .finally(() => setSent(undefined));
  };
  const told = message.trim();
  const rule = item.suggestions.length > 0 ? describeSuggestions(item.suggestions) : undefined;
  const listening = item.settled === undefined && !denying && sent === undefined;
  return (
    <div
      className="permission-card"
      role="group"
      tabIndex={-1}
      aria-label={`Permission for ${item.toolName}`}
      data-testid="permission-card"
      data-request={item.requestId}
      onKeyDown={(e) => {
        if (!listening) return;
        const key = permissionKey(e, e.currentTarget, rule !== undefined);
        if (key === undefined) {
          if (moveAmongButtons(e, e.currentTarget)) e.preventDefault();
          return;
        }
        e.preventDefault();
        if (key === 'deny_with_message') setDenying(true);
        else answer(key);
      }}
    >
      <div className="permission-title">
        <strong>{item.title ?? `Allow ${item.toolName}?`}</strong>
        {item.description !== undefined && <span className="muted"> — {item.description}</span>}
      </div>
      {item.decisionReason !== undefined && <div className="muted small">{item.decisionReason}</div>}
      <PermissionInput toolKind={item.toolKind} input={item.input} {...(before !== undefined ? { before } : {})} />
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
            if (told !== '') answer('deny', told);
          }}
        >
          <input
            autoFocus
            type="text"
            placeholder="Tell Claude what to do differently"
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
          <button type="submit" className="danger" disabled={sent !== undefined || told === ''}>
            Deny and tell Claude
          </button>
          <button type="button" onClick={() => setDenying(false)}>
            Back
          </button>
        </form>
      ) : (
        <div className="permission-buttons">
          <button
            type="button"
            className="primary"
            disabled={sent !== undefined}
            onClick={() => answer('allow')}
            aria-keyshortcuts={keys ? 'Enter 1' : undefined}
          >
            {keys && <KeyBadge k="1" />}
            Allow
          </button>
          {rule !== undefined && (
            <button type="button" disabled={sent !== undefined} onClick={() => answer('allow_always')} title={rule} aria-keyshortcuts={keys ? '2' : undefined}>
              {keys && <KeyBadge k="2" />}
              Always allow
            </button>
          )}
          <button type="button" className="danger" disabled={sent !== undefined} onClick={() => answer('deny')} title="Claude stops and waits for you">
            Deny
          </button>
          <button
            type="button"
            disabled={sent !== undefined}
            onClick={() => setDenying(true)}
            aria-keyshortcuts={keys ? '3' : undefined}
            title="Claude reads your message and carries on"
          >
            {keys && <KeyBadge k="3" />}
            Deny with a message…
          </button>
          <div className="muted small deny-hint">Deny stops Claude until you write again; with a message, Claude reads it and carries on.</div>
          {rule !== undefined && <div className="muted small rule">Always allow will {rule}.</div>}
        </div>
      )}
    </div>
  );
}

/** The key that answers with this button, shown on it (hidden from its accessible name, which aria-keyshortcuts carries). */
function KeyBadge({ k }: { k: string }) {
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a kbd takes no focus; the rule mistakes it for a control.
    <kbd className="key-badge" aria-hidden="true">
      {k}
    </kbd>
  );
}
