// A goal status filed after the turn's result, however late, still reaches the goal panel: the real SDK and
// claude CLI against the scripted API (which answers the goal's stop-hook evaluation), in process. The CLI writes
// its final goal_status milliseconds after the result and that cannot be slowed down, so the test's goal source
// reads the real transcript but keeps the met status back until the session has stopped reading on its own or
// follows the transcript; then it lets the status through and says the transcript changed.
import { getSessionInfo, getSessionMessages, query } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it, vi } from 'vitest';
import { readGoalStatuses } from '../../src/history/goalStatus.js';
import { type Event, type EventOf, eventSchema } from '../../src/protocol/events.js';
import type { GoalSource } from '../../src/session/goalFollower.js';
import { SdkSession } from '../../src/session/session.js';
import { CLAUDE_BINARY } from '../helpers/fakeApi.js';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';

const S1 = 'c1c1c1c1-0000-4000-8000-000000000001';

const scripted = useScriptedClaude();

/** The real transcript's statuses, the met one kept back until `release`. */
function lateSource(configDir: string) {
  const state = { reads: 0, released: false, changed: undefined as (() => void) | undefined };
  const read = async (session: string) => {
    state.reads += 1;
    const all = await readGoalStatuses(session, configDir);
    return state.released ? all : all.filter((s) => !s.met);
  };
  const source: GoalSource = {
    read,
    watch: (_session, onChange) => {
      state.changed = onChange;
      return Promise.resolve(() => {
        state.changed = undefined;
      });
    },
  };
  // (Callable too: a session that takes a plain read function reads through the same source.)
  return { state, source: Object.assign(read, source) };
}

describe('a goal status written after the result', () => {
  it('reaches the goal panel whenever it is written', async () => {
    const emitted: Event[] = [];
    const late = lateSource(scripted.home.configDir);
    vi.stubEnv('CLAUDE_CONFIG_DIR', scripted.home.configDir);
    vi.stubEnv('HOME', scripted.home.home);
    try {
      const session = await SdkSession.open({
        start: { session: S1, cwd: scripted.home.project },
        executable: CLAUDE_BINARY,
        emit: (e) => emitted.push(eventSchema.parse(e)),
        now: () => new Date(),
        query,
        env: scripted.home.env(scripted.api.url),
        stderr: () => undefined,
        onEnded: () => undefined,
        sessionInfo: (id, options) => getSessionInfo(id, options),
        transcript: (id, options) => getSessionMessages(id, options),
        goalStatuses: late.source,
      });
      session.exec('t1', '/goal the greeting was answered');
      await vi.waitFor(() => expect(emitted.find((e) => e.kind === 'turn.completed' && e.turn === 't1')).toBeDefined(), { timeout: 60_000 });
      const goals = () => emitted.filter((e): e is EventOf<'goal.updated'> => e.kind === 'goal.updated');
      // (Before the end, too: goalsAndHooks.test.ts checks that order.)
      await vi.waitFor(() => expect(goals().map((e) => e.goal?.met)).toEqual([false, false]), { timeout: 10_000 });
      // The session has given up reading (a handful of reads) or follows the transcript: only now is it written.
      await vi.waitFor(() => expect(late.state.reads >= 5 || late.state.changed !== undefined).toBe(true), { timeout: 30_000 });
      expect(goals().map((e) => e.goal?.met)).toEqual([false, false]);
      late.state.released = true;
      late.state.changed?.();
      await vi.waitFor(() => expect(goals().at(-1)?.goal).toMatchObject({ met: true, iterations: 2 }), { timeout: 20_000 });
      expect(late.state.changed, 'following stopped once the goal was met').toBeUndefined();
      await session.close();
    } finally {
      vi.unstubAllEnvs();
    }
  }, 120_000);
});
