import { describe, expect, it } from 'vitest';
import type { ConsoleEvent, SessionEvent } from '../src/protocol/events';
import { foldEvents, markQueued, newSession, REPLAY } from '../src/store/fold';
import type { Item, SessionState } from '../src/store/types';
import { lasting, RECORDED_SESSION, recordedWithUnknown, upTo } from './fixtures';

const fresh = () => newSession({ id: RECORDED_SESSION, cwd: '' });
const T = '2026-01-01T00:00:00.000Z';

function items(s: SessionState): Item[] {
  return s.transcript.rows.map((key) => {
    const item = s.transcript.items.get(key);
    if (item === undefined) throw new Error(`row ${key} has no item`);
    return item;
  });
}

function ofType<K extends Item['type']>(s: SessionState, type: K): Array<Extract<Item, { type: K }>> {
  return [...s.transcript.items.values()].filter((i): i is Extract<Item, { type: K }> => i.type === type);
}

/** Folds one event at a time, as live delivery does. */
function foldOneByOne(events: readonly ConsoleEvent[], start = fresh()): SessionState {
  return events.reduce((s, ev) => foldEvents(s, [ev], { live: true, answeredHere: new Set() }), start);
}

describe('folding the recorded session', () => {
  const events = recordedWithUnknown();
  const state = foldOneByOne(events);

  it('shows every prompt, reply and tool call of the recording', () => {
    const prompts = events.filter((e) => e.kind === 'turn.started');
    expect(ofType(state, 'user').map((u) => u.text)).toEqual(prompts.map((p) => (p.kind === 'turn.started' ? p.prompt : '')));
    const replies = events.filter((e) => e.kind === 'message.completed' && e.role === 'assistant');
    expect(ofType(state, 'assistant').map((a) => a.text)).toEqual(replies.map((r) => (r.kind === 'message.completed' ? r.text : '')));
    // The last Bash is the subagent's, run under the Agent call (t14).
    expect(ofType(state, 'tool').map((t) => t.name)).toEqual([
      'Write',
      'Write',
      'Bash',
      'TaskCreate',
      'TaskUpdate',
      'Read',
      'Edit',
      'TaskUpdate',
      'Bash',
      'Agent',
      'Bash',
    ]);
    expect(ofType(state, 'thinking').map((t) => t.text)).toEqual([
      'Let me think about this.',
      'First the premises, then what follows from them, and last what could still be missing.',
    ]);
  });

  it('keeps no streamed piece once its message completed', () => {
    expect(state.transcript.streams.size).toBe(0);
    expect(ofType(state, 'assistant').every((a) => !a.streaming)).toBe(true);
  });

  it('settles each permission card once, with who settled it', () => {
    const perms = ofType(state, 'permission');
    expect(perms.map((p) => [p.toolName, p.settled?.verdict, p.settled?.by])).toEqual([
      ['Write', 'allow', 'user'],
      ['Write', 'deny', 'user'],
      ['Edit', 'allow_always', 'user'],
    ]);
    expect(perms[1]?.settled?.message).toBe('Not that file');
    // Nothing in this window answered them, and they arrived live: another window did.
    expect(perms.every((p) => p.settled?.elsewhere === true)).toBe(true);
    expect(state.pending).toEqual([]);
  });

  it('links tool cards to their outcome: written, denied, run', () => {
    const [written, denied, bash] = ofType(state, 'tool');
    expect(written?.status).toBe('completed');
    // fileBefore (on tool.completed) says the file did not exist: the card shows a created file.
    expect(written?.before).toBeNull();
    expect(written?.fileBefore).toEqual({ path: 'notes.txt', text: null });
    expect(denied?.status).toBe('failed');
    expect(denied?.error).toBe('Not that file');
    expect(denied?.requestId).toBeDefined();
    expect(bash?.output).toBe('hello from bash');
  });

  it('diffs the Edit against the file’s text before the session changed it', () => {
    const edit = ofType(state, 'tool').find((t) => t.name === 'Edit');
    expect(edit?.before).toBe('# Demo\n\nDraft readme.\n');
  });

  it('keeps an unknown SDK message as a raw row', () => {
    const unknown = ofType(state, 'unknown');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]?.label).toBe('brand_new_message');
    expect(unknown[0]?.raw).toEqual({ type: 'brand_new_message', payload: { x: 1 } });
  });

  it('tracks plan, usage, models, mode and the session end', () => {
    expect(state.plan).toEqual([{ id: '1', content: 'Write the release notes', status: 'completed', activeForm: 'Writing the release notes' }]);
    expect(state.usage.contextWindow).toBe(1_000_000);
    expect(state.usage.contextTokens).toBeGreaterThan(0);
    expect(state.requestedModel).toBe('default');
    expect(state.effectiveModel).toBe('claude-opus-5-5');
    expect(state.permissionMode).toBe('acceptEdits');
    expect(state.live).toBe(false);
    expect(state.closed?.reason).toBe('closed');
    expect([...state.turns.values()].every((t) => t.status === 'completed')).toBe(true);
    expect(state.runningTurn).toBeUndefined();
  });

  it('rebuilds the same transcript from a snapshot (lasting events only, in one batch)', () => {
    const rebuilt = foldEvents(fresh(), lasting(events), REPLAY);
    const shape = (s: SessionState) => items(s).map((i) => `${i.type}:${'text' in i ? i.text : ''}`);
    expect(shape(rebuilt)).toEqual(shape(state));
    // Replayed verdicts are not attributed to another window: nobody knows who answered before the reload.
    expect(ofType(rebuilt, 'permission').every((p) => p.settled?.elsewhere === false)).toBe(true);
  });

  it('skips lasting events a snapshot already held (seq)', () => {
    const once = foldEvents(fresh(), lasting(events), REPLAY);
    const twice = foldEvents(once, lasting(events).slice(-20), { live: true, answeredHere: new Set() });
    expect(twice.transcript.rows).toEqual(once.transcript.rows);
  });

  it('folds a reopened session (same id, seq from 1 again) after it closed', () => {
    const first = foldEvents(fresh(), lasting(events), REPLAY);
    expect(first.closed).toBeDefined();
    const S = RECORDED_SESSION;
    const reopened = foldEvents(
      first,
      [
        { kind: 'session.started', session: S, time: T, cwd: '/p', model: 'default', permissionMode: 'default', resumed: true, seq: 1 },
        { kind: 'turn.started', session: S, turn: 'r1', time: T, prompt: 'again', uuid: 'ur1', seq: 2 },
      ],
      { live: true, answeredHere: new Set() },
    );
    expect(reopened.live).toBe(true);
    expect(reopened.runningTurn).toBe('r1');
    expect(ofType(reopened, 'user').at(-1)?.text).toBe('again');
    // The same events again (a snapshot race) are still folded once.
    const again = foldEvents(reopened, [{ kind: 'turn.started', session: S, turn: 'r1', time: T, prompt: 'again', uuid: 'ur1', seq: 2 }]);
    expect(again.transcript.rows).toEqual(reopened.transcript.rows);
  });

  it('does not change the state it was given', () => {
    const before = foldEvents(fresh(), lasting(events).slice(0, 10), REPLAY);
    const rows = before.transcript.rows.slice();
    foldEvents(before, lasting(events).slice(10), REPLAY);
    expect(before.transcript.rows).toEqual(rows);
  });
});

