// Background work, goals and the other session-level signals (mapper/background.ts): rules the e2e tests cannot
// force the real CLI into (a stale run, a task reported twice, a terminal task patched back to running, a goal
// cleared while active). Messages follow the SDK's shapes (sdk.d.ts).
import { describe, expect, it } from 'vitest';
import { withGoals } from '../../src/history/history.js';
import { parseGoalStatuses } from '../../src/history/goalStatus.js';
import { Mapper } from '../../src/mapper/mapper.js';
import { type Event, eventSchema } from '../../src/protocol/events.js';
import { fixedClock } from '../helpers/clock.js';

const SESSION = '5e551011-0000-4000-8000-000000000001';

function mapAll(m: Mapper, messages: unknown[]): Event[] {
  const events = messages.flatMap((message) => m.map(message, { turn: 't1' }));
  for (const event of events) expect(eventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
  return events;
}

const sys = (subtype: string, fields: Record<string, unknown>) => ({ type: 'system', subtype, uuid: 'u', session_id: SESSION, ...fields });
const level = (...tasks: Array<Record<string, unknown>>) => sys('background_tasks_changed', { tasks });

describe('background tasks', () => {
  it('replaces the live set on every level signal, and names the launching tool call once task_started says it', () => {
    const m = new Mapper(SESSION, fixedClock());
    const events = mapAll(m, [
      level(
        { task_id: 'b1', run_id: 'r1', task_type: 'local_bash', description: 'build' },
        { task_id: 'w', task_type: 'monitor', description: 'watch', ambient: true },
      ),
      sys('task_started', { task_id: 'b1', run_id: 'r1', tool_use_id: 'toolu_1', description: 'build', task_type: 'local_bash', is_backgrounded: true }),
      level(),
    ]);
    expect(events.map((e) => e.kind)).toEqual(['tasks.updated', 'tool.updated', 'tasks.updated', 'task.started', 'tasks.updated']);
    expect(events[2]).toMatchObject({
      tasks: [
        { taskId: 'b1', toolUseId: 'toolu_1' },
        { taskId: 'w', ambient: true },
      ],
    });
    expect(m.activeTasks).toEqual([]);
    expect(events.at(-1)).toMatchObject({ tasks: [] });
  });

  it('settles a task reported twice once, ignores a stale run and never takes a terminal task back to running', () => {
    const m = new Mapper(SESSION, fixedClock());
    const events = mapAll(m, [
      sys('task_started', { task_id: 'a', run_id: 'r2', description: 'agent', task_type: 'local_agent' }),
      sys('task_updated', { task_id: 'a', run_id: 'r1', patch: { status: 'failed' } }), // an earlier run: late
      sys('task_updated', { task_id: 'a', run_id: 'r2', patch: { status: 'completed' } }),
      sys('task_updated', { task_id: 'a', run_id: 'r2', patch: { status: 'running' } }), // terminal stays terminal
      sys('task_notification', { task_id: 'a', run_id: 'r2', status: 'completed', output_file: '/o', summary: 'done' }),
      sys('task_notification', { task_id: 'a', run_id: 'r2', status: 'completed', output_file: '/o', summary: 'done' }),
      sys('task_updated', { task_id: 'k', patch: { status: 'killed' } }),
    ]);
    expect(events.map((e) => `${e.kind}:${'taskState' in e ? e.taskState : 'taskEnd' in e ? e.taskEnd : ''}`)).toEqual([
      'task.started:',
      'task.updated:completed',
      'task.completed:completed',
      'task.updated:stopped',
    ]);
  });

  it('empties the live set when the claude process restarts, and says so only when it was not empty', () => {
    const m = new Mapper(SESSION, fixedClock());
    expect(m.queryRestarted()).toEqual([]);
    mapAll(m, [level({ task_id: 'b1', task_type: 'local_bash', description: 'build' })]);
    expect(m.activeTasks).toHaveLength(1);
    expect(m.queryRestarted()).toEqual([{ kind: 'tasks.updated', tasks: [] }]);
    expect(m.activeTasks).toEqual([]);
  });

  it('never shows Claude Code’s task notification as a person’s words, live or in a transcript', () => {
    const notice = {
      type: 'user',
      uuid: 'n1',
      session_id: SESSION,
      parent_tool_use_id: null,
      message: { role: 'user', content: '<task-notification>\n<task-id>b1</task-id>\n</task-notification>' },
    };
    expect(new Mapper(SESSION, fixedClock()).map(notice)).toEqual([]);
    expect(new Mapper(SESSION, fixedClock(), { transcript: true }).map(notice)).toEqual([]);
  });
});

describe('goals', () => {
  const observation = (uuid: string, at: string, fields: Record<string, unknown>) =>
    JSON.stringify({ type: 'attachment', uuid, timestamp: at, attachment: { type: 'goal_status', condition: 'tests pass', ...fields } });

  it('reads goal_status attachments: set, not met (with the reason), met; other lines are skipped', () => {
    const text = [
      observation('g1', '2026-12-01T10:00:00.000Z', { met: false, sentinel: true }),
      '{"type":"user","message":{"role":"user","content":"x"}}',
      observation('g2', '2026-12-01T10:00:01.000Z', { met: false, reason: 'two fail' }),
      observation('g3', '2026-12-01T10:00:02.000Z', { met: true, reason: 'all pass', iterations: 2 }),
      '{"torn',
    ].join('\n');
    const m = new Mapper(SESSION, fixedClock());
    const events = m.goalObserved(parseGoalStatuses(text));
    expect(events.map((e) => (e.kind === 'goal.updated' ? e.goal : undefined))).toEqual([
      { condition: 'tests pass', met: false, iterations: 0 },
      { condition: 'tests pass', met: false, iterations: 1, lastReason: 'two fail' },
      { condition: 'tests pass', met: true, iterations: 2, lastReason: 'all pass' },
    ]);
    // Each status is reported once, however often the transcript is read again.
    expect(m.goalObserved(parseGoalStatuses(text))).toEqual([]);
  });

  it('reads a cleared goal from the command sent, and an ordinary turn end as nothing', () => {
    const m = new Mapper(SESSION, fixedClock());
    m.goalObserved(parseGoalStatuses(observation('g1', '2026-12-01T10:00:00.000Z', { met: false, sentinel: true })));
    m.notePromptText('Hello');
    expect(m.goalTurnEnded()).toEqual([]);
    expect(m.goalActive).toBe(true);
    m.notePromptText('/goal clear');
    expect(m.goalTurnEnded().map((e) => e.kind === 'goal.updated' && e.goal)).toEqual([undefined]);
    expect(m.goalActive).toBe(false);
  });

  it('reads the SDK’s active_goal: a value keeps the goal, null after /goal clear clears it, null otherwise means met', () => {
    const m = new Mapper(SESSION, fixedClock());
    const goal = (value: unknown) => ({ type: 'active_goal', value, uuid: 'u', session_id: SESSION });
    const active = { condition: 'ship it', iterations: 1, set_at: 1, tokens_at_start: 0, last_reason: 'not yet' };
    const events = mapAll(m, [goal(active), goal(null)]);
    expect(events.map((e) => e.kind === 'goal.updated' && e.goal)).toEqual([
      { condition: 'ship it', met: false, iterations: 1, lastReason: 'not yet' },
      { condition: 'ship it', met: true, iterations: 1, lastReason: 'not yet' },
    ]);
    m.notePromptText('/goal clear');
    expect(mapAll(m, [goal(active), goal(null)]).map((e) => e.kind === 'goal.updated' && e.goal)).toEqual([expect.objectContaining({ met: false }), undefined]);
  });

  it('puts history’s goal statuses where they were written, in that turn', () => {
    const at = (s: number) => `2026-12-01T10:00:0${s}.000Z`;
    const events: Event[] = [
      { kind: 'turn.started', session: SESSION, turn: 'p1', time: at(0), prompt: '/goal tests pass', uuid: 'p1' },
      { kind: 'message.completed', session: SESSION, turn: 'p1', time: at(2), role: 'assistant', text: 'working' },
      { kind: 'turn.started', session: SESSION, turn: 'p2', time: at(4), prompt: '/goal clear', uuid: 'p2' },
    ];
    const goals = parseGoalStatuses(
      [observation('g1', at(1), { met: false, sentinel: true }), observation('g2', at(3), { met: false, reason: 'no' })].join('\n'),
    );
    const merged = withGoals(events, goals, SESSION, fixedClock());
    expect(merged.map((e) => `${e.turn}:${e.kind}`)).toEqual([
      'p1:turn.started',
      'p1:goal.updated',
      'p1:message.completed',
      'p1:goal.updated',
      'p2:turn.started',
      'p2:goal.updated',
    ]);
    expect(merged.at(-1)).toMatchObject({ kind: 'goal.updated' });
    expect((merged.at(-1) as { goal?: unknown }).goal).toBeUndefined();
  });
});

describe('compaction, hooks and command pushes', () => {
  it('maps each to its event', () => {
    const m = new Mapper(SESSION, fixedClock());
    const events = mapAll(m, [
      sys('compact_boundary', { compact_metadata: { trigger: 'manual', pre_tokens: 1200 } }),
      sys('hook_started', { hook_id: 'h', hook_name: 'PreToolUse:Bash', hook_event: 'PreToolUse' }),
      sys('hook_response', {
        hook_id: 'h',
        hook_name: 'PreToolUse:Bash',
        hook_event: 'PreToolUse',
        output: '',
        stdout: 'ok\n',
        stderr: '',
        exit_code: 0,
        outcome: 'success',
      }),
      sys('commands_changed', { commands: [{ name: 'review', description: 'Review', argumentHint: '' }] }),
    ]);
    expect(events).toMatchObject([
      { kind: 'session.compacted', trigger: 'manual', preTokens: 1200 },
      { kind: 'hook.ran', hookEvent: 'PreToolUse', name: 'PreToolUse:Bash', outcome: 'success', output: 'ok\n' },
      { kind: 'commands.updated', commands: [{ name: 'review', description: 'Review' }] },
    ]);
  });
});
