// Following a goal in a real transcript file with the real watcher: a status filed after the turn's result (at
// any time, not within a few fixed reads) still goes out, and following stops once the goal is met. The lines
// are the shape Claude Code files (history/goalStatus.ts); the CLI itself runs in test/e2e/goalsAndHooks.test.ts,
// where the final status is written milliseconds after the result and cannot be made late on purpose.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readGoalStatuses, watchTranscript } from '../../src/history/goalStatus.js';
import { Mapper } from '../../src/mapper/mapper.js';
import type { Event } from '../../src/protocol/events.js';
import { GoalFollower, type GoalSource } from '../../src/session/goalFollower.js';

const SESSION = 'd0d0d0d0-0000-4000-8000-000000000001';
const CONDITION = 'the tests pass';
let dir: string | undefined;

afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const status = (uuid: string, second: number, fields: object) =>
  `${JSON.stringify({ type: 'attachment', uuid, timestamp: `2026-01-01T00:00:0${second}.000Z`, attachment: { type: 'goal_status', condition: CONDITION, ...fields } })}\n`;

describe('GoalFollower', () => {
  it('reads the statuses at the result, then follows the transcript until the goal is met', async () => {
    dir = mkdtempSync(join(tmpdir(), 'baton-goal-follow-'));
    const transcript = join(dir, 'projects', 'p', `${SESSION}.jsonl`);
    mkdirSync(join(dir, 'projects', 'p'), { recursive: true });
    writeFileSync(transcript, status('u1', 1, { met: false, sentinel: true }));
    const configDir = dir;
    let watching: () => void = () => undefined;
    const watched = new Promise<void>((resolve) => (watching = resolve));
    let stopped = false;
    const source: GoalSource = {
      read: (session) => readGoalStatuses(session, configDir),
      watch: async (session, onChange) => {
        const stop = await watchTranscript(session, onChange, configDir);
        watching();
        return () => {
          stopped = true;
          stop?.();
        };
      },
    };
    const mapper = new Mapper(SESSION, () => new Date());
    mapper.notePromptText(`/goal ${CONDITION}`);
    const emitted: Event[] = [];
    const follower = new GoalFollower(SESSION, source, {
      inPlay: () => mapper.goalInPlay,
      active: () => mapper.goalActive,
      observed: (statuses) => mapper.goalObserved(statuses),
      turnEnded: () => mapper.goalTurnEnded(),
      emit: (event) => emitted.push(event),
      isOpen: () => true,
      log: () => undefined,
    });
    expect(follower.wanted).toBe(true);
    await follower.beforeEnd();
    expect(emitted).toMatchObject([{ kind: 'goal.updated', goal: { condition: CONDITION, met: false, iterations: 0 } }]);
    follower.afterEnd();
    await watched;
    // Written after the result (the turn's end went out long ago, as far as the follower knows).
    appendFileSync(transcript, status('u2', 2, { met: false, reason: 'not yet' }));
    await vi.waitFor(() => expect(emitted).toHaveLength(2), { timeout: 10_000 });
    appendFileSync(transcript, status('u3', 3, { met: true, reason: 'done', iterations: 2 }));
    await vi.waitFor(() => expect(emitted).toHaveLength(3), { timeout: 10_000 });
    expect(emitted.at(-1)).toMatchObject({ kind: 'goal.updated', goal: { met: true, iterations: 2 } });
    expect(stopped).toBe(true);
  });
});
