// Folds a session's events into its state. Pure from the outside: `foldEvents(state, events)` returns a new
// state and leaves `state` as it was (the containers are copied once per call, then mutated).
import { type ConsoleEvent, isUnrecognized, type Json, type PermissionMode, type SessionEvent, type TurnFailedEvent } from '../protocol/events';
import { isFileTool, filePath, textAfter } from './files';
import { addItem, draftTranscript, emptyTranscript, getItem, getTool, moveUnder, newKey, removeItem, replaceItem, toolKey } from './transcript';
import type { AssistantItem, Item, SessionState, ThinkingItem, ToolItem, Transcript, TurnInfo } from './types';

export interface FoldContext {
  /** Events arriving now (not replayed from a snapshot): attribution "from another window" needs it. */
  live: boolean;
  /** Permission requests this window answered. */
  answeredHere: ReadonlySet<string>;
}

export const REPLAY: FoldContext = { live: false, answeredHere: new Set() };

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
  delete d.activity;
}

function applySessionEvent(d: Draft, ev: ConsoleEvent, ctx: FoldContext): void {
  const t = d.transcript;
  switch (ev.kind) {
    case 'session.started':
      d.cwd = ev.cwd;
      d.requestedModel = ev.model;
      d.permissionMode = ev.permissionMode;
      d.resumed = ev.resumed;
      if (ev.forkedFrom !== undefined) d.forkedFrom = ev.forkedFrom;
      d.live = true;
      delete d.closed;
      addItem(t, { type: 'notice', key: newKey(t, 'n'), time: ev.time, text: startedText(ev.resumed, ev.forkedFrom, ev.cwd) });
      return;
    case 'session.updated':
      if (ev.status !== undefined) {
        if (ev.status === 'idle') delete d.activity;
        else d.activity = ev.status;
      }
      if (ev.title !== undefined && ev.title !== '') d.title = ev.title;
      if (ev.permissionMode !== undefined && ev.permissionMode !== d.permissionMode) {
        d.permissionMode = ev.permissionMode;
        addItem(t, { type: 'notice', key: newKey(t, 'n'), time: ev.time, text: `Permission mode: ${ev.permissionMode}` });
      }
      if (ev.model !== undefined && ev.model !== d.requestedModel) {
        d.requestedModel = ev.model;
        addItem(t, { type: 'notice', key: newKey(t, 'n'), time: ev.time, text: `Model set to ${ev.model}` });
      }
      return;
    case 'session.closed':
      d.live = false;
      d.closed = ev.message !== undefined ? { reason: ev.reason, message: ev.message } : { reason: ev.reason };
      dropStreams(t);
      d.pending = [];
      delete d.runningTurn;
      if (ev.reason === 'closed') {
        addItem(t, { type: 'notice', key: newKey(t, 'n'), time: ev.time, text: 'Session closed' });
      } else {
        addItem(t, {
          type: 'error',
          key: newKey(t, 'e'),
          time: ev.time,
          title: ev.reason === 'sidecar_exited' ? 'The session’s process ended' : 'The session ended with an error',
          message: ev.message ?? 'No details were given.',
          code: ev.reason,
        });
      }
      return;
    case 'turn.queued':
      // Waiting behind the running turn; shown in the composer's queue, not in the transcript, until it starts.
      if (ev.turn !== undefined && !d.turns.has(ev.turn)) setTurn(d, { id: ev.turn, prompt: ev.prompt, status: 'queued' });
      return;
    case 'turn.started': {
      const known = ev.turn !== undefined ? d.turns.get(ev.turn) : undefined;
      if (ev.turn !== undefined) {
        setTurn(d, { id: ev.turn, prompt: ev.prompt, status: 'running', ...(ev.uuid !== undefined ? { uuid: ev.uuid } : {}) });
        d.runningTurn = ev.turn;
      }
      if (known !== undefined && known.status !== 'queued') return;
      d.usage = { ...d.usage, turnOutputTokens: 0 };
      applyTranscriptEvent(t, ev, ctx);
      return;
    }
    case 'turn.completed':
      applyTranscriptEvent(t, ev, ctx);
      endTurn(d, ev.turn, 'completed');
      return;
    case 'turn.failed':
      applyTranscriptEvent(t, ev, ctx);
      endTurn(d, ev.turn, 'failed');
      return;
    case 'turn.canceled':
      applyTranscriptEvent(t, ev, ctx);
      endTurn(d, ev.turn, 'canceled');
      return;
    case 'permission.requested':
      if (applyTranscriptEvent(t, ev, ctx) && !d.pending.includes(ev.requestId)) d.pending.push(ev.requestId);
      return;
    case 'permission.settled':
      applyTranscriptEvent(t, ev, ctx);
      d.pending = d.pending.filter((id) => id !== ev.requestId);
      return;
    case 'plan.updated':
      d.plan = ev.items;
      return;
    case 'usage.updated': {
      const { turnOutputTokens, inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens, contextWindow, contextTokens } = ev;
      d.usage = {
        ...d.usage,
        turnOutputTokens,
        ...(inputTokens !== undefined ? { inputTokens } : {}),
        ...(outputTokens !== undefined ? { outputTokens } : {}),
        ...(cacheReadTokens !== undefined ? { cacheReadTokens } : {}),
        ...(cacheCreationTokens !== undefined ? { cacheCreationTokens } : {}),
        ...(contextWindow !== undefined ? { contextWindow } : {}),
        ...(contextTokens !== undefined ? { contextTokens } : {}),
      };
      return;
    }
    case 'model.resolved':
      d.effectiveModel = ev.model;
      return;
    case 'models.updated':
      d.models = ev.models;
      return;
    case 'commands.updated':
      d.commands = ev.commands;
      return;
    case 'context.updated': {
      const { totalTokens, maxTokens, percentage } = ev;
      d.context = { totalTokens, ...(maxTokens !== undefined ? { maxTokens } : {}), ...(percentage !== undefined ? { percentage } : {}) };
      return;
    }
    default:
      applyTranscriptEvent(t, ev, ctx);
  }
}

