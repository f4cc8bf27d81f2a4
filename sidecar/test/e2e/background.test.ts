// Background work through the real SDK and claude CLI against the scripted fake Messages API: the live task set,
// the task edges, follow-ups Claude Code runs on its own after a task ends (held on the launching turn until the
// session is idle), a follow-up that never comes, stopping a task, and a canceled turn whose task ends later.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Event, EventOf } from '../../src/protocol/events.js';
import type { OutputLine } from '../../src/protocol/schemas.js';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { type SidecarProcess, spawnSidecar } from '../helpers/sidecarProcess.js';
import { allowAll, END_KINDS, event, events, eventsOf, request, turnEnd } from '../helpers/sessionLines.js';

const S1 = 'b1b1b1b1-0000-4000-8000-000000000001';
const S2 = 'b1b1b1b1-0000-4000-8000-000000000002';
const S3 = 'b1b1b1b1-0000-4000-8000-000000000003';
const S4 = 'b1b1b1b1-0000-4000-8000-000000000004';
const S5 = 'b1b1b1b1-0000-4000-8000-000000000005';
const S6 = 'b1b1b1b1-0000-4000-8000-000000000006';
const S7 = 'b1b1b1b1-0000-4000-8000-000000000007';
const S8 = 'b1b1b1b1-0000-4000-8000-000000000008';
const FOLLOW_UP = 'The background work finished: ';

const scripted = useScriptedClaude();

function backgroundBash(command: string, description: string): string {
  return `[tool Bash ${JSON.stringify({ command, description, run_in_background: true })}]`;
}

/** The index of the first of the session's events after `from` that matches (waits for it). */
async function nextIndex(sidecar: SidecarProcess, session: string, from: number, match: (e: Event) => boolean): Promise<number> {
  await sidecar.waitFor((l) => l.type === 'event' && l.event.session === session && match(l.event) && events(sidecar, session).indexOf(l.event) > from);
  return events(sidecar, session).findIndex((e, i) => i > from && match(e));
}

/** A shell loop that ends once the test creates `path`: the test decides when the task ends. */
const untilFile = (path: string, then: string) => `while [ ! -f ${path} ]; do sleep 0.05; done; ${then}`;

/** Every turn that started ended exactly once. */
function expectOneEndPerTurn(sidecar: SidecarProcess, session: string): void {
  const ends = new Map<string, number>();
  for (const e of events(sidecar, session)) {
    if (!END_KINDS.includes(e.kind)) continue;
    expect(e.turn, `a ${e.kind} names its turn`).toBeDefined();
    ends.set(e.turn!, (ends.get(e.turn!) ?? 0) + 1);
  }
  for (const e of eventsOf(sidecar, session, 'turn.started')) expect(ends.get(e.turn!), `${e.turn} ends once`).toBe(1);
}