describe('streaming', () => {
  const events = recordedWithUnknown();

  it('writes deltas into the message being written, then replaces them with the completed text', () => {
    const partial = upTo(events, (e) => e.kind === 'message.delta' && e.text === 'You said: Hello! What ca');
    const mid = foldOneByOne(partial);
    const streaming = ofType(mid, 'assistant');
    expect(streaming).toHaveLength(1);
    expect(streaming[0]?.streaming).toBe(true);
    expect(streaming[0]?.text).toBe('You said: Hello! What ca');
    const done = foldOneByOne(upTo(events, (e) => e.kind === 'message.completed'));
    const completed = ofType(done, 'assistant');
    expect(completed).toHaveLength(1);
    expect(completed[0]?.key).toBe(streaming[0]?.key);
    expect(completed[0]?.streaming).toBe(false);
    expect(done.transcript.streams.size).toBe(0);
  });

  it('counts tokens written this turn while it runs', () => {
    const running = foldOneByOne(upTo(events, (e) => e.kind === 'usage.updated' && e.ephemeral === true && e.turn === 't3'));
    expect(running.runningTurn).toBe('t3');
    expect(running.usage.turnOutputTokens).toBe(22);
  });

  // Issue 24 changed this on purpose: a stopped turn keeps the words already streamed (it used to drop them).
  it('keeps a reply that was still streaming when its turn was canceled, marked stopped', () => {
    const partial = upTo(events, (e) => e.kind === 'message.delta' && e.text === 'You said: Hello! What ca');
    const canceled = foldOneByOne([
      ...partial,
      { kind: 'turn.canceled', session: RECORDED_SESSION, turn: 't1', time: T, disposition: 'provider_active', forced: false },
    ]);
    const kept = ofType(canceled, 'assistant');
    expect(kept.map((a) => [a.text, a.streaming, a.stopped])).toEqual([['You said: Hello! What ca', false, true]]);
    expect(canceled.transcript.streams.size).toBe(0);
    const end = ofType(canceled, 'turnEnd');
    expect(end.map((e) => e.outcome)).toEqual(['canceled']);
    expect(canceled.turns.get('t1')?.status).toBe('canceled');
    expect(canceled.runningTurn).toBeUndefined();
  });
  it('replaces the streaming row with the stopped message the sidecar sends before the end', () => {
    const partial = upTo(events, (e) => e.kind === 'message.delta' && e.text === 'You said: Hello! What ca');
    const delta = partial.at(-1);
    const messageId = delta?.kind === 'message.delta' ? delta.messageId : '';
    const stopped = foldOneByOne([
      ...partial,
      {
        kind: 'message.completed',
        session: RECORDED_SESSION,
        turn: 't1',
        time: T,
        role: 'assistant',
        messageId,
        text: 'You said: Hello! What ca',
        stopped: true,
      },
      { kind: 'turn.canceled', session: RECORDED_SESSION, turn: 't1', time: T, disposition: 'provider_active', forced: true },
    ]);
    const kept = ofType(stopped, 'assistant');
    expect(kept.map((a) => [a.text, a.streaming, a.stopped])).toEqual([['You said: Hello! What ca', false, true]]);
  });
});

