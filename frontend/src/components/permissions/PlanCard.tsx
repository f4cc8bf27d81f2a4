// Claude's plan (ExitPlanMode), as Markdown: Approve, choosing the mode to continue in, or Keep planning with
// optional feedback for Claude.
import { useState } from 'react';
import type { Json, PermissionMode } from '../../protocol/events';
import { MODE_LABELS } from '../../lib/names';
import { useStore } from '../../store/hooks';
import type { PermissionItem } from '../../store/types';
import { Markdown } from '../conversation/Markdown';
import { PLAN_CONTINUE_MODES, readPlan } from './interactive';

/** `callInput`: the call's own input, as the model wrote it (Claude Code may pass the request a plan of its own
 * files instead, or none). */
export function PlanCard({ sessionId, item, callInput }: { sessionId: string; item: PermissionItem; callInput?: Json }) {
  const store = useStore();
  const plan = readPlan(item.input) || (callInput !== undefined ? readPlan(callInput) : '');
  const [mode, setMode] = useState<PermissionMode>(PLAN_CONTINUE_MODES[0] ?? 'default');
  const [feedback, setFeedback] = useState('');
  const [sent, setSent] = useState(false);
  const answer = (approve: boolean) => {
    setSent(true);
    const done = approve
      ? store.answerPermission(sessionId, item.requestId, 'allow', { mode })
      : store.answerPermission(sessionId, item.requestId, 'deny', feedback.trim() !== '' ? { message: `Keep planning: ${feedback.trim()}` } : {});
    void done.finally(() => setSent(false));
  };
  return (
    <div className="permission-card plan-card" role="group" aria-label="Claude’s plan" data-testid="plan-card" data-request={item.requestId}>
      <div className="permission-title">
        <strong>Claude’s plan</strong> <span className="muted">— approve it to start, or keep planning</span>
      </div>
      <div className="plan-body">{plan !== '' ? <Markdown text={plan} /> : <span className="muted">Claude gave no plan text.</span>}</div>
      <div className="permission-buttons">
        <button type="button" className="primary" disabled={sent} onClick={() => answer(true)} data-testid="plan-approve">
          Approve
        </button>
        <label className="small">
          then{' '}
          <select value={mode} onChange={(e) => setMode(e.target.value as PermissionMode)} aria-label="Continue in" data-testid="plan-mode">
            {PLAN_CONTINUE_MODES.map((m) => (
              <option key={m} value={m}>
                {MODE_LABELS[m]}
              </option>
            ))}
          </select>
        </label>
        <input
          type="text"
          placeholder="What should change? (optional)"
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
          aria-label="Feedback on the plan"
        />
        <button type="button" disabled={sent} onClick={() => answer(false)} data-testid="plan-keep">
          Keep planning
        </button>
      </div>
    </div>
  );
}