describe('background work through the real SDK', () => {
  it('holds the launching turn until its background command and follow-up are done; history maps the same', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    const stop = allowAll(sidecar, S1);
    try {
      await request(sidecar, 'start', { session: S1, cwd: scripted.home.project });
      await request(sidecar, 'exec', { session: S1, turn: 't1', prompt: backgroundBash('sleep 2; echo finished', 'wait then echo') });
      const end = await turnEnd(sidecar, S1, 't1');
      expect(end).toMatchObject({ kind: 'turn.completed' });
      const t1 = events(sidecar, S1).filter((e) => e.turn === 't1');
      const kinds = t1.map((e) => e.kind);
      // The level signal: one task, then none; the edges: started in the background, completed.
      // (The level often comes before task_started; the live entry is sent again once it knows its tool call.)
      const levels = eventsOf(sidecar, S1, 'tasks.updated').map((e) => e.tasks.map((t) => t.description));
      expect(levels.at(-1)).toEqual([]);
      expect(new Set(levels.slice(0, -1).map((l) => JSON.stringify(l)))).toEqual(new Set([JSON.stringify(['wait then echo'])]));
      expect(eventsOf(sidecar, S1, 'tasks.updated').at(-2)?.tasks[0]).toMatchObject({ taskType: 'local_bash', toolUseId: expect.stringMatching(/^toolu_/) });
      expect(eventsOf(sidecar, S1, 'task.started')).toMatchObject([{ turn: 't1', taskType: 'local_bash', backgrounded: true }]);
      expect(eventsOf(sidecar, S1, 'task.completed')).toMatchObject([{ turn: 't1', taskEnd: 'completed' }]);
      // The follow-up is Claude's continuation of t1, and t1 ends after it (not at its first result).
      const followUp = t1.find((e) => e.kind === 'message.completed' && e.role === 'assistant' && e.text.startsWith(FOLLOW_UP));
      expect(followUp).toBeDefined();
      expect(kinds.indexOf('turn.completed')).toBeGreaterThan(t1.indexOf(followUp!));
      expect(eventsOf(sidecar, S1, 'turn.started').filter((e) => e.origin !== undefined)).toEqual([]);
      // No person's words came out of the notification.
      for (const e of eventsOf(sidecar, S1, 'message.completed')) expect(e.text).not.toContain('task-notification');

      await request(sidecar, 'exec', { session: S1, turn: 't2', prompt: 'after the background work' });
      expect(await turnEnd(sidecar, S1, 't2')).toMatchObject({ kind: 'turn.completed', result: 'You said: after the background work' });
      expectOneEndPerTurn(sidecar, S1);

      const history = await request(sidecar, 'history', { session: S1, cwd: scripted.home.project });
      expect(history.type).toBe('ok');
      const mapped = (history as Extract<OutputLine, { type: 'ok' }>).payload['events'] as Event[];
      const prompts = mapped.filter((e): e is EventOf<'turn.started'> => e.kind === 'turn.started');
      expect(prompts.map((e) => e.prompt)).toEqual([backgroundBash('sleep 2; echo finished', 'wait then echo'), 'after the background work']);
      const historyFollowUp = mapped.find((e) => e.kind === 'message.completed' && e.text.startsWith(FOLLOW_UP));
      expect(historyFollowUp?.turn).toBe(prompts[0]?.uuid);
      expect(mapped.filter((e) => e.kind === 'unknown')).toEqual([]);
      for (const e of mapped) if (e.kind === 'message.completed') expect(e.text).not.toContain('task-notification');
    } finally {
      stop();
      await request(sidecar, 'close', { session: S1 });
      expect(await sidecar.end()).toBe(0);
    }
  }, 120_000);

  it("nests a background agent's tools under its call, and holds the turn until the agent is done", async () => {
    const sidecar = spawnSidecar({ env: { ...scripted.home.env(scripted.api.url), BATON_CONTINUATION_DELAY_MS: '2000' } });
    const stop = allowAll(sidecar, S5);
    try {
      await request(sidecar, 'start', { session: S5, cwd: scripted.home.project });
      const agent = { description: 'look around', prompt: '[bash echo from the agent]', subagent_type: 'general-purpose', run_in_background: true };
      await request(sidecar, 'exec', { session: S5, turn: 't1', prompt: `[tool Agent ${JSON.stringify(agent)}]` });
      expect(await turnEnd(sidecar, S5, 't1')).toMatchObject({ kind: 'turn.completed' });
      const call = eventsOf(sidecar, S5, 'tool.started').find((e) => e.name === 'Agent');
      expect(call).toBeDefined();
      // (The fake also reads the marker in the agent's prompt at the top level: only the agent's own Bash nests.)
      const inner = eventsOf(sidecar, S5, 'tool.started').filter((e) => e.name === 'Bash' && e.parentToolUseId !== undefined);
      expect(inner).toMatchObject([{ parentToolUseId: call!.toolUseId }]);
      expect(eventsOf(sidecar, S5, 'tool.completed').find((e) => e.toolUseId === inner[0]!.toolUseId)?.output).toBe('from the agent');
      // Whether Claude Code answers the agent's notification inside the turn or in a follow-up after it depends on
      // when the agent ends; either way the turn ends once, after the agent, and at Claude Code's idle edge — never
      // by giving up a follow-up that was folded into the turn (no continuation_delayed).
      expect(eventsOf(sidecar, S5, 'session.updated').filter((e) => e.warning !== undefined)).toEqual([]);
      expect(eventsOf(sidecar, S5, 'task.started')).toMatchObject([{ toolUseId: call!.toolUseId, backgrounded: true }]);
      expect(eventsOf(sidecar, S5, 'task.completed')).toMatchObject([{ taskEnd: 'completed' }]);
      expect(eventsOf(sidecar, S5, 'tasks.updated').at(-1)?.tasks).toEqual([]);
      const ended = events(sidecar, S5).findIndex((e) => e.kind === 'turn.completed' && e.turn === 't1');
      expect(ended).toBeGreaterThan(events(sidecar, S5).findIndex((e) => e.kind === 'task.completed'));
      expectOneEndPerTurn(sidecar, S5);
    } finally {
      stop();
      await request(sidecar, 'close', { session: S5 });
      expect(await sidecar.end()).toBe(0);
    }
  }, 120_000);

  it('ends a held turn at idle, not at its first follow-up result, when two tasks get two follow-ups', async () => {
    const ctl = join(scripted.home.home, 'ctl-two-follow-ups');
    mkdirSync(ctl, { recursive: true });
    const touch = (name: string) => writeFileSync(join(ctl, name), '');
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    const stop = allowAll(sidecar, S6);
    try {
      await request(sidecar, 'start', { session: S6, cwd: scripted.home.project });
      // A's follow-up pauses mid-reply until "go" exists ([await-file]); B ends while it is paused, so Claude
      // Code answers B in a second follow-up after A's result, with no idle edge between them.
      const a = backgroundBash(untilFile(join(ctl, 'a'), 'echo a'), `first [await-file ${join(ctl, 'go')}]`);
      const b = backgroundBash(untilFile(join(ctl, 'b'), 'echo b'), 'second');
      await request(sidecar, 'exec', { session: S6, turn: 't1', prompt: `${a}${b}` });
      const rootAnswer = (e: Event) => e.kind === 'message.completed' && e.role === 'assistant' && e.text.startsWith('Tool results:');
      let at = await nextIndex(sidecar, S6, -1, rootAnswer);
      touch('a');
      at = await nextIndex(sidecar, S6, at, (e) => e.kind === 'task.completed');
      at = await nextIndex(sidecar, S6, at, (e) => e.kind === 'message.delta');
      touch('b');
      at = await nextIndex(sidecar, S6, at, (e) => e.kind === 'task.completed');
      await nextIndex(sidecar, S6, at, (e) => e.kind === 'tasks.updated' && e.tasks.length === 0);
      touch('go');
      expect(await turnEnd(sidecar, S6, 't1')).toMatchObject({ kind: 'turn.completed', numTurns: expect.any(Number) });
      const all = events(sidecar, S6);
      const followUps = all.filter((e): e is EventOf<'message.completed'> => e.kind === 'message.completed' && e.text.startsWith(FOLLOW_UP));
      expect(followUps.map((e) => [e.turn, /first|second/.exec(e.text)?.[0]])).toEqual([
        ['t1', 'first'],
        ['t1', 'second'],
      ]);
      const ended = all.findIndex((e) => e.kind === 'turn.completed' && e.turn === 't1');
      expect(ended).toBeGreaterThan(all.indexOf(followUps[1]!));
      expect(all.filter((e) => e.kind.startsWith('message.') && e.turn === undefined)).toEqual([]);
      expect(eventsOf(sidecar, S6, 'turn.started').filter((e) => e.origin !== undefined)).toEqual([]);
      await request(sidecar, 'exec', { session: S6, turn: 't2', prompt: 'after both' });
      expect(await turnEnd(sidecar, S6, 't2')).toMatchObject({ kind: 'turn.completed', result: 'You said: after both' });
      expectOneEndPerTurn(sidecar, S6);
    } finally {
      stop();
      await request(sidecar, 'close', { session: S6 });
      expect(await sidecar.end()).toBe(0);
    }
  }, 120_000);

  it("keeps a still-running background agent's tools on its launching turn, not the next person's", async () => {
    const gate = join(scripted.home.home, 'ctl-agent', 'go');
    mkdirSync(join(scripted.home.home, 'ctl-agent'), { recursive: true });
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    const stop = allowAll(sidecar, S7);
    try {
      await request(sidecar, 'start', { session: S7, cwd: scripted.home.project });
      // The agent's Bash waits for the gate. Its prompt's "[" is escaped in the JSON so that only the agent's own
      // request reads the marker (the fake reads markers in the raw text a prompt holds).
      const agent = {
        description: 'wait for the gate',
        prompt: `[bash ${untilFile(gate, 'echo from the agent')}]`,
        subagent_type: 'general-purpose',
        run_in_background: true,
      };
      const input = JSON.stringify(agent).replace('"[bash', '"\\u005bbash');
      await request(sidecar, 'exec', { session: S7, turn: 't1', prompt: `[tool Agent ${input}]` });
      const call = await event(sidecar, S7, 'tool.started', (e) => e.name === 'Agent');
      const inner = await event(sidecar, S7, 'tool.started', (e) => e.name === 'Bash' && e.parentToolUseId === call.toolUseId);
      expect(inner.turn).toBe('t1');
      // The next person's turn starts and is bound while the agent still runs; then the agent goes on.
      await request(sidecar, 'exec', { session: S7, turn: 't2', prompt: 'meanwhile' });
      await event(sidecar, S7, 'turn.accepted', (e) => e.turn === 't2');
      await event(sidecar, S7, 'message.completed', (e) => e.turn === 't2' && e.text === 'You said: meanwhile');
      writeFileSync(gate, '');
      expect(await event(sidecar, S7, 'task.completed')).toMatchObject({ turn: 't1' });
      await turnEnd(sidecar, S7, 't2');
      const done = eventsOf(sidecar, S7, 'tool.completed').find((e) => e.toolUseId === inner.toolUseId);
      expect(done).toMatchObject({ turn: 't1', output: 'from the agent' });
      const agentsOwn = events(sidecar, S7).filter((e) => 'parentToolUseId' in e && e.parentToolUseId === call.toolUseId);
      expect(agentsOwn.length).toBeGreaterThan(1);
      expect(new Set(agentsOwn.map((e) => e.turn))).toEqual(new Set(['t1']));
      expectOneEndPerTurn(sidecar, S7);
    } finally {
      stop();
      await request(sidecar, 'close', { session: S7 });
      expect(await sidecar.end()).toBe(0);
    }
  }, 120_000);

  it("closes a background agent's open tools on its launching turn when a later turn's cancel stops the query", async () => {
    const ctl = join(scripted.home.home, 'ctl-agent-cancel');
    mkdirSync(ctl, { recursive: true });
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    const stop = allowAll(sidecar, S8);
    try {
      await request(sidecar, 'start', { session: S8, cwd: scripted.home.project });
      const agent = {
        description: 'wait for the gate',
        prompt: `[bash ${untilFile(join(ctl, 'never'), 'echo late')}]`,
        subagent_type: 'general-purpose',
        run_in_background: true,
      };
      const input = JSON.stringify(agent).replace('"[bash', '"\\u005bbash');
      await request(sidecar, 'exec', { session: S8, turn: 't1', prompt: `[tool Agent ${input}]` });
      const call = await event(sidecar, S8, 'tool.started', (e) => e.name === 'Agent');
      const inner = await event(sidecar, S8, 'tool.started', (e) => e.name === 'Bash' && e.parentToolUseId === call.toolUseId);
      // The person's next turn runs a command that waits; its cancel revokes the query, which routes nothing more.
      await request(sidecar, 'exec', { session: S8, turn: 't2', prompt: `[bash ${untilFile(join(ctl, 'go'), 'echo t2')}]` });
      await event(sidecar, S8, 'tool.started', (e) => e.turn === 't2' && e.name === 'Bash');
      await request(sidecar, 'cancel', { session: S8, turn: 't2', interruptBudgetMs: 3000, drainBudgetMs: 3000 });
      const end = await turnEnd(sidecar, S8, 't2');
      expect(end).toMatchObject({ kind: 'turn.canceled' });
      const all = events(sidecar, S8);
      const innerEnds = all.filter((e) => 'toolUseId' in e && e.toolUseId === inner.toolUseId && e.kind !== 'tool.started' && e.kind !== 'tool.updated');
      expect(innerEnds).toMatchObject([{ kind: 'tool.interrupted', turn: 't1', cause: 'cancel' }]);
      expect(all.indexOf(innerEnds[0]!)).toBeLessThan(all.indexOf(end));
    } finally {
      writeFileSync(join(ctl, 'go'), '');
      stop();
      await request(sidecar, 'close', { session: S8 });
      expect(await sidecar.end()).toBe(0);
    }
  }, 120_000);

  it('gives up a follow-up that never comes: continuation_delayed, the turn ends, late output never attaches', async () => {
    const sidecar = spawnSidecar({ env: { ...scripted.home.env(scripted.api.url), BATON_CONTINUATION_DELAY_MS: '300' } });
    const stop = allowAll(sidecar, S2);
    try {
      await request(sidecar, 'start', { session: S2, cwd: scripted.home.project });
      await request(sidecar, 'exec', { session: S2, turn: 't1', prompt: backgroundBash('echo soon', 'answer [withhold]') });
      const warning = await event(sidecar, S2, 'session.updated', (e) => e.warning !== undefined);
      expect(warning).toMatchObject({ turn: 't1', warning: 'continuation_delayed' });
      expect(await turnEnd(sidecar, S2, 't1')).toMatchObject({ kind: 'turn.completed' });
      await request(sidecar, 'exec', { session: S2, turn: 't2', prompt: 'next question' });
      // (Claude Code tells the model its follow-up was interrupted, in the same message as the prompt.)
      expect(await turnEnd(sidecar, S2, 't2')).toMatchObject({ kind: 'turn.completed', result: expect.stringMatching(/next question$/) });
      expect(eventsOf(sidecar, S2, 'message.completed').filter((e) => e.text.startsWith(FOLLOW_UP))).toEqual([]);
      expect(eventsOf(sidecar, S2, 'turn.started').filter((e) => e.origin !== undefined)).toEqual([]);
      expectOneEndPerTurn(sidecar, S2);
    } finally {
      stop();
      await request(sidecar, 'close', { session: S2 });
      expect(await sidecar.end()).toBe(0);
    }
  }, 120_000);

  it('stops a background task on request', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    const stop = allowAll(sidecar, S3);
    try {
      await request(sidecar, 'start', { session: S3, cwd: scripted.home.project });
      await request(sidecar, 'exec', { session: S3, turn: 't1', prompt: backgroundBash('sleep 600', 'a long wait') });
      const started = await event(sidecar, S3, 'task.started');
      expect(await request(sidecar, 'stop_task', { session: S3, taskId: started.taskId })).toMatchObject({ type: 'ok' });
      expect(await event(sidecar, S3, 'task.completed')).toMatchObject({ taskId: started.taskId, taskEnd: 'stopped' });
      await turnEnd(sidecar, S3, 't1');
      expect(eventsOf(sidecar, S3, 'tasks.updated').at(-1)?.tasks).toEqual([]);
      expect(await request(sidecar, 'background_task', { session: S3, toolUseId: 'toolu_nothing' })).toMatchObject({ payload: { backgrounded: false } });
      expectOneEndPerTurn(sidecar, S3);
    } finally {
      stop();
      await request(sidecar, 'close', { session: S3 });
      expect(await sidecar.end()).toBe(0);
    }
  }, 120_000);

  it('opens no continuation for a canceled turn whose background task ends later', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    try {
      await request(sidecar, 'start', { session: S4, cwd: scripted.home.project });
      // The first Bash runs in the background; the second keeps the turn busy in the foreground until the cancel.
      const busy = `[tool Bash ${JSON.stringify({ command: 'sleep 30', description: 'keep busy' })}]`;
      await request(sidecar, 'exec', { session: S4, turn: 't1', prompt: `${backgroundBash('sleep 2; echo late', 'late work')}${busy}` });
      await event(sidecar, S4, 'task.started', (e) => e.backgrounded);
      await event(sidecar, S4, 'tool.started', (e) => JSON.stringify(e.input).includes('sleep 30'));
      expect(await request(sidecar, 'cancel', { session: S4, turn: 't1', interruptBudgetMs: 3000, drainBudgetMs: 3000 })).toMatchObject({
        payload: { disposition: 'provider_active' },
      });
      await request(sidecar, 'exec', { session: S4, turn: 't2', prompt: 'still here' });
      expect(await turnEnd(sidecar, S4, 't2')).toMatchObject({ kind: 'turn.completed', result: 'You said: still here' });
      expect(eventsOf(sidecar, S4, 'turn.started').filter((e) => e.origin !== undefined)).toEqual([]);
      expect(eventsOf(sidecar, S4, 'message.completed').filter((e) => e.text.startsWith(FOLLOW_UP))).toEqual([]);
      // The fresh claude process has no background task.
      expect(eventsOf(sidecar, S4, 'tasks.updated').at(-1)?.tasks).toEqual([]);
      expectOneEndPerTurn(sidecar, S4);
    } finally {
      await request(sidecar, 'close', { session: S4 });
      expect(await sidecar.end()).toBe(0);
    }
  }, 120_000);
});
