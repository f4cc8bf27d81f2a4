// On a request the plan's limit rejected (a rate_limit card, or the failure of the turn the rejection came in):
// when the window resets, and "Send when it resets", which keeps the
// turn's prompt waiting (planWaits.ts) and sends it then; a waiting prompt can be withdrawn.
import { useSyncExternalStore } from 'react';
import { useConsole, useStore } from '../../store/hooks';
import { resetText, windowLabel } from '../composer/PlanMeter';
import { useConversation } from './actions';

export function PlanLimitReset({ code, turn }: { code: string | undefined; turn: string | undefined }) {
  const store = useStore();
  const { sessionId } = useConversation();
  const limits = useConsole((s) => s.sessions[sessionId]?.limits);
  const prompt = useConsole((s) => (turn === undefined ? undefined : s.sessions[sessionId]?.turns.get(turn)?.prompt));
  const waits = useSyncExternalStore(store.planWaits.subscribe, () => store.planWaits.list());
  if (limits?.status !== 'rejected' || limits.resetsAt === undefined || Date.parse(limits.resetsAt) <= Date.now()) return null;
  if (code !== 'rate_limit' && (turn === undefined || limits.turn !== turn)) return null;
  const resetsAt = limits.resetsAt;
  const waiting = waits.find((w) => w.session === sessionId && w.prompt === prompt && w.at === resetsAt);
  const window = limits.window !== undefined ? `The ${windowLabel(limits.window)} limit` : 'The plan’s limit';
  return (
    <div className="plan-reset" data-testid="plan-reset">
      <span className="small">
        {window} resets at {resetText(resetsAt, Date.now())}.
      </span>
      {prompt !== undefined && waiting === undefined && (
        <button type="button" className="primary" onClick={() => store.planWaits.add(sessionId, prompt, resetsAt)} data-testid="send-at-reset">
          Send when it resets
        </button>
      )}
      {waiting !== undefined && (
        <>
          <span className="small" data-testid="waiting-for-reset">
            Waiting: sent at {resetText(resetsAt, Date.now())}.
          </span>
          <button type="button" onClick={() => store.planWaits.withdraw(waiting)}>
            Don’t send
          </button>
        </>
      )}
    </div>
  );
}
