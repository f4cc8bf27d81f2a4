// The plan meter beside the composer: the five-hour and weekly windows with their use and reset times once Claude
// Code reported them (limit.updated from the SDK's rate_limit_event), a warning near a window's end, the reset time
// when a request was rejected, and nothing for a session that never reported limits (an API key).
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { resetText } from '../src/components/composer/PlanMeter';
import type { LiveSession } from '../src/protocol/api';
import type { ConsoleEvent } from '../src/protocol/events';
import { settle } from './fakeTransport';
import { renderConsole } from './render';

const S = '5b0c6f0e-2d7a-4c8e-9f1a-3b2c4d5e6f77';
const T = '2026-12-02T12:00:00.000Z';

function live(events: ConsoleEvent[]): LiveSession {
  return { session: S, cwd: '/p', requestedModel: 'default', effectiveModel: '', permissionMode: 'default', state: 'awake', events };
}

const started: ConsoleEvent = { kind: 'session.started', session: S, time: T, cwd: '/p', model: 'default', permissionMode: 'default', resumed: false, seq: 1 };

async function meterAfter(...events: ConsoleEvent[]) {
  const { select } = await renderConsole((t) => {
    t.snapshot = { ...t.snapshot, sessions: [live([started, ...events])] };
  });
  await select(S);
}

describe('the plan meter', () => {
  const soon = new Date(Date.now() + 90 * 60_000).toISOString();
  const later = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const windows = [
    { window: 'five_hour', utilization: 0.92, resetsAt: soon },
    { window: 'seven_day', utilization: 0.4, resetsAt: later },
  ];

  it('shows both windows and warns near the end of one', async () => {
    await meterAfter({
      kind: 'limit.updated',
      session: S,
      turn: 't1',
      time: T,
      seq: 2,
      limitStatus: 'allowed_warning',
      window: 'five_hour',
      resetsAt: soon,
      utilization: 0.92,
      windows,
    });
    expect(screen.getByTestId('plan-window-five_hour').textContent).toBe(`5-hour 92% · ${resetText(soon, Date.now())}`);
    expect(screen.getByTestId('plan-window-seven_day').textContent).toBe(`weekly 40% · ${resetText(later, Date.now())}`);
    expect(screen.getByTestId('plan-warning').textContent).toBe(`Near the 5-hour limit · resets ${resetText(soon, Date.now())}`);
  });

  it('says when a reached limit resets, keeping the windows a bare status did not name', async () => {
    await meterAfter(
      { kind: 'limit.updated', session: S, turn: 't1', time: T, seq: 2, limitStatus: 'allowed', windows },
      { kind: 'limit.updated', session: S, turn: 't2', time: '2026-12-02T12:05:00.000Z', seq: 3, limitStatus: 'rejected', window: 'five_hour', resetsAt: soon },
    );
    expect(screen.getByTestId('plan-warning').textContent).toBe(`5-hour limit reached · resets ${resetText(soon, Date.now())}`);
    expect(screen.getByTestId('plan-window-seven_day')).toBeTruthy();
  });

  it('shows nothing where no limits were reported (an API key)', async () => {
    await meterAfter();
    expect(screen.queryByTestId('plan-meter')).toBeNull();
  });

  it('gives the time for today and the weekday otherwise', () => {
    const now = new Date(2026, 11, 2, 9, 0).getTime();
    // In the machine's own locale (scripts/test runs these under de_DE): "14:30" today, "Sa 14:30" on a Saturday.
    const later = new Date(2026, 11, 5, 14, 30);
    const weekday = later.toLocaleDateString([], { weekday: 'short' });
    const today = resetText(new Date(2026, 11, 2, 14, 30).toISOString(), now);
    expect(today).toMatch(/30/);
    expect(today).not.toContain(weekday);
    expect(resetText(later.toISOString(), now)).toMatch(new RegExp(`^${weekday} .*30`));
  });
});

describe('a request the plan limit rejected', () => {
  it('says when the window resets and sends the prompt then, on the clock given', async () => {
    const soon = new Date(Date.now() + 45 * 60_000).toISOString();
    const armed: Array<{ ms: number; fire: () => void }> = [];
    const timer = (ms: number, fire: () => void) => {
      armed.push({ ms, fire });
      return () => undefined;
    };
    const { transport, select } = await renderConsole(
      (t) => {
        t.snapshot = {
          ...t.snapshot,
          sessions: [
            live([
              started,
              { kind: 'turn.started', session: S, turn: 't1', time: T, prompt: 'draft the plan', uuid: 'u1', seq: 2 },
              { kind: 'limit.updated', session: S, turn: 't1', time: T, seq: 3, limitStatus: 'rejected', window: 'five_hour', resetsAt: soon },
              { kind: 'api.error', session: S, turn: 't1', time: T, seq: 4, error: 'rate_limit', httpStatus: 429, message: "You've hit your 5-hour limit" },
              { kind: 'turn.failed', session: S, turn: 't1', time: T, seq: 5, code: 'api_error', message: "You've hit your 5-hour limit" },
            ]),
          ],
        };
        t.on('sendPrompt', () => ({ turn: 't2', queued: false }));
      },
      { timer },
    );
    await select(S);
    const card = screen.getByTestId('plan-reset');
    expect(card.textContent).toContain(`The 5-hour limit resets at ${resetText(soon, Date.now())}.`);
    await userEvent.click(screen.getByTestId('send-at-reset'));
    expect(screen.getByTestId('waiting-for-reset')).toBeTruthy();
    expect(armed).toHaveLength(1);
    expect(armed[0]!.ms).toBeGreaterThan(44 * 60_000);
    expect(armed[0]!.ms).toBeLessThanOrEqual(45 * 60_000);
    expect(transport.callsOf('sendPrompt')).toHaveLength(0); // it waits for the reset
    await act(async () => {
      armed[0]!.fire();
      await settle();
    });
    expect(transport.callsOf('sendPrompt')).toEqual([{ session: S, prompt: 'draft the plan' }]);
    expect(screen.queryByTestId('waiting-for-reset')).toBeNull();
  });
});
