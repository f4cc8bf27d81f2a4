// The plan's limits beside the composer, always in sight once Claude Code has reported them: the five-hour and
// the weekly window, how much of each is used and when it resets; a warning as one nears its end, and the reset
// time when one is reached. The newest report of any session counts (the limits are the account's, not a
// session's). An API-key sign-in has none: the session header's spend stands in for it.
import { useEffect, useState } from 'react';
import { useConsole } from '../../store/hooks';
import type { PlanLimits } from '../../store/types';

const LABELS: Record<string, string> = { five_hour: '5-hour', seven_day: 'weekly', seven_day_opus: 'weekly Opus', seven_day_sonnet: 'weekly Sonnet' };

/** A window's name as a person says it. */
export function windowLabel(window: string): string {
  return LABELS[window] ?? window.replaceAll('_', ' ');
}

/** When a window resets: the time today, else the weekday and time. */
export function resetText(resetsAt: string, now: number): string {
  const at = new Date(resetsAt);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const sameDay = new Date(now).toDateString() === at.toDateString();
  return sameDay ? time : `${at.toLocaleDateString([], { weekday: 'short' })} ${time}`;
}

/** The newest limits any session reported. */
function newestLimits(sessions: Record<string, { limits?: PlanLimits }>): PlanLimits | undefined {
  let best: PlanLimits | undefined;
  for (const s of Object.values(sessions)) if (s.limits !== undefined && (best === undefined || s.limits.at > best.at)) best = s.limits;
  return best;
}

/** The clock, read again every minute so reset times and passed windows stay true. */
function useNow(now?: number): number {
  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    if (now !== undefined) return;
    const id = setInterval(() => setTick(Date.now()), 60_000);
    return () => clearInterval(id);
  }, [now]);
  return now ?? tick;
}

export function PlanMeter({ now: fixedNow }: { now?: number }) {
  const limits = useConsole((s) => newestLimits(s.sessions));
  const now = useNow(fixedNow);
  if (limits === undefined) return null;
  // A window whose reset has passed starts again from nothing.
  const windows = limits.windows.filter((w) => Date.parse(w.resetsAt) > now);
  const deciding = limits.window !== undefined && limits.resetsAt !== undefined && Date.parse(limits.resetsAt) > now ? limits : undefined;
  const status = deciding === undefined ? 'allowed' : limits.status;
  return (
    <span className={`plan-meter ${status}`} data-testid="plan-meter" role="status">
      {status === 'rejected' && deciding?.window !== undefined && deciding.resetsAt !== undefined && (
        <span className="plan-warning" data-testid="plan-warning">
          {windowLabel(deciding.window)} limit reached · resets {resetText(deciding.resetsAt, now)}
        </span>
      )}
      {status === 'allowed_warning' && deciding?.window !== undefined && deciding.resetsAt !== undefined && (
        <span className="plan-warning" data-testid="plan-warning">
          Near the {windowLabel(deciding.window)} limit · resets {resetText(deciding.resetsAt, now)}
        </span>
      )}
      {windows.map((w) => (
        <span
          key={w.window}
          className="plan-window"
          title={`${Math.round(w.utilization * 100)}% of the ${windowLabel(w.window)} limit used; resets ${new Date(w.resetsAt).toLocaleString()}`}
          data-testid={`plan-window-${w.window}`}
        >
          <span className="gauge-bar">
            <span className="gauge-fill" style={{ width: `${Math.min(100, w.utilization * 100).toFixed(1)}%` }} />
          </span>
          <span className="small">
            {windowLabel(w.window)} {Math.round(w.utilization * 100)}% · {resetText(w.resetsAt, now)}
          </span>
        </span>
      ))}
    </span>
  );
}