function startedText(resumed: boolean, forkedFrom: string | undefined, cwd: string): string {
  if (forkedFrom !== undefined) return `Forked from session ${forkedFrom.slice(0, 8)} in ${cwd}`;
  if (resumed) return `Resumed in ${cwd}`;
  return `Session started in ${cwd}`;
}

export function turnFailure(ev: TurnFailedEvent): { code: string; message: string } {
  const nested = typeof ev.error === 'object' && ev.error !== null ? ev.error : undefined;
  const code = ev.code ?? nested?.code ?? 'sdk_error';
  const message = ev.message ?? nested?.message ?? (typeof ev.error === 'string' ? ev.error : 'The turn failed.');
  return { code, message };
}

function failureTitle(code: string): string {
  switch (code) {
    case 'auth':
      return 'Not signed in, or the key was refused';
    case 'api_error':
      return 'The API answered with an error';
    case 'max_turns':
      return 'Stopped: the turn limit was reached';
    case 'budget':
      return 'Stopped: the budget was reached';
    case 'sidecar_exited':
      return 'The session’s process ended';
    default:
      return 'The turn failed';
  }
}

/** Removes items still streaming (their deltas never became a message); true when any was removed. */
function dropStreams(t: Transcript): boolean {
  if (t.streams.size === 0) return false;
  for (const key of t.streams.values()) removeItem(t, key);
  t.streams.clear();
  return true;
}

/**
 * Events that only add or change transcript items; history pages are folded with this alone. Returns whether
 * the event changed anything.
 */