describe('turns, permissions and errors', () => {
  const S = RECORDED_SESSION;
  const started = (turn: string, prompt: string): SessionEvent => ({ kind: 'turn.started', session: S, turn, time: T, prompt, uuid: `u-${turn}` });

  it('moves a queued turn to running when it starts, and removes it when dequeued', () => {
    let s = foldEvents(fresh(), [started('t1', 'first')]);
    s = markQueued(s, 't2', 'second');
    s = markQueued(s, 't3', 'third');
    expect([...s.turns.values()].map((t) => [t.id, t.status])).toEqual([
      ['t1', 'running'],
      ['t2', 'queued'],
      ['t3', 'queued'],
    ]);
    s = foldEvents(s, [{ kind: 'turn.canceled', session: S, turn: 't3', time: T, disposition: 'pre_accept' }]);
    expect(s.turns.get('t3')?.status).toBe('canceled');
    expect(ofType(s, 'turnEnd')).toHaveLength(0);
    s = foldEvents(s, [{ kind: 'turn.completed', session: S, turn: 't1', time: T, durationMs: 5, numTurns: 1, costUsd: 0 }, started('t2', 'second')]);
    expect(s.turns.get('t2')?.status).toBe('running');
    expect(ofType(s, 'user').map((u) => u.text)).toEqual(['first', 'second']);
  });

  it('shows prompts the host announced as queued (as after a reload), without a transcript row until they start', () => {
    const queued = (turn: string, prompt: string): SessionEvent => ({ kind: 'turn.queued', session: S, turn, time: T, prompt });
    let s = foldEvents(fresh(), [queued('t1', 'first'), started('t1', 'first'), queued('t2', 'second')]);
    expect([...s.turns.values()].map((t) => [t.id, t.status])).toEqual([
      ['t1', 'running'],
      ['t2', 'queued'],
    ]);
    expect(ofType(s, 'user').map((u) => u.text)).toEqual(['first']);
    s = foldEvents(s, [{ kind: 'turn.completed', session: S, turn: 't1', time: T, durationMs: 5, numTurns: 1, costUsd: 0 }, started('t2', 'second')]);
    expect(s.turns.get('t2')?.status).toBe('running');
    expect(ofType(s, 'user').map((u) => u.text)).toEqual(['first', 'second']);
  });

  it('keeps the first verdict and says when an interrupt settled it', () => {
    const req: SessionEvent = {
      kind: 'permission.requested',
      session: S,
      turn: 't1',
      time: T,
      requestId: 'r1',
      toolUseId: 'x',
      toolName: 'Bash',
      toolKind: 'shell',
      toolTitle: 'Bash',
      input: { command: 'ls' },
      suggestions: [],
    };
    let s = foldEvents(fresh(), [started('t1', 'go'), req]);
    expect(s.pending).toEqual(['r1']);
    s = foldEvents(s, [{ kind: 'permission.settled', session: S, time: T, requestId: 'r1', verdict: 'deny', by: 'interrupt' }], {
      live: true,
      answeredHere: new Set(),
    });
    s = foldEvents(s, [{ kind: 'permission.settled', session: S, time: T, requestId: 'r1', verdict: 'allow', by: 'user' }], {
      live: true,
      answeredHere: new Set(),
    });
    const [perm] = ofType(s, 'permission');
    expect(perm?.settled).toEqual({ verdict: 'deny', by: 'interrupt', elsewhere: false });
    expect(s.pending).toEqual([]);
  });

  it('does not attribute a verdict this window gave to another window', () => {
    const req: SessionEvent = {
      kind: 'permission.requested',
      session: S,
      time: T,
      requestId: 'r2',
      toolUseId: 'x',
      toolName: 'Write',
      toolKind: 'write',
      toolTitle: 'Write',
      input: {},
      suggestions: [],
    };
    let s = foldEvents(fresh(), [req]);
    s = foldEvents(s, [{ kind: 'permission.settled', session: S, time: T, requestId: 'r2', verdict: 'allow', by: 'user' }], {
      live: true,
      answeredHere: new Set(['r2']),
    });
    expect(ofType(s, 'permission')[0]?.settled?.elsewhere).toBe(false);
  });

  it('shows a failed turn as an error', () => {
    const flat = foldEvents(fresh(), [
      started('t1', 'x'),
      { kind: 'turn.failed', session: S, turn: 't1', time: T, code: 'auth', message: 'invalid x-api-key' },
    ]);
    expect(ofType(flat, 'error').map((e) => [e.code, e.message])).toEqual([['auth', 'invalid x-api-key']]);
    expect(flat.turns.get('t1')?.status).toBe('failed');
  });

  it('shows a session that ended with an error, and an unknown kind as a raw row', () => {
    const s = foldEvents(fresh(), [
      { kind: 'session.closed', session: S, time: T, reason: 'error', message: '--dangerously-skip-permissions cannot be used with root/sudo privileges' },
      { kind: 'unrecognized:brand.new', session: S, time: T, original: { kind: 'brand.new', x: 1 } },
    ]);
    const [error] = ofType(s, 'error');
    expect(error?.message).toContain('root/sudo');
    expect(s.live).toBe(false);
    expect(ofType(s, 'unknown').map((u) => u.label)).toEqual(['brand.new']);
  });
});

