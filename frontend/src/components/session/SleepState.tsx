// Sleep and wake as the person sees them: an asleep badge, "waking…" only when waking takes longer than a moment
// and someone waits on it (not while the wake runs ahead of a prompt being typed), and the idle-time setting (how
// long an open session may sit idle before its processes stop).
import { useEffect, useState } from 'react';
import { useConsole, useStore } from '../../store/hooks';
import type { SessionState } from '../../store/types';

/** A wake that finishes within this is not worth a word. */
export const WAKING_SHOWN_AFTER_MS = 400;

export function SleepBadge({ session }: { session: SessionState }) {
  const store = useStore();
  const waking = session.sleep === 'waking';
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!waking) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(!store.waker.wakingAhead(session.id)), WAKING_SHOWN_AFTER_MS);
    return () => clearTimeout(timer);
  }, [waking, store, session.id]);
  if (!session.live) return null;
  if (session.sleep === 'asleep')
    return (
      <span className="badge asleep" data-testid="session-asleep" title="Idle, so its processes were stopped to save memory; typing a prompt wakes it">
        asleep
      </span>
    );
  if (waking && shown)
    return (
      <span className="badge asleep" data-testid="session-waking">
        waking…
      </span>
    );
  return null;
}

export const IDLE_CHOICES: ReadonlyArray<readonly [number, string]> = [
  [60, '1 minute'],
  [300, '5 minutes'],
  [600, '10 minutes'],
  [1800, '30 minutes'],
  [3600, '1 hour'],
  [0, 'never'],
];

export function IdleSetting() {
  const store = useStore();
  const seconds = useConsole((s) => s.sessionIdleSeconds);
  if (seconds === undefined) return null;
  const choices = IDLE_CHOICES.some(([v]) => v === seconds) ? IDLE_CHOICES : [...IDLE_CHOICES, [seconds, `${seconds} s`] as const];
  return (
    <label className="small muted idle-setting" title="Idle open sessions stop their processes to save memory and wake on your next prompt">
      Sleep idle sessions after{' '}
      <select
        aria-label="Sleep idle sessions after"
        data-testid="idle-setting"
        value={seconds}
        onChange={(e) => {
          void store.setSessionIdle(Number(e.target.value)).catch((err: unknown) => store.toast('error', String(err)));
        }}
      >
        {choices.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}
