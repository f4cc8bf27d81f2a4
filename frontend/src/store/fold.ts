// Folds a session's events into its state. Pure from the outside: `foldEvents(state, events)` returns a new
// state and leaves `state` as it was (the containers are copied once per call, then mutated).
// Dispatch is per kind: the rows each kind makes are transcriptFold.ts's table, whose type demands an entry for every
// kind of the wire; SESSION below holds the kinds that change the session's state too (or instead).
import { type ConsoleEvent, isUnrecognized, type PermissionMode } from '../protocol/events';
import type { RetryInfo, WireEvent } from '../protocol/wire.gen';
import { MODE_LABELS, modelName } from '../lib/names';
import { addItem, draftTranscript, emptyTranscript, newKey } from './transcript';
import { applyTranscriptEvent, dropStreams, type FoldContext, REPLAY } from './transcriptFold';
import type { SessionState, TurnInfo } from './types';

export { applyTranscriptEvent, type FoldContext, REPLAY, turnFailure } from './transcriptFold';

export interface SessionInit {
  id: string;
  cwd: string;
  requestedModel?: string;
  effectiveModel?: string;
  permissionMode?: PermissionMode;
  title?: string;
}

export function newSession(init: SessionInit): SessionState {
  const state: SessionState = {
    id: init.id,
    cwd: init.cwd,
    live: false,
    requestedModel: init.requestedModel ?? 'default',
    permissionMode: init.permissionMode ?? 'default',
    resumed: false,
    transcript: emptyTranscript('l'),
    history: { start: 0, total: 0, exhausted: true, loading: false, events: [], transcript: emptyTranscript('h') },
    turns: new Map(),
    turnOrder: [],
    pending: [],
    plan: [],
    usage: { turnOutputTokens: 0 },
    models: [],
    commands: [],
    tasks: [],
    taskStarts: {},
    taskTails: {},
    lastSeq: 0,
  };
  if (init.effectiveModel !== undefined && init.effectiveModel !== '') state.effectiveModel = init.effectiveModel;
  if (init.title !== undefined) state.title = init.title;
  return state;
}

type Draft = SessionState;

function draft(state: SessionState): Draft {
  return {
    ...state,
    transcript: draftTranscript(state.transcript),
    turns: new Map(state.turns),
    turnOrder: state.turnOrder.slice(),
    pending: state.pending.slice(),
    usage: { ...state.usage },
    taskStarts: { ...state.taskStarts },
    taskTails: { ...state.taskTails },
  };
}

export function foldEvents(state: SessionState, events: readonly ConsoleEvent[], ctx: FoldContext = REPLAY): SessionState {
  if (events.length === 0) return state;
  const d = draft(state);
  let floor = state.lastSeq;
  for (const ev of events) {
    // A session reopened under the same id (resume, rewind) is a new run whose seq counts from 1 again.
    if (ev.kind === 'session.started' && d.closed !== undefined) {
      floor = 0;
      d.lastSeq = 0;
    }
    if (typeof ev.seq === 'number' && ev.seq > 0) {
      // Lasting events a snapshot already held come again on a reconnect race; fold each once.
      if (ev.seq <= floor && ev.ephemeral !== true) continue;
      d.lastSeq = Math.max(d.lastSeq, ev.seq);
    }
    applySessionEvent(d, ev, ctx);
  }
  return d;
}

/** A prompt sent while another turn runs: known only to the window that sent it until it starts. */
export function markQueued(state: SessionState, turn: string, prompt: string): SessionState {
  if (state.turns.has(turn)) return state;
  const turns = new Map(state.turns);
  turns.set(turn, { id: turn, prompt, status: 'queued' });
  return { ...state, turns, turnOrder: [...state.turnOrder, turn] };
}

function setTurn(d: Draft, info: TurnInfo): void {
  if (!d.turns.has(info.id)) d.turnOrder.push(info.id);
  d.turns.set(info.id, info);
}

function endTurn(d: Draft, turnId: string | undefined, status: TurnInfo['status']): void {
  if (turnId !== undefined) {
    const turn = d.turns.get(turnId);
    setTurn(d, { id: turnId, prompt: turn?.prompt ?? '', status, ...(turn?.uuid !== undefined ? { uuid: turn.uuid } : {}) });
  }
  if (d.runningTurn === turnId || turnId === undefined) delete d.runningTurn;
  if (d.stopping === turnId || turnId === undefined) delete d.stopping;
  delete d.activity;
}

type Kind = WireEvent['kind'];
type EventOf<K extends Kind> = Extract<WireEvent, { kind: K }>;
/** Changes a session's state for one event (and its rows, through the transcript table). */
type SessionHandler<K extends Kind> = (d: Draft, ev: EventOf<K>, ctx: FoldContext) => void;

/** For kinds whose only effect is on the rows. */
const rowsOnly = (d: Draft, ev: WireEvent, ctx: FoldContext): void => {
  applyTranscriptEvent(d.transcript, ev, ctx);
};