describe('questions, plans, cancels and model changes', () => {
  const S = RECORDED_SESSION;
  const started = (turn: string, prompt: string): SessionEvent => ({ kind: 'turn.started', session: S, turn, time: T, prompt, uuid: `u-${turn}` });

  it('keeps the answers and the approved plan’s mode with the settlement', () => {
    const ask: SessionEvent = {
      kind: 'permission.requested',
      session: S,
      turn: 't1',
      time: T,
      requestId: 'q1',
      toolUseId: 'tq',
      toolName: 'AskUserQuestion',
      toolKind: 'question',
      toolTitle: 'AskUserQuestion',
      input: { questions: [] },
      suggestions: [],
    };
    const plan: SessionEvent = {
      kind: 'permission.requested',
      session: S,
      turn: 't1',
      time: T,
      requestId: 'p1',
      toolUseId: 'tp',
      toolName: 'ExitPlanMode',
      toolKind: 'plan_exit',
      toolTitle: 'ExitPlanMode',
      input: { plan: '# P' },
      suggestions: [],
    };
    let s = foldEvents(fresh(), [started('t1', 'go'), ask, plan]);
    expect(s.pending).toEqual(['q1', 'p1']);
    s = foldEvents(s, [
      {
        kind: 'permission.settled',
        session: S,
        turn: 't1',
        time: T,
        requestId: 'q1',
        verdict: 'allow',
        by: 'user',
        answers: [{ question: 'Which?', answer: 'Blue' }],
      },
      { kind: 'permission.settled', session: S, turn: 't1', time: T, requestId: 'p1', verdict: 'allow', by: 'user', mode: 'acceptEdits' },
    ]);
    const [q, p] = ofType(s, 'permission');
    expect(q?.settled?.answers).toEqual([{ question: 'Which?', answer: 'Blue' }]);
    expect(p?.settled?.mode).toBe('acceptEdits');
    expect(s.pending).toEqual([]);
  });

  it('ties a tool card to a permission request that arrived before the call’s own message', () => {
    const s = foldEvents(fresh(), [
      started('t1', 'go'),
      {
        kind: 'permission.requested',
        session: S,
        turn: 't1',
        time: T,
        requestId: 'r9',
        toolUseId: 'tb',
        toolName: 'Bash',
        toolKind: 'shell',
        toolTitle: 'Bash',
        input: { command: 'ls' },
        suggestions: [],
      },
      { kind: 'tool.started', session: S, turn: 't1', time: T, toolUseId: 'tb', name: 'Bash', toolKind: 'shell', title: 'Bash', input: { command: 'ls' } },
    ]);
    expect(ofType(s, 'tool')[0]?.requestId).toBe('r9');
  });

  it('says one word for one cancel: the transcript’s interrupted line gives way to the turn’s end', () => {
    const s = foldEvents(fresh(), [
      started('t1', 'go'),
      { kind: 'message.completed', session: S, turn: 't1', time: T, role: 'user', text: '[Request interrupted by user]' },
      { kind: 'message.completed', session: S, turn: 't1', time: T, role: 'assistant', text: 'No response requested.' },
      { kind: 'turn.canceled', session: S, turn: 't1', time: T, disposition: 'provider_active' },
    ]);
    expect(ofType(s, 'assistant')).toHaveLength(0);
    expect(ofType(s, 'notice').map((n) => n.text)).not.toContain('Interrupted');
    expect(ofType(s, 'notice').filter((n) => n.text === 'Canceled')).toHaveLength(0);
    expect(ofType(s, 'turnEnd').map((e) => e.outcome)).toEqual(['canceled']);
  });

  it('adds one plain line for a model change, with the model’s name, and a mode change in words', () => {
    let s = foldEvents(fresh(), [{ kind: 'models.updated', session: S, time: T, models: [{ value: 'sonnet', displayName: 'Sonnet 4.5', description: '' }] }]);
    s = foldEvents(s, [
      { kind: 'session.updated', session: S, time: T, model: 'sonnet' },
      { kind: 'message.completed', session: S, time: T, role: 'user', text: '<local-command-stdout>Set model to `sonnet`</local-command-stdout>' },
      { kind: 'session.updated', session: S, time: T, permissionMode: 'acceptEdits' },
    ]);
    const notices = ofType(s, 'notice').map((n) => n.text);
    expect(notices.filter((n) => /model/i.test(n))).toEqual(['Model: Sonnet 4.5']);
    expect(notices).toContain('Permissions: Accept edits');
    expect(notices.join(' ')).not.toContain('`');
  });

  it('shows a stored slash command as the command, not its markup', () => {
    const s = foldEvents(fresh(), [
      {
        kind: 'turn.started',
        session: S,
        turn: 'u1',
        time: T,
        prompt: '<command-name>/compact</command-name>\n  <command-message>compact</command-message>\n  <command-args>keep it short</command-args>',
      },
      {
        kind: 'turn.started',
        session: S,
        turn: 'u2',
        time: T,
        prompt: '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>sonnet</command-args>',
      },
      { kind: 'message.completed', session: S, turn: 'u2', time: T, role: 'user', text: '<local-command-stdout>Set model to `sonnet`</local-command-stdout>' },
      {
        kind: 'message.completed',
        session: S,
        time: T,
        role: 'user',
        text: '<command-name>/context</command-name>\n            <command-message>context</command-message>\n            <command-args></command-args>',
      },
    ]);
    expect(ofType(s, 'user')).toHaveLength(0);
    // /model's own line (live: said by session.updated) is not the output of the /compact before it.
    expect(ofType(s, 'command').map((c) => [c.command, c.output])).toEqual([
      ['/compact keep it short', []],
      ['/context', []],
    ]);
  });

  it('shows an API error once: the SDK’s stand-in reply gives way to the error card', () => {
    const s = foldEvents(fresh(), [
      started('t1', 'x'),
      { kind: 'message.completed', session: S, turn: 't1', time: T, role: 'assistant', text: 'Invalid API key · Fix external API key' },
      { kind: 'turn.failed', session: S, turn: 't1', time: T, code: 'auth', message: 'Invalid API key · Fix external API key' },
    ]);
    expect(ofType(s, 'assistant')).toHaveLength(0);
    expect(ofType(s, 'error')).toHaveLength(1);
  });
});

