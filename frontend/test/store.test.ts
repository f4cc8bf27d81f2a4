import { describe, expect, it, vi } from 'vitest';
import type { HistoryPage, LiveSession } from '../src/protocol/api';
import type { ConsoleEvent, SessionEvent } from '../src/protocol/events';
import type { Notifier } from '../src/store/notifier';
import { ConsoleStore } from '../src/store/store';
import { sidebarEntries } from '../src/store/sidebar';
import { FakeTransport, settle } from './fakeTransport';
import { lasting, RECORDED_SESSION, recordedWithUnknown } from './fixtures';

const T = '2026-01-01T00:00:00.000Z';

function live(session: string, events: ConsoleEvent[], extra: Partial<LiveSession> = {}): LiveSession {
  return { session, cwd: '/home/user/project', requestedModel: 'default', effectiveModel: '', permissionMode: 'default', state: 'awake', events, ...extra };
}

function setup(notifier?: Notifier) {
  const transport = new FakeTransport();
  // Batching is the browser's business; tests flush by hand.
  const store = new ConsoleStore(transport, { schedule: () => undefined, isForeground: () => true, ...(notifier !== undefined ? { notifier } : {}) });
  store.start();
  return { transport, store };
}

async function connect(transport: FakeTransport): Promise<void> {
  transport.setConnection('open');
  await settle();
}

