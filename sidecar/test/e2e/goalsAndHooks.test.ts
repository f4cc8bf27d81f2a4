// /goal, /compact and settings hooks through the real SDK and claude CLI against the scripted fake Messages API
// (which answers the goal's stop-hook evaluation: not met until the model's answer says "[goal-met]").
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Event, EventOf } from '../../src/protocol/events.js';
import type { OutputLine } from '../../src/protocol/schemas.js';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { spawnSidecar } from '../helpers/sidecarProcess.js';
import { event, events, eventsOf, request, turnEnd } from '../helpers/sessionLines.js';

const S1 = 'c0c0c0c0-0000-4000-8000-000000000001';
const S2 = 'c0c0c0c0-0000-4000-8000-000000000002';

const scripted = useScriptedClaude();

const goalSummary = (e: EventOf<'goal.updated'>) =>
  e.goal === undefined ? 'none' : `${e.goal.condition}|${e.goal.met ? 'met' : 'not met'}|${e.goal.iterations}`;

describe('goals, compaction and hooks through the real SDK', () => {
  it('reports a goal set, not met, then met — live and in history — and nothing once it is cleared', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    try {
      await request(sidecar, 'start', { session: S1, cwd: scripted.home.project });
      await request(sidecar, 'exec', { session: S1, turn: 't1', prompt: '/goal the greeting was answered' });
      expect(await turnEnd(sidecar, S1, 't1')).toMatchObject({ kind: 'turn.completed' });
      await event(sidecar, S1, 'goal.updated', (e) => e.goal?.met === true);
      const live = eventsOf(sidecar, S1, 'goal.updated').map(goalSummary);
      expect(live).toEqual(['the greeting was answered|not met|0', 'the greeting was answered|not met|1', 'the greeting was answered|met|2']);
      expect(eventsOf(sidecar, S1, 'goal.updated')[1]?.goal?.lastReason).toBe('Not yet: the answer must say [goal-met]');
      // The statuses Claude Code filed during the turn go out before its end (the final one, written just after
      // the result, may go either side of it).
      const order = events(sidecar, S1).map((e) => (e.kind === 'goal.updated' ? goalSummary(e) : e.kind === 'turn.completed' ? `end ${e.turn}` : e.kind));
      expect(order.indexOf(live[1]!)).toBeLessThan(order.indexOf('end t1'));
      expect(order.indexOf(live[0]!)).toBeLessThan(order.indexOf(live[1]!));
      await request(sidecar, 'exec', { session: S1, turn: 't2', prompt: '/goal clear' });
      await turnEnd(sidecar, S1, 't2');
      const history = await request(sidecar, 'history', { session: S1, cwd: scripted.home.project });
      const mapped = (history as Extract<OutputLine, { type: 'ok' }>).payload['events'] as Event[];
      const goals = mapped.filter((e): e is EventOf<'goal.updated'> => e.kind === 'goal.updated');
      expect(goals.map(goalSummary)).toEqual(live);
      const prompts = mapped.filter((e): e is EventOf<'turn.started'> => e.kind === 'turn.started').map((e) => e.prompt);
      // The slash command reads as typed, as live. (A /goal clear with no goal left is not in the SDK's transcript view.)
      expect(prompts[0]).toBe('/goal the greeting was answered');
      expect(mapped.filter((e) => e.kind === 'unknown')).toEqual([]);
    } finally {
      await request(sidecar, 'close', { session: S1 });
      expect(await sidecar.end()).toBe(0);
    }
  }, 120_000);

  it('marks a /compact and shows a settings hook run as hook.ran', async () => {
    writeFileSync(
      join(scripted.home.configDir, 'settings.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo checked-by-hook' }] }] } }),
    );
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    try {
      await request(sidecar, 'start', { session: S2, cwd: scripted.home.project });
      await request(sidecar, 'exec', { session: S2, turn: 't1', prompt: 'Hello there' });
      await turnEnd(sidecar, S2, 't1');
      expect(eventsOf(sidecar, S2, 'hook.ran')).toMatchObject([{ hookEvent: 'UserPromptSubmit', outcome: 'success' }]);
      await request(sidecar, 'exec', { session: S2, turn: 't2', prompt: '/compact' });
      await turnEnd(sidecar, S2, 't2');
      expect(eventsOf(sidecar, S2, 'session.compacted')).toMatchObject([{ trigger: 'manual' }]);
      expect(eventsOf(sidecar, S2, 'unknown')).toEqual([]);
    } finally {
      await request(sidecar, 'close', { session: S2 });
      expect(await sidecar.end()).toBe(0);
      writeFileSync(join(scripted.home.configDir, 'settings.json'), '{}');
    }
  }, 120_000);
});