describe('subagents and file diffs', () => {
  const S = RECORDED_SESSION;

  it('nests a subagent’s messages and tools under its Task call', () => {
    const s = foldEvents(fresh(), [
      {
        kind: 'tool.started',
        session: S,
        time: T,
        toolUseId: 'task1',
        name: 'Agent',
        toolKind: 'agent',
        title: 'Agent',
        input: { description: 'look around', prompt: 'find files' },
      },
      { kind: 'message.delta', session: S, time: T, ephemeral: true, messageId: 'm-sub', index: 0, block: 'text', text: 'Look' },
      { kind: 'message.completed', session: S, time: T, role: 'assistant', messageId: 'm-sub', text: 'Looking.', parentToolUseId: 'task1' },
      {
        kind: 'tool.started',
        session: S,
        time: T,
        toolUseId: 'g1',
        name: 'Glob',
        toolKind: 'search',
        title: 'Glob',
        input: { pattern: '*.md' },
        parentToolUseId: 'task1',
      },
      { kind: 'tool.completed', session: S, time: T, toolUseId: 'g1', name: 'Glob', output: 'README.md' },
      { kind: 'tool.completed', session: S, time: T, toolUseId: 'task1', name: 'Agent', output: 'Found one.' },
    ]);
    expect(items(s).map((i) => i.type)).toEqual(['tool']);
    const [task] = items(s);
    expect(task?.type === 'tool' ? task.children.map((k) => s.transcript.items.get(k)?.type) : []).toEqual(['assistant', 'tool']);
  });

  it('diffs a later Edit against what the earlier Write left', () => {
    const s = foldEvents(fresh(), [
      {
        kind: 'tool.started',
        session: S,
        time: T,
        toolUseId: 'w',
        name: 'Write',
        toolKind: 'write',
        title: 'Write',
        input: { file_path: '/p/a.txt', content: 'one\ntwo\n' },
        fileBefore: { path: '/p/a.txt', text: null },
      },
      { kind: 'tool.completed', session: S, time: T, toolUseId: 'w', name: 'Write', output: 'ok' },
      {
        kind: 'tool.started',
        session: S,
        time: T,
        toolUseId: 'e',
        name: 'Edit',
        toolKind: 'edit',
        title: 'Edit',
        input: { file_path: '/p/a.txt', old_string: 'two', new_string: 'three' },
      },
    ]);
    const [write, edit] = ofType(s, 'tool');
    expect(write?.before).toBeNull();
    expect(edit?.before).toBe('one\ntwo\n');
  });
});