export function applyTranscriptEvent(t: Transcript, ev: ConsoleEvent | SessionEvent, ctx: FoldContext): boolean {
  const turn = ev.turn !== undefined ? { turn: ev.turn } : {};
  switch (ev.kind) {
    case 'turn.started':
      // Live and in history alike (history maps each prompt to a turn.started whose turn is its uuid).
      addItem(t, { type: 'user', key: newKey(t, 'u'), time: ev.time, text: ev.prompt, ...turn, ...(ev.uuid !== undefined ? { uuid: ev.uuid } : {}) });
      return true;
    case 'turn.completed': {
      const discarded = dropStreams(t);
      addItem(t, {
        type: 'turnEnd',
        key: newKey(t, 'x'),
        time: ev.time,
        outcome: 'completed',
        ...turn,
        ...(ev.durationMs !== undefined ? { durationMs: ev.durationMs } : {}),
        ...(ev.costUsd !== undefined ? { costUsd: ev.costUsd } : {}),
        ...(ev.numTurns !== undefined ? { numTurns: ev.numTurns } : {}),
        ...(discarded ? { discardedPartial: true } : {}),
      });
      return true;
    }
    case 'turn.failed': {
      dropStreams(t);
      const failure = turnFailure(ev);
      addItem(t, { type: 'error', key: newKey(t, 'e'), time: ev.time, title: failureTitle(failure.code), message: failure.message, code: failure.code, ...turn });
      return true;
    }
    case 'turn.canceled': {
      // A dequeued turn never started: nothing to show in the transcript.
      if (ev.disposition === 'dequeued') return false;
      const discarded = dropStreams(t);
      addItem(t, { type: 'turnEnd', key: newKey(t, 'x'), time: ev.time, outcome: 'canceled', ...turn, ...(discarded ? { discardedPartial: true } : {}) });
      return true;
    }
    case 'message.delta': {
      const streamId = `${ev.messageId}:${ev.index}`;
      const existing = getItem(t, t.streams.get(streamId));
      if (existing !== undefined && (existing.type === 'assistant' || existing.type === 'thinking')) {
        replaceItem(t, { ...existing, text: existing.text + ev.text });
        return true;
      }
      const key = newKey(t, 's');
      const item: AssistantItem | ThinkingItem =
        ev.block === 'thinking'
          ? { type: 'thinking', key, time: ev.time, messageId: ev.messageId, text: ev.text, streaming: true, ...turn }
          : { type: 'assistant', key, time: ev.time, messageId: ev.messageId, text: ev.text, streaming: true, ...turn };
      t.streams.set(streamId, key);
      addItem(t, item);
      return true;
    }
    case 'message.completed':
      completeMessage(t, ev.role, ev.text, ev.time, ev.messageId, ev.uuid, ev.parentToolUseId, ev.turn);
      return true;
    case 'tool.started': {
      const existingKey = toolKey(t, ev.toolUseId);
      const known = getTool(t, ev.toolUseId);
      if (ev.fileBefore !== undefined && !t.files.has(ev.fileBefore.path)) t.files.set(ev.fileBefore.path, ev.fileBefore.text);
      const path = isFileTool(ev.name) ? filePath(ev.input) : undefined;
      const before = path !== undefined && t.files.has(path) ? t.files.get(path) : undefined;
      const item: ToolItem = {
        type: 'tool',
        key: existingKey ?? newKey(t, 't'),
        time: ev.time,
        toolUseId: ev.toolUseId,
        name: ev.name,
        input: ev.input,
        status: known?.status ?? 'running',
        children: known?.children ?? [],
        ...turn,
        ...(before !== undefined ? { before } : {}),
        ...(ev.fileBefore !== undefined ? { fileBefore: ev.fileBefore } : {}),
        ...(ev.parentToolUseId !== undefined ? { parentToolUseId: ev.parentToolUseId } : {}),
        ...(known?.output !== undefined ? { output: known.output } : {}),
        ...(known?.error !== undefined ? { error: known.error } : {}),
        ...(known?.requestId !== undefined ? { requestId: known.requestId } : {}),
      };
      if (existingKey !== undefined) {
        replaceItem(t, item);
      } else {
        t.ids.set(`tool:${ev.toolUseId}`, item.key);
        addItem(t, item, ev.parentToolUseId);
      }
      return true;
    }
    case 'tool.updated': {
      const tool = getTool(t, ev.toolUseId);
      if (tool === undefined) return false;
      replaceItem(t, {
        ...tool,
        ...(ev.elapsedSeconds !== undefined ? { elapsedSeconds: ev.elapsedSeconds } : {}),
        ...(ev.summary !== undefined ? { summary: ev.summary } : {}),
      });
      return true;
    }
    case 'tool.completed': {
      const tool = ensureTool(t, ev.toolUseId, ev.name, ev.time, ev.turn);
      if (ev.fileBefore !== undefined && !t.files.has(ev.fileBefore.path)) t.files.set(ev.fileBefore.path, ev.fileBefore.text);
      const path = isFileTool(tool.name) ? filePath(tool.input) : undefined;
      let before = tool.before;
      if (path !== undefined && before === undefined && ev.fileBefore?.path === path) before = ev.fileBefore.text;
      if (path !== undefined && isFileTool(tool.name)) {
        // The file changed only now that the tool succeeded; later cards diff against this text.
        const after = textAfter(tool.name, tool.input, before);
        if (after !== undefined) t.files.set(path, after);
        else t.files.delete(path);
      }
      if (tool.name === 'Read') noteReadText(t, tool.input, ev.structured);
      replaceItem(t, {
        ...tool,
        status: 'completed',
        output: ev.output,
        ...(ev.structured !== undefined ? { structured: ev.structured } : {}),
        ...(before !== undefined ? { before } : {}),
        ...(ev.fileBefore !== undefined && tool.fileBefore === undefined ? { fileBefore: ev.fileBefore } : {}),
      });
      return true;
    }
    case 'tool.failed': {
      const tool = ensureTool(t, ev.toolUseId, ev.name, ev.time, ev.turn);
      replaceItem(t, { ...tool, status: 'failed', error: ev.error });
      return true;
    }
    case 'permission.requested': {
      if (t.ids.has(`perm:${ev.requestId}`)) return false;
      const key = newKey(t, 'p');
      t.ids.set(`perm:${ev.requestId}`, key);
      addItem(t, {
        type: 'permission',
        key,
        time: ev.time,
        requestId: ev.requestId,
        toolUseId: ev.toolUseId,
        toolName: ev.toolName,
        input: ev.input,
        suggestions: ev.suggestions ?? [],
        ...turn,
        ...(ev.title !== undefined ? { title: ev.title } : {}),
        ...(ev.description !== undefined ? { description: ev.description } : {}),
        ...(ev.decisionReason !== undefined ? { decisionReason: ev.decisionReason } : {}),
      });
      const tool = getTool(t, ev.toolUseId);
      if (tool !== undefined) replaceItem(t, { ...tool, requestId: ev.requestId });
      return true;
    }
    case 'permission.settled': {
      const item = getItem(t, t.ids.get(`perm:${ev.requestId}`));
      // Settled once: a second verdict (another window, a late interrupt) changes nothing.
      if (item?.type !== 'permission' || item.settled !== undefined) return false;
      replaceItem(t, {
        ...item,
        settled: {
          verdict: ev.verdict,
          by: ev.by,
          elsewhere: ctx.live && ev.by === 'user' && !ctx.answeredHere.has(ev.requestId),
          ...(ev.message !== undefined ? { message: ev.message } : {}),
        },
      });
      return true;
    }
    case 'unknown':
      addItem(t, { type: 'unknown', key: newKey(t, 'k'), time: ev.time, label: unknownLabel(ev.raw), raw: ev.raw, ...turn });
      return true;
    case 'protocol.error':
      addItem(t, { type: 'error', key: newKey(t, 'e'), time: ev.time, title: 'Protocol error', message: ev.message, code: ev.code, ...turn });
      return true;
    default:
      if (isUnrecognized(ev)) {
        addItem(t, { type: 'unknown', key: newKey(t, 'k'), time: ev.time, label: ev.kind.slice('unrecognized:'.length), raw: ev.original, ...turn });
        return true;
      }
      return false;
  }
}