describe('the store', () => {
  const events = recordedWithUnknown();
  const beforeClose = events.filter((e) => e.kind !== 'session.closed');
  const half = beforeClose.findIndex((e) => e.kind === 'turn.started' && e.turn === 't5');

  it('builds its state from the snapshot on connect, then folds live events', async () => {
    const { transport, store } = setup();
    transport.snapshot = {
      ...transport.snapshot,
      sessions: [live(RECORDED_SESSION, lasting(beforeClose.slice(0, half)), { effectiveModel: 'claude-opus-5-5' })],
    };
    await connect(transport);
    const s = store.getState().sessions[RECORDED_SESSION];
    expect(store.getState().loaded).toBe(true);
    expect(s?.live).toBe(true);
    expect(s?.effectiveModel).toBe('claude-opus-5-5');
    expect(s?.history.exhausted).toBe(true);
    expect(transport.callsOf('listSessions')).toHaveLength(1);

    transport.push(...beforeClose.slice(half));
    store.flush();
    const after = store.getState().sessions[RECORDED_SESSION];
    expect(after?.turns.size).toBe(14);
    expect(after?.plan[0]?.status).toBe('completed');
  });

  it('loads the snapshot once from a transport that is open from the start (the window)', async () => {
    const transport = new FakeTransport();
    transport.connection = 'open';
    const store = new ConsoleStore(transport, { schedule: () => undefined });
    store.start();
    await settle();
    expect(transport.callsOf('snapshot')).toHaveLength(1);
    expect(store.getState().loaded).toBe(true);
  });

  it('rebuilds from a new snapshot after a reconnect, folding what arrived meanwhile once', async () => {
    const { transport, store } = setup();
    const first = lasting(beforeClose.slice(0, half));
    transport.snapshot = { ...transport.snapshot, sessions: [live(RECORDED_SESSION, first)] };
    await connect(transport);
    const rowsBefore = store.getState().sessions[RECORDED_SESSION]?.transcript.rows.length ?? 0;

    transport.setConnection('reconnecting');
    const more = lasting(beforeClose.slice(half));
    transport.snapshot = { ...transport.snapshot, sessions: [live(RECORDED_SESSION, [...first, ...more.slice(0, 10)])] };
    // An event the new snapshot already holds, pushed while it is read: folded once.
    transport.on('snapshot', async () => {
      transport.push(more[5] as ConsoleEvent, more[10] as ConsoleEvent);
      return transport.snapshot;
    });
    await connect(transport);
    const s = store.getState().sessions[RECORDED_SESSION];
    const expected = new ConsoleStore(new FakeTransport()).rebuild(store.getState(), {
      ...transport.snapshot,
      sessions: [live(RECORDED_SESSION, [...first, ...more.slice(0, 11)])],
    }).sessions[RECORDED_SESSION];
    expect(s?.transcript.rows.length).toBe(expected?.transcript.rows.length);
    expect(s?.transcript.rows.length).toBeGreaterThan(rowsBefore);
  });

  it('shows a session needing you until its request is answered, marks one finished out of sight, and notifies', async () => {
    const notify = vi.fn();
    const { transport, store } = setup({ notify, requestPermission: () => undefined });
    transport.snapshot = { ...transport.snapshot, sessions: [live('A', []), live('B', [])] };
    await connect(transport);
    store.select('A');
    transport.push({
      kind: 'permission.requested',
      session: 'B',
      turn: 't',
      time: T,
      requestId: 'r',
      toolUseId: 'u',
      toolName: 'Bash',
      toolKind: 'shell',
      toolTitle: 'Bash',
      input: {},
      suggestions: [],
    });
    store.flush();
    const waiting = () => sidebarEntries(store.getState()).find((e) => e.session === 'B')?.waiting;
    expect(waiting()).toBe(true);
    expect(notify).toHaveBeenCalledWith(expect.stringContaining('needs you'), expect.stringContaining('Bash'), 'perm-B', expect.any(Function));
    // The notification's click shows its session.
    notify.mock.calls[0]?.[3]();
    expect(store.getState().selected).toBe('B');
    // Viewing it, or another session, does not answer it (issue 28: the mark vanished after viewing another).
    store.select('A');
    expect(waiting()).toBe(true);
    // The selected session in front gets neither.
    transport.push({ kind: 'turn.completed', session: 'A', turn: 't', time: T, durationMs: 1, numTurns: 1, costUsd: 0 });
    store.flush();
    expect(store.getState().marks).toEqual({});
    transport.push(
      { kind: 'permission.settled', session: 'B', turn: 't', time: T, requestId: 'r', verdict: 'allow', by: 'user' },
      { kind: 'turn.completed', session: 'B', turn: 't', time: T, durationMs: 1, numTurns: 1, costUsd: 0 },
    );
    store.flush();
    expect(waiting()).toBe(false);
    expect(store.getState().marks).toEqual({ B: 'finished' });
    store.select('B');
    expect(store.getState().marks).toEqual({});
  });

  it('asks the host for native notifications where it has them', async () => {
    const notify = vi.fn();
    const { transport, store } = setup({ notify, requestPermission: () => undefined });
    transport.caps = { ...transport.caps, notifications: true };
    transport.on('notify', () => ({}));
    transport.snapshot = { ...transport.snapshot, sessions: [live('B', [])] };
    await connect(transport);
    transport.push({ kind: 'turn.completed', session: 'B', turn: 't', time: T, durationMs: 1, numTurns: 1, costUsd: 0 });
    store.flush();
    expect(transport.callsOf('notify')).toEqual([{ title: expect.stringContaining('finished'), body: 'In project' }]);
    expect(notify).not.toHaveBeenCalled();
  });

  it('queues a prompt sent while a turn runs, and removes it with cancelTurn(turn)', async () => {
    const { transport, store } = setup();
    transport.snapshot = { ...transport.snapshot, sessions: [live('A', [{ kind: 'turn.started', session: 'A', turn: 't1', time: T, prompt: 'one', seq: 1 }])] };
    transport.on('sendPrompt', () => ({ turn: 't2', queued: true }));
    transport.on('cancelTurn', () => ({ disposition: 'pre_accept', turn: 't2', phase: 'queued', forced: false }));
    await connect(transport);
    expect(await store.sendPrompt('A', 'two')).toBe(true);
    expect(store.getState().sessions.A?.turns.get('t2')?.status).toBe('queued');
    await store.cancelTurn('A', 't2');
    expect(transport.callsOf('cancelTurn')).toEqual([{ session: 'A', turn: 't2' }]);
    expect(store.getState().sessions.A?.turns.get('t2')?.status).toBe('canceled');
  });

  it('Stop takes the queued prompts back into the composer (never sent), then cancels the running turn', async () => {
    const { transport, store } = setup();
    transport.snapshot = {
      ...transport.snapshot,
      sessions: [
        live('A', [
          { kind: 'turn.started', session: 'A', turn: 't1', time: T, prompt: 'one', seq: 1 },
          { kind: 'turn.queued', session: 'A', turn: 't2', time: T, prompt: 'two', seq: 2 },
          { kind: 'turn.queued', session: 'A', turn: 't3', time: T, prompt: 'three', seq: 3 },
        ]),
      ],
    };
    transport.on('cancelTurn', (p) =>
      p.turn === 't1'
        ? { disposition: 'provider_active', turn: 't1', phase: 'dispatched', forced: false }
        : { disposition: 'pre_accept', turn: p.turn ?? '', phase: 'queued', forced: false },
    );
    await connect(transport);
    await store.stopTurn('A');
    // The queue first, so the cancel of the running turn starts none of them.
    expect(transport.callsOf('cancelTurn')).toEqual([
      { session: 'A', turn: 't2' },
      { session: 'A', turn: 't3' },
      { session: 'A', turn: 't1' },
    ]);
    expect(store.getState().sessions.A?.turns.get('t2')?.status).toBe('canceled');
    expect(store.takeDraft('A')).toBe('two\n\nthree');
    expect(store.takeDraft('A')).toBeUndefined();
  });

  it('takes one queued prompt back to edit; one that already started stays where it is', async () => {
    const { transport, store } = setup();
    transport.snapshot = {
      ...transport.snapshot,
      sessions: [
        live('A', [
          { kind: 'turn.started', session: 'A', turn: 't1', time: T, prompt: 'one', seq: 1 },
          { kind: 'turn.queued', session: 'A', turn: 't2', time: T, prompt: 'two', seq: 2 },
        ]),
      ],
    };
    transport.on('cancelTurn', () => ({ disposition: 'mismatch', turn: 't2', phase: 'finished', forced: false }));
    await connect(transport);
    await store.editQueued('A', 't2');
    expect(store.takeDraft('A')).toBeUndefined();
    transport.on('cancelTurn', () => ({ disposition: 'pre_accept', turn: 't2', phase: 'queued', forced: false }));
    await store.editQueued('A', 't2');
    expect(store.takeDraft('A')).toBe('two');
  });

  it('changes a queued prompt in its place: it and those behind it go again in order (issue 28)', async () => {
    const { transport, store } = setup();
    transport.snapshot = {
      ...transport.snapshot,
      sessions: [
        live('A', [
          { kind: 'turn.started', session: 'A', turn: 't1', time: T, prompt: 'one', seq: 1 },
          { kind: 'turn.queued', session: 'A', turn: 't2', time: T, prompt: 'two', seq: 2 },
          { kind: 'turn.queued', session: 'A', turn: 't3', time: T, prompt: 'three', seq: 3 },
          { kind: 'turn.queued', session: 'A', turn: 't4', time: T, prompt: 'four', seq: 4 },
        ]),
      ],
    };
    transport.on('cancelTurn', (p) => ({ disposition: 'pre_accept', turn: p.turn ?? '', phase: 'queued', forced: false }));
    let n = 10;
    transport.on('sendPrompt', () => ({ turn: `t${++n}`, queued: true }));
    await connect(transport);
    expect(await store.replaceQueued('A', 't3', 'three, edited')).toBe(true);
    expect(transport.callsOf('cancelTurn')).toEqual([
      { session: 'A', turn: 't3' },
      { session: 'A', turn: 't4' },
    ]);
    expect(transport.callsOf('sendPrompt')).toEqual([
      { session: 'A', prompt: 'three, edited' },
      { session: 'A', prompt: 'four' },
    ]);
    const s = store.getState().sessions.A;
    const queued = s?.turnOrder.filter((t) => s.turns.get(t)?.status === 'queued').map((t) => s.turns.get(t)?.prompt);
    expect(queued).toEqual(['two', 'three, edited', 'four']);
  });

  it('puts a rewound prompt back into the composer of the session that continues', async () => {
    const { transport, store } = setup();
    transport.snapshot = { ...transport.snapshot, sessions: [live('A', [], { requestedModel: 'sonnet' })] };
    transport.on('rewindConversation', () => ({ session: 'A' }));
    transport.on('history', () => ({ events: [], total: 0, start: 0 }));
    await connect(transport);
    await store.rewindConversation('A', 'u-2', 'remember the banana');
    expect(transport.callsOf('rewindConversation')).toEqual([{ session: 'A', message: 'u-2' }]);
    expect(store.getState().sessions.A?.requestedModel).toBe('sonnet');
    expect(store.takeDraft('A')).toBe('remember the banana');
  });

  it('sends AskUserQuestion’s answers and a plan’s mode with the answer', async () => {
    const { transport, store } = setup();
    transport.on('answerPermission', () => ({ settled: true }));
    await connect(transport);
    await store.answerPermission('A', 'q1', 'allow', { answers: [{ question: 'Which?', answer: 'Blue' }] });
    await store.answerPermission('A', 'p1', 'allow', { mode: 'acceptEdits' });
    expect(transport.callsOf('answerPermission')).toEqual([
      { session: 'A', requestId: 'q1', verdict: 'allow', answers: [{ question: 'Which?', answer: 'Blue' }] },
      { session: 'A', requestId: 'p1', verdict: 'allow', mode: 'acceptEdits' },
    ]);
  });

  it('resumes a past session before sending to it', async () => {
    const { transport, store } = setup();
    transport.on('history', () => ({ events: [], total: 0, start: 0 }));
    transport.on('startSession', (p) => ({ session: p.resume ?? 'x' }));
    transport.on('sendPrompt', () => ({ turn: 't1', queued: false }));
    await connect(transport);
    store.select('old', { session: 'old', title: 'Old work', cwd: '/w', lastModified: 1, live: false, pinned: false, archived: false });
    await settle();
    expect(await store.sendPrompt('old', 'again')).toBe(true);
    expect(transport.callsOf('startSession')).toEqual([{ cwd: '/w', resume: 'old' }]);
    expect(transport.calls.map((c) => c.method).slice(-2)).toEqual(['startSession', 'sendPrompt']);
  });

  it('keeps the composer text when sending fails, and says why', async () => {
    const { transport, store } = setup();
    transport.snapshot = { ...transport.snapshot, sessions: [live('A', [])] };
    transport.on('sendPrompt', () => Promise.reject({ code: 'not_found', message: 'Session A is not open; resume it first.' }));
    await connect(transport);
    expect(await store.sendPrompt('A', 'hi')).toBe(false);
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['Session A is not open; resume it first.']);
  });
});