describe('sleep and wake', () => {
  const state = (s: 'asleep' | 'waking' | 'awake'): SessionEvent => ({ kind: 'session.updated', session: RECORDED_SESSION, time: T, state: s });
  const started: SessionEvent = {
    kind: 'session.started',
    session: RECORDED_SESSION,
    time: T,
    cwd: '/p',
    model: 'default',
    permissionMode: 'default',
    resumed: false,
  };

  it('marks an open session asleep, then waking, then awake again, with no row in the conversation', () => {
    const awake = foldOneByOne([started]);
    const asleep = foldOneByOne([state('asleep')], awake);
    expect(asleep.sleep).toBe('asleep');
    expect(asleep.live).toBe(true);
    expect(items(asleep)).toHaveLength(items(awake).length);
    expect(foldOneByOne([state('waking')], asleep).sleep).toBe('waking');
    expect(foldOneByOne([state('waking'), state('awake')], asleep).sleep).toBeUndefined();
    expect(foldOneByOne([state('waking'), state('asleep')], asleep).sleep).toBe('asleep');
  });

  it('forgets sleep when the session closes', () => {
    const closed = foldOneByOne([started, state('asleep'), { kind: 'session.closed', session: RECORDED_SESSION, time: T, reason: 'closed' }]);
    expect(closed.live).toBe(false);
    expect(closed.sleep).toBeUndefined();
  });
});