/** The kinds that change the session's state beyond its rows; any other kind only makes rows (`rowsOnly`). */
const SESSION: { [K in Kind]?: SessionHandler<K> } = {
  'session.started': sessionStarted,
  'session.updated': sessionUpdated,
  'session.closed': sessionClosed,
  'turn.queued': (d, ev) => {
    // Waiting behind the running turn; shown in the composer's queue, not in the transcript, until it starts.
    if (ev.turn !== undefined && !d.turns.has(ev.turn)) setTurn(d, { id: ev.turn, prompt: ev.prompt, status: 'queued' });
  },
  'turn.started': turnStarted,
  'turn.completed': (d, ev, ctx) => {
    rowsOnly(d, ev, ctx);
    endTurn(d, ev.turn, 'completed');
  },
  'turn.failed': (d, ev, ctx) => {
    rowsOnly(d, ev, ctx);
    endTurn(d, ev.turn, 'failed');
  },
  'turn.canceled': (d, ev, ctx) => {
    rowsOnly(d, ev, ctx);
    endTurn(d, ev.turn, 'canceled');
  },
  'permission.requested': (d, ev, ctx) => {
    if (applyTranscriptEvent(d.transcript, ev, ctx) && !d.pending.includes(ev.requestId)) d.pending.push(ev.requestId);
  },
  'permission.settled': (d, ev, ctx) => {
    rowsOnly(d, ev, ctx);
    d.pending = d.pending.filter((id) => id !== ev.requestId);
  },
  'plan.updated': (d, ev) => {
    d.plan = ev.items;
  },
  'usage.updated': usageUpdated,
  'model.resolved': (d, ev) => {
    d.effectiveModel = ev.model;
  },
  'models.updated': (d, ev) => {
    d.models = ev.models;
  },
  'commands.updated': (d, ev) => {
    d.commands = ev.commands;
  },
  'limit.updated': (d, ev) => {
    d.limits = {
      status: ev.limitStatus,
      ...(ev.window !== undefined ? { window: ev.window } : {}),
      ...(ev.resetsAt !== undefined ? { resetsAt: ev.resetsAt } : {}),
      ...(ev.utilization !== undefined ? { utilization: ev.utilization } : {}),
      // An answer that names no windows keeps those known (a bare status says nothing of them).
      windows: ev.windows ?? d.limits?.windows ?? [],
      at: ev.time,
      ...(ev.turn !== undefined ? { turn: ev.turn } : {}),
    };
  },
  'context.updated': (d, ev) => {
    const { totalTokens, maxTokens, percentage } = ev;
    d.context = { totalTokens, maxTokens, percentage };
  },
  // Background work: the level signal replaces the live set; the edges only date the tasks (elapsed time).
  'tasks.updated': (d, ev) => {
    d.tasks = ev.tasks;
    for (const id of Object.keys(d.taskStarts)) if (!ev.tasks.some((t) => t.taskId === id)) delete d.taskStarts[id];
  },
  'task.started': (d, ev, ctx) => {
    d.taskStarts[ev.taskId] ??= ev.time;
    rowsOnly(d, ev, ctx);
  },
  'task.completed': (d, ev, ctx) => {
    delete d.taskStarts[ev.taskId];
    rowsOnly(d, ev, ctx);
  },
  // A background command's latest output: each tail replaces the last; it stays on the card after the task ends.
  'task.output': (d, ev) => {
    if (ev.toolUseId !== undefined) d.taskTails[ev.toolUseId] = ev.tail;
  },
  'goal.updated': (d, ev, ctx) => {
    if (ev.goal === undefined) delete d.goal;
    else d.goal = ev.goal;
    rowsOnly(d, ev, ctx);
  },
};

function applySessionEvent(d: Draft, ev: ConsoleEvent, ctx: FoldContext): void {
  if (isUnrecognized(ev)) {
    applyTranscriptEvent(d.transcript, ev, ctx);
    return;
  }
  if (
    ev.kind === 'provision.state' ||
    ev.kind === 'auth.changed' ||
    ev.kind === 'index.state' ||
    ev.kind === 'sessions.changed' ||
    ev.kind === 'changes.updated'
  )
    return; // host state, not a session's
  // TypeScript cannot tie the table's entry to the event's kind through a union; the table's type did.
  ((SESSION[ev.kind] ?? rowsOnly) as SessionHandler<Kind>)(d, ev as EventOf<Kind>, ctx);
}

function sessionStarted(d: Draft, ev: EventOf<'session.started'>): void {
  const t = d.transcript;
  d.cwd = ev.cwd;
  d.requestedModel = ev.model;
  d.permissionMode = ev.permissionMode;
  d.resumed = ev.resumed;
  if (ev.forkedFrom !== undefined) d.forkedFrom = ev.forkedFrom;
  d.live = true;
  delete d.closed;
  addItem(t, { type: 'notice', key: newKey(t, 'n'), time: ev.time, text: startedText(ev.resumed, ev.forkedFrom, ev.cwd) });
}