describe('history', () => {
  const S = 'past';
  // History maps each prompt to a turn.started whose turn is the prompt's uuid (as `baton history` prints it).
  const prompt = (n: number): SessionEvent => ({ kind: 'turn.started', session: S, turn: `u${n}`, time: T, prompt: `prompt ${n}`, uuid: `u${n}` });
  const reply = (n: number): SessionEvent => ({
    kind: 'message.completed',
    session: S,
    turn: `u${n}`,
    time: T,
    role: 'assistant',
    messageId: `m${n}`,
    text: `reply ${n}`,
  });
  const all: SessionEvent[] = Array.from({ length: 300 }, (_, i) => [prompt(i), reply(i)]).flat();

  function pager(events: SessionEvent[]) {
    return (p: { before?: number; limit?: number }): HistoryPage => {
      const end = p.before ?? events.length;
      const start = Math.max(0, end - (p.limit ?? 500));
      return { events: events.slice(start, end), total: events.length, start };
    };
  }

  it('opens a past session at its newest page and prepends older pages', async () => {
    const { transport, store } = setup();
    transport.on('history', pager(all));
    await connect(transport);
    store.select(S, { session: S, title: 'Past', cwd: '/w', lastModified: 1, live: false, pinned: false, archived: false });
    await settle();
    let h = store.getState().sessions[S]?.history;
    expect(transport.callsOf('history')[0]).toEqual({ session: S, limit: 200, cwd: '/w' });
    expect(h?.start).toBe(400);
    expect(h?.exhausted).toBe(false);
    expect(h?.transcript.rows).toHaveLength(200);
    await store.loadHistory(S);
    await store.loadHistory(S);
    h = store.getState().sessions[S]?.history;
    expect(transport.callsOf('history').slice(1)).toEqual([
      { session: S, limit: 200, cwd: '/w', before: 400 },
      { session: S, limit: 200, cwd: '/w', before: 200 },
    ]);
    expect(h?.exhausted).toBe(true);
    const first = h?.transcript.items.get(h.transcript.rows[0] ?? '');
    expect(first?.type === 'user' ? first.text : '').toBe('prompt 0');
    expect(h?.transcript.rows).toHaveLength(600);
  });

  it('stops the history of a resumed live session where its live turns begin', async () => {
    const { transport, store } = setup();
    const liveEvents: ConsoleEvent[] = [
      { kind: 'session.started', session: S, time: T, cwd: '/w', model: 'default', permissionMode: 'default', resumed: true, seq: 1 },
      { kind: 'turn.started', session: S, turn: 'live1', time: T, prompt: 'prompt 299', uuid: 'u299', seq: 2 },
    ];
    transport.snapshot = { ...transport.snapshot, sessions: [live(S, liveEvents, { cwd: '/w' })] };
    transport.on('history', pager(all));
    await connect(transport);
    store.select(S);
    await settle();
    const h = store.getState().sessions[S]?.history;
    const texts = h?.events.map((e) => (e.kind === 'message.completed' ? e.text : e.kind === 'turn.started' ? e.prompt : ''));
    expect(texts?.at(-1)).toBe('reply 298');
    expect(texts).not.toContain('prompt 299');
  });

  it("reads a fork's earlier conversation even when its session.started arrives before the start call's reply", async () => {
    const { transport, store } = setup();
    const FORK = '5a1f0c2e-0000-4000-8000-0000000000f0';
    transport.on('history', pager(all));
    transport.on('startSession', async () => {
      // The host's push of the fork's own start overtakes the call's reply (they travel separately).
      transport.push({
        kind: 'session.started',
        session: FORK,
        time: T,
        cwd: '/w',
        model: 'default',
        permissionMode: 'default',
        resumed: false,
        forkedFrom: S,
        seq: 1,
      });
      store.flush();
      expect(store.getState().sessions[FORK]?.live).toBe(true);
      return { session: FORK };
    });
    await connect(transport);
    await store.startSession({ cwd: '/w', forkFrom: S });
    await settle();
    expect(transport.callsOf('history')).toContainEqual({ session: FORK, limit: 200, cwd: '/w' });
    expect(store.getState().sessions[FORK]?.history.events.length).toBeGreaterThan(0);
  });
});

describe('sleep in the store', () => {
  it('takes a session asleep from the snapshot and the idle setting, and sets the idle time through the host', async () => {
    const { transport, store } = setup();
    transport.snapshot = { ...transport.snapshot, sessionIdleSeconds: 600, sessions: [live(RECORDED_SESSION, [], { state: 'asleep' })] };
    transport.on('setSessionIdle', (p) => p);
    await connect(transport);
    expect(store.getState().sessions[RECORDED_SESSION]?.sleep).toBe('asleep');
    expect(store.getState().sessionIdleSeconds).toBe(600);
    await store.setSessionIdle(0);
    expect(transport.callsOf('setSessionIdle')).toEqual([{ seconds: 0 }]);
    expect(store.getState().sessionIdleSeconds).toBe(0);
  });
});