describe('background work, goals, hooks and compaction', () => {
  const S = RECORDED_SESSION;
  const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;

  it('keeps the live tasks from the level signal with their start times, and forgets them when the session closes', () => {
    const task = { taskId: 'b1', taskType: 'local_bash', description: 'sleep then echo', toolUseId: 'toolu_1' };
    const running = foldEvents(fresh(), [
      { kind: 'tasks.updated', session: S, time: at(0), tasks: [task, { taskId: 'w', taskType: 'monitor', description: 'watch', ambient: true }] },
      { kind: 'task.started', session: S, time: at(1), taskId: 'b1', taskType: 'local_bash', description: 'sleep then echo', backgrounded: true },
    ]);
    expect(running.tasks.map((t) => t.taskId)).toEqual(['b1', 'w']);
    expect(running.taskStarts).toEqual({ b1: at(1) });
    const done = foldEvents(running, [
      { kind: 'task.completed', session: S, time: at(2), taskId: 'b1', taskEnd: 'completed' },
      { kind: 'tasks.updated', session: S, time: at(3), tasks: [] },
    ]);
    expect(done.tasks).toEqual([]);
    expect(done.taskStarts).toEqual({});
    expect(foldEvents(running, [{ kind: 'session.closed', session: S, time: at(4), reason: 'closed' }]).tasks).toEqual([]);
  });

  it('shows a continuation turn without a prompt bubble, and says when a follow-up was given up', () => {
    const s = foldEvents(fresh(), [
      { kind: 'turn.started', session: S, turn: 'c1', time: at(0), prompt: '', origin: 'task_notification' },
      { kind: 'message.completed', session: S, turn: 'c1', time: at(1), role: 'assistant', text: 'It finished.' },
      { kind: 'session.updated', session: S, turn: 'c1', time: at(2), warning: 'continuation_delayed' },
    ]);
    expect(ofType(s, 'user')).toEqual([]);
    expect(s.runningTurn).toBe('c1');
    expect(items(s).map((i) => i.type)).toEqual(['assistant', 'notice']);
    expect(ofType(s, 'notice')[0]?.text).toMatch(/did not start in time/);
  });

  it('follows the goal (set, not met, met, cleared) and marks hooks and compaction as rows', () => {
    const goal = (g?: { met: boolean; iterations: number; lastReason?: string }) =>
      ({ kind: 'goal.updated', session: S, time: at(0), ...(g !== undefined ? { goal: { condition: 'tests pass', ...g } } : {}) }) as const;
    const s = foldEvents(fresh(), [goal({ met: false, iterations: 0 }), goal({ met: false, iterations: 1, lastReason: 'two fail' })]);
    expect(s.goal).toEqual({ condition: 'tests pass', met: false, iterations: 1, lastReason: 'two fail' });
    const met = foldEvents(s, [goal({ met: true, iterations: 2 })]);
    expect(met.goal?.met).toBe(true);
    const cleared = foldEvents(met, [
      goal(),
      { kind: 'hook.ran', session: S, time: at(1), hookEvent: 'PostToolUse', name: 'PostToolUse:Read', outcome: 'success', output: 'checked' },
      { kind: 'session.compacted', session: S, time: at(2), trigger: 'manual', preTokens: 15210 },
    ]);
    expect(cleared.goal).toBeUndefined();
    expect(ofType(cleared, 'notice').map((n) => n.text)).toEqual([
      'Goal set: tests pass',
      'Goal not met yet (check 1): two fail',
      'Goal met: tests pass',
      'Goal cleared',
    ]);
    expect(ofType(cleared, 'compacted')).toMatchObject([{ trigger: 'manual', preTokens: 15210 }]);
    expect(ofType(cleared, 'hook')).toMatchObject([{ hookEvent: 'PostToolUse', outcome: 'success', output: 'checked' }]);
  });
});