/** A Read of a whole file tells its current text, so a later Edit's card can show the file around the change. */
function noteReadText(t: Transcript, input: Json, structured: Json | undefined): void {
  const path = filePath(input);
  if (path === undefined || typeof structured !== 'object' || structured === null || Array.isArray(structured)) return;
  const file = structured['file'];
  if (typeof file !== 'object' || file === null || Array.isArray(file)) return;
  const { content, startLine, numLines, totalLines } = file;
  if (typeof content !== 'string' || (startLine !== undefined && startLine !== 1)) return;
  if (typeof numLines === 'number' && typeof totalLines === 'number' && numLines < totalLines) return;
  t.files.set(path, content);
}

function unknownLabel(raw: Json): string {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const type = raw['type'];
    const subtype = raw['subtype'];
    if (typeof type === 'string') return typeof subtype === 'string' ? `${type}/${subtype}` : type;
  }
  return 'unknown';
}

function ensureTool(t: Transcript, toolUseId: string, name: string, time: string, turn: string | undefined): ToolItem {
  const known = getTool(t, toolUseId);
  if (known !== undefined) return known;
  // A result whose call is on an older page (or was never seen): a card of its own.
  const item: ToolItem = {
    type: 'tool',
    key: newKey(t, 't'),
    time,
    toolUseId,
    name,
    input: {},
    status: 'running',
    children: [],
    ...(turn !== undefined ? { turn } : {}),
  };
  t.ids.set(`tool:${toolUseId}`, item.key);
  addItem(t, item);
  return item;
}

