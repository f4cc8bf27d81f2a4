// Background work whose SDK signals come in the other order the contract allows: the real SDK and claude CLI
// against the scripted API, in process, with the query's message stream reordered so a task's own terminal
// edges (task_updated, task_notification) come after the empty level signal instead of before it. The edges
// and the level are not ordered by contract; the CLI of today happens to send the edges first.
import { getSessionInfo, getSessionMessages, type Query, query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it, vi } from 'vitest';
import { type Event, type EventOf, eventSchema } from '../../src/protocol/events.js';
import { type QueryFn, SdkSession } from '../../src/session/session.js';
import { CLAUDE_BINARY } from '../helpers/fakeApi.js';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';

const S1 = 'b2b2b2b2-0000-4000-8000-000000000001';
const FOLLOW_UP = 'The background work finished: ';

const scripted = useScriptedClaude();

const isTerminalEdge = (m: SDKMessage) =>
  m.type === 'system' && (m.subtype === 'task_notification' || (m.subtype === 'task_updated' && m.patch.status === 'completed'));
const isLevel = (m: SDKMessage) => m.type === 'system' && m.subtype === 'background_tasks_changed';

/** The real query, with each task's terminal edges held back until the next level signal has gone by. */
const edgesAfterLevel: QueryFn = (params) => {
  const real: Query = query(params);
  const source = real[Symbol.asyncIterator]();
  async function* reordered(): AsyncGenerator<SDKMessage, void> {
    const heldBack: SDKMessage[] = [];
    for (let next = await source.next(); next.done !== true; next = await source.next()) {
      const message = next.value;
      if (isTerminalEdge(message)) {
        heldBack.push(message);
        continue;
      }
      yield message;
      if (isLevel(message)) yield* heldBack.splice(0);
    }
  }
  const stream = reordered();
  return Object.assign(real, { [Symbol.asyncIterator]: () => stream });
};

describe('background signals in the other order', () => {
  it('keeps the follow-up on the launching turn when the notification comes after the empty level', async () => {
    const emitted: Event[] = [];
    vi.stubEnv('CLAUDE_CONFIG_DIR', scripted.home.configDir);
    vi.stubEnv('HOME', scripted.home.home);
    try {
      const session = await SdkSession.open({
        start: { session: S1, cwd: scripted.home.project, permissionMode: 'bypassPermissions' },
        executable: CLAUDE_BINARY,
        emit: (e) => emitted.push(eventSchema.parse(e)),
        now: () => new Date(),
        query: edgesAfterLevel,
        env: scripted.home.env(scripted.api.url),
        stderr: () => undefined,
        onEnded: () => undefined,
        sessionInfo: (id, options) => getSessionInfo(id, options),
        transcript: (id, options) => getSessionMessages(id, options),
      });
      const bash = { command: 'sleep 1; echo finished', description: 'wait then echo', run_in_background: true };
      session.exec('t1', `[tool Bash ${JSON.stringify(bash)}]`);
      await vi.waitFor(() => expect(emitted.find((e) => e.kind === 'turn.completed' && e.turn === 't1')).toBeDefined(), { timeout: 60_000 });
      const levelEmptied = emitted.findIndex((e) => e.kind === 'tasks.updated' && e.tasks.length === 0);
      const completed = emitted.findIndex((e) => e.kind === 'task.completed');
      expect(completed, 'the notification came after the empty level').toBeGreaterThan(levelEmptied);
      const followUp = emitted.find((e): e is EventOf<'message.completed'> => e.kind === 'message.completed' && e.text.startsWith(FOLLOW_UP));
      expect(followUp?.turn).toBe('t1');
      expect(emitted.filter((e) => e.kind === 'turn.started' && e.origin !== undefined)).toEqual([]);
      const ends = emitted.filter((e) => ['turn.completed', 'turn.failed', 'turn.canceled'].includes(e.kind));
      expect(ends.map((e) => e.turn)).toEqual(['t1']);
      expect(emitted.indexOf(ends[0]!)).toBeGreaterThan(emitted.indexOf(followUp!));
      await session.close();
    } finally {
      vi.unstubAllEnvs();
    }
  }, 120_000);
});