describe('goal notices read after the fact (issue 28)', () => {
  const S = RECORDED_SESSION;
  const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
  it('show among their turn’s rows in the order they happened', () => {
    const reply = (s: number, text: string): ConsoleEvent => ({ kind: 'message.completed', session: S, turn: 't1', time: at(s), role: 'assistant', text });
    // Live, a status read from the transcript names no turn.
    const goal = (s: number, iterations: number): ConsoleEvent => ({
      kind: 'goal.updated',
      session: S,
      time: at(s),
      goal: { condition: 'tests pass', met: false, iterations },
    });
    const s = foldEvents(fresh(), [
      { kind: 'turn.started', session: S, turn: 't1', time: at(0), prompt: '/goal tests pass', uuid: 'u1', seq: 1 },
      reply(2, 'first answer'),
      reply(4, 'second answer'),
      goal(1, 0),
      goal(3, 1),
    ]);
    const rows = s.transcript.rows
      .map((k) => s.transcript.items.get(k))
      .map((i) => (i?.type === 'notice' ? i.text : i?.type === 'assistant' ? i.text : i?.type));
    expect(rows).toEqual(['user', 'Goal set: tests pass', 'first answer', 'Goal not met yet (check 1): tests pass', 'second answer']);
  });
});

describe('checklist updates in a row (issue 28)', () => {
  const S = RECORDED_SESSION;
  const plan = (id: string, turn = 't1'): ConsoleEvent => ({
    kind: 'tool.started',
    session: S,
    turn,
    time: T,
    toolUseId: id,
    name: 'TaskCreate',
    toolKind: 'plan',
    title: 'TaskCreate',
    input: { subject: id },
  });
  const done = (id: string): ConsoleEvent => ({ kind: 'tool.completed', session: S, turn: 't1', time: T, toolUseId: id, name: 'TaskCreate', output: 'ok' });

  it('collapse into one row that counts them; each call still completes', () => {
    const s = foldEvents(fresh(), [plan('a'), done('a'), plan('b'), plan('c'), done('b'), done('c')]);
    const rows = s.transcript.rows.map((k) => s.transcript.items.get(k));
    const tools = rows.filter((i) => i?.type === 'tool');
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ toolUseId: 'c', repeats: 3, status: 'completed' });
  });

  it('stay apart across turns', () => {
    const s = foldEvents(fresh(), [plan('a'), plan('b', 't2')]);
    expect(s.transcript.rows.map((k) => s.transcript.items.get(k)).filter((i) => i?.type === 'tool')).toHaveLength(2);
  });
});