const LOCAL_OUTPUT = /^<local-command-stdout>([\s\S]*)<\/local-command-stdout>$/;

function completeMessage(
  t: Transcript,
  role: 'assistant' | 'user' | 'thinking',
  text: string,
  time: string,
  messageId: string | undefined,
  uuid: string | undefined,
  parentToolUseId: string | undefined,
  turn: string | undefined,
): void {
  const common = {
    time,
    ...(turn !== undefined ? { turn } : {}),
    ...(parentToolUseId !== undefined ? { parentToolUseId } : {}),
  };
  if (role === 'user') {
    const local = LOCAL_OUTPUT.exec(text.trim());
    const interrupted = /^\[Request interrupted by user[^\]]*\]$/.test(text.trim());
    const item: Item =
      local !== null || interrupted
        ? { type: 'notice', key: newKey(t, 'n'), time, text: local?.[1]?.trim() ?? 'Interrupted', ...(turn !== undefined ? { turn } : {}) }
        : { type: 'user', key: newKey(t, 'u'), time, text, ...(turn !== undefined ? { turn } : {}), ...(uuid !== undefined ? { uuid } : {}) };
    addItem(t, item, parentToolUseId);
    return;
  }
  const type = role === 'thinking' ? 'thinking' : 'assistant';
  const streamId = messageId !== undefined ? findStream(t, messageId, type) : undefined;
  const streamed = streamId !== undefined ? getItem(t, t.streams.get(streamId)) : undefined;
  const fields = { text, streaming: false as const, ...common, ...(messageId !== undefined ? { messageId } : {}) };
  if (streamed !== undefined && (streamed.type === 'assistant' || streamed.type === 'thinking')) {
    if (streamId !== undefined) t.streams.delete(streamId);
    const done: Item =
      type === 'assistant'
        ? { type, key: streamed.key, ...fields, ...(uuid !== undefined ? { uuid } : {}) }
        : { type, key: streamed.key, ...fields };
    replaceItem(t, done);
    if (parentToolUseId !== undefined) moveUnder(t, streamed.key, parentToolUseId);
    return;
  }
  const key = newKey(t, type === 'assistant' ? 'a' : 'th');
  const item: Item =
    type === 'assistant' ? { type, key, ...fields, ...(uuid !== undefined ? { uuid } : {}) } : { type, key, ...fields };
  addItem(t, item, parentToolUseId);
}

/** The in-flight stream of this API message whose block kind matches, lowest index first. */
function findStream(t: Transcript, messageId: string, type: 'assistant' | 'thinking'): string | undefined {
  let best: { id: string; index: number } | undefined;
  for (const [id, key] of t.streams) {
    const sep = id.lastIndexOf(':');
    if (id.slice(0, sep) !== messageId) continue;
    if (t.items.get(key)?.type !== type) continue;
    const index = Number(id.slice(sep + 1));
    if (best === undefined || index < best.index) best = { id, index };
  }
  return best?.id;
}