function sessionUpdated(d: Draft, ev: EventOf<'session.updated'>): void {
  const t = d.transcript;
  if (ev.state !== undefined) {
    if (ev.state === 'awake') delete d.sleep;
    else d.sleep = ev.state;
  }
  if (ev.status !== undefined) {
    if (ev.status === 'idle') delete d.activity;
    else d.activity = ev.status === 'retrying' && ev.retry !== undefined ? retryText(ev.retry) : ev.status;
  }
  if (ev.title !== undefined && ev.title !== '') d.title = ev.title;
  if (ev.permissionMode !== undefined && ev.permissionMode !== d.permissionMode) {
    d.permissionMode = ev.permissionMode;
    addItem(t, { type: 'notice', key: newKey(t, 'n'), time: ev.time, text: `Permissions: ${MODE_LABELS[ev.permissionMode]}` });
  }
  if (ev.model !== undefined) modelSwitched(d);
  if (ev.model !== undefined && ev.model !== d.requestedModel) {
    d.requestedModel = ev.model;
    addItem(t, { type: 'notice', key: newKey(t, 'n'), time: ev.time, text: `Model: ${modelName(ev.model, d.models)}` });
  }
  if (ev.warning === 'continuation_delayed') {
    addItem(t, {
      type: 'notice',
      key: newKey(t, 'n'),
      time: ev.time,
      text: 'Background work finished, but Claude’s follow-up did not start in time; it was given up',
    });
  }
}

/**
 * A model switch: the model reported before no longer runs, and the picked label says nothing of the one that does
 * (never derived from it), so the effective model and the context window are unknown until the CLI reports them
 * (model.resolved; context.updated or a turn's usage): the gauge waits for them.
 */
function modelSwitched(d: Draft): void {
  delete d.effectiveModel;
  delete d.context;
  delete d.usage.contextWindow; // d.usage is the draft's own copy
}

/** "retrying (attempt 2 of 10, HTTP 529)": what the session is doing while the CLI retries the API. */
function retryText(r: RetryInfo): string {
  return `retrying (attempt ${r.attempt} of ${r.maxRetries}${r.httpStatus !== undefined ? `, HTTP ${r.httpStatus}` : ''})`;
}

function sessionClosed(d: Draft, ev: EventOf<'session.closed'>): void {
  const t = d.transcript;
  d.live = false;
  delete d.sleep;
  d.closed = ev.message !== undefined ? { reason: ev.reason, message: ev.message } : { reason: ev.reason };
  dropStreams(t);
  d.pending = [];
  // The claude process is gone, and its background tasks with it.
  d.tasks = [];
  d.taskStarts = {};
  delete d.runningTurn;
  if (ev.reason === 'closed') {
    addItem(t, { type: 'notice', key: newKey(t, 'n'), time: ev.time, text: 'Session closed' });
    return;
  }
  addItem(t, {
    type: 'error',
    key: newKey(t, 'e'),
    time: ev.time,
    title: ev.reason === 'sidecar_exited' ? 'The session’s process ended' : 'The session ended with an error',
    message: ev.message ?? 'No details were given.',
    code: ev.reason,
  });
}

function turnStarted(d: Draft, ev: EventOf<'turn.started'>, ctx: FoldContext): void {
  const known = ev.turn !== undefined ? d.turns.get(ev.turn) : undefined;
  if (ev.turn !== undefined) {
    setTurn(d, { id: ev.turn, prompt: ev.prompt, status: 'running', ...(ev.uuid !== undefined ? { uuid: ev.uuid } : {}) });
    d.runningTurn = ev.turn;
  }
  if (known !== undefined && known.status !== 'queued') return;
  // A new turn has written nothing yet (a canceled one may have left a thinking estimate behind).
  const { thinkingTokens: _left, ...usage } = d.usage;
  d.usage = { ...usage, turnOutputTokens: 0 };
  applyTranscriptEvent(d.transcript, ev, ctx);
}

function usageUpdated(d: Draft, ev: EventOf<'usage.updated'>): void {
  const { turnOutputTokens, thinkingTokens, inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens, contextWindow, contextTokens } = ev;
  // Each count says anew how much of it is a thinking estimate: none when it does not say.
  const { thinkingTokens: _previous, ...rest } = d.usage;
  d.usage = {
    ...rest,
    turnOutputTokens,
    ...(thinkingTokens !== undefined ? { thinkingTokens } : {}),
    ...(inputTokens !== undefined ? { inputTokens } : {}),
    ...(outputTokens !== undefined ? { outputTokens } : {}),
    ...(cacheReadTokens !== undefined ? { cacheReadTokens } : {}),
    ...(cacheCreationTokens !== undefined ? { cacheCreationTokens } : {}),
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    ...(contextTokens !== undefined ? { contextTokens } : {}),
  };
}

function startedText(resumed: boolean, forkedFrom: string | undefined, cwd: string): string {
  if (forkedFrom !== undefined) return `Forked from session ${forkedFrom.slice(0, 8)} in ${cwd}`;
  if (resumed) return `Resumed in ${cwd}`;
  return `Session started in ${cwd}`;
}
