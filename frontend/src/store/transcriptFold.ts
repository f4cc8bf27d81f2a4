// How each event kind changes a transcript (the rows of the conversation): one handler per kind in a table
// whose type demands an entry for every kind of the wire, so a kind added to the schema fails the typecheck here
// until it is given a handler (or `noRow`). History pages are folded with this alone.
import type { ApiErrorEvent, GoalState, Json, TurnFailedEvent, WireEvent } from '../protocol/wire.gen';
import { type ConsoleEvent, isUnrecognized } from '../protocol/events';
import { filePath, stringField, textAfter } from './files';
import { isFileKind } from '../lib/toolKinds';
import { addCommand, addCommandOutput, commandLine, followsCommand, localOutput, slashCommand } from './commandRows';
import { addByTime, addItem, getItem, getTool, moveUnder, newKey, removeItem, replaceItem, toolKey } from './transcript';
import type { AssistantItem, Item, ThinkingItem, ToolItem, Transcript } from './types';

/** turn.completed's stop reason when a plain deny stopped Claude (PROTOCOL.md, "Permissions and denies"). */
const DENIED_STOP_REASON = 'tool_denied';

/** The goal's row: set or still pursued, met, or cleared. */
function goalText(goal: GoalState | undefined): string {
  if (goal === undefined) return 'Goal cleared';
  if (goal.met) return `Goal met: ${goal.condition}`;
  return goal.iterations === 0 ? `Goal set: ${goal.condition}` : `Goal not met yet (check ${goal.iterations}): ${goal.lastReason ?? goal.condition}`;
}

export interface FoldContext {
  /** Events arriving now (not replayed from a snapshot): attribution "from another window" needs it. */
  live: boolean;
  /** Permission requests this window answered. */
  answeredHere: ReadonlySet<string>;
}

export const REPLAY: FoldContext = { live: false, answeredHere: new Set() };

type Kind = WireEvent['kind'];
type EventOf<K extends Kind> = Extract<WireEvent, { kind: K }>;
/** Adds or changes rows for one event; returns whether anything changed. */
type TranscriptHandler<K extends Kind> = (t: Transcript, ev: EventOf<K>, ctx: FoldContext) => boolean;

/** For kinds that change session state only (the composer, the meters), never a row. */
const noRow = (): boolean => false;

function notice(t: Transcript, ev: WireEvent, text: string): boolean {
  addItem(t, { type: 'notice', key: newKey(t, 'n'), time: ev.time, text, ...turnOf(ev) });
  return true;
}

const turnOf = (ev: WireEvent): { turn?: string } => (ev.turn !== undefined ? { turn: ev.turn } : {});

const TRANSCRIPT: { [K in Kind]: TranscriptHandler<K> } = {
  'session.started': noRow,
  'session.closed': noRow,
  'turn.accepted': noRow,
  'session.updated': noRow,
  'turn.queued': noRow,
  'plan.updated': noRow,
  'usage.updated': noRow,
  'usage.recorded': noRow,
  'limit.updated': noRow,
  'model.resolved': noRow,
  'commands.updated': noRow,
  'models.updated': noRow,
  'context.updated': noRow,
  // The live set and the edges show in the session's background-work panel and on the launching tool's card.
  'tasks.updated': noRow,
  'task.started': noRow,
  'task.updated': noRow,
  'task.completed': noRow,
  'task.output': noRow,
  'goal.updated': (t, ev) => {
    const item: Item = { type: 'notice', key: newKey(t, 'n'), time: ev.time, text: goalText(ev.goal), ...turnOf(ev) };
    // A met goal ends its turn: it goes last. The others take their place by time, though Claude Code's clock
    // (the status) and the sidecar's (the replies) can disagree by a loaded machine's lag.
    if (ev.goal?.met === true) addItem(t, item);
    else addByTime(t, item);
    return true;
  },
  'session.compacted': (t, ev) => {
    addItem(t, { type: 'compacted', key: newKey(t, 'm'), time: ev.time, trigger: ev.trigger, preTokens: ev.preTokens, ...turnOf(ev) });
    return true;
  },
  'compact.summary': (t, ev) => {
    addItem(t, { type: 'summary', key: newKey(t, 'n'), time: ev.time, text: ev.text, ...turnOf(ev) });
    return true;
  },
  'api.error': (t, ev) => {
    addItem(t, apiErrorItem(t, ev), ev.parentToolUseId);
    return true;
  },
  'command.ran': (t, ev) => addCommand(t, commandLine(ev.name, ev.args), ev.time, ev.turn),
  'command.output': (t, ev) => !liveModelLine(t, ev.text) && addCommandOutput(t, ev.stream, ev.text, ev.time, ev.turn),
  'transcript.unreadable': (t, ev) => notice(t, ev, `${ev.lines === 1 ? '1 line' : `${ev.lines} lines`} of this transcript could not be read`),
  'hook.ran': (t, ev) => {
    addItem(t, {
      type: 'hook',
      key: newKey(t, 'k'),
      time: ev.time,
      hookEvent: ev.hookEvent,
      name: ev.name,
      outcome: ev.outcome,
      ...(ev.output !== undefined ? { output: ev.output } : {}),
      ...turnOf(ev),
    });
    return true;
  },
  'turn.started': (t, ev) => {
    // Claude Code's own continuation after background work: no person typed anything, so no prompt bubble.
    if (ev.origin !== undefined) return false;
    // A slash command the person typed is stored as its markup: show it as the command.
    const command = slashCommand(ev.prompt);
    if (command !== undefined) return addCommand(t, command, ev.time, ev.turn);
    // Live and in history alike (history maps each prompt to a turn.started whose turn is its uuid).
    addItem(t, {
      type: 'user',
      key: newKey(t, 'u'),
      time: ev.time,
      text: ev.prompt,
      ...turnOf(ev),
      ...(ev.uuid !== undefined ? { uuid: ev.uuid } : {}),
      ...(ev.images !== undefined && ev.images.length > 0 ? { images: ev.images } : {}),
    });
    return true;
  },
  'turn.guided': (t, ev) => {
    // The reply being written was interrupted: it keeps its words, and the guidance follows on the same turn.
    settleStreams(t);
    const images = ev.images !== undefined && ev.images.length > 0 ? { images: ev.images } : {};
    addItem(t, { type: 'user', key: newKey(t, 'u'), time: ev.time, text: ev.prompt, steered: true, ...turnOf(ev), ...images });
    return true;
  },
  'turn.completed': (t, ev) => {
    const discarded = dropStreams(t);
    addItem(t, {
      type: 'turnEnd',
      key: newKey(t, 'x'),
      time: ev.time,
      outcome: 'completed',
      ...turnOf(ev),
      durationMs: ev.durationMs,
      costUsd: ev.costUsd,
      numTurns: ev.numTurns,
      ...(discarded ? { discardedPartial: true } : {}),
      ...(ev.stopReason === DENIED_STOP_REASON ? { deniedStop: true as const } : {}),
    });
    return true;
  },
  'turn.failed': (t, ev) => {
    settleStreams(t);
    const failure = turnFailure(ev);
    // The SDK's stand-in reply for an API error (or the API error's own card) says what the failure says: the
    // error card says it once.
    const last = getItem(t, t.rows[t.rows.length - 1]);
    const said = last?.type === 'assistant' ? last.text.trim() : last?.type === 'error' && last.api === true ? last.message.trim() : '';
    if (last !== undefined && last.turn === ev.turn && said !== '' && failure.message.includes(said)) removeItem(t, last.key);
    addItem(t, {
      type: 'error',
      key: newKey(t, 'e'),
      time: ev.time,
      title: failureTitle(failure.code),
      message: failure.message,
      code: failure.code,
      ...turnOf(ev),
    });
    return true;
  },
  'turn.canceled': (t, ev) => {
    // Removed before the SDK saw it: nothing ran, nothing to show in the transcript.
    if (ev.disposition === 'pre_accept') return false;
    // What had streamed stays, marked stopped (the sidecar sends it as stopped messages first; this is for an end
    // that came without them).
    settleStreams(t);
    // One cancel reads once: the transcript's own "interrupted" line gives way to the turn's end.
    for (let i = t.rows.length - 1; i >= 0; i--) {
      const row = getItem(t, t.rows[i]);
      if (row === undefined || (row.turn !== ev.turn && row.turn !== undefined)) break;
      if (row.type === 'notice' && row.interrupted === true) removeItem(t, row.key);
      if (row.type === 'user') break;
    }
    addItem(t, {
      type: 'turnEnd',
      key: newKey(t, 'x'),
      time: ev.time,
      outcome: 'canceled',
      ...turnOf(ev),
      ...(ev.forced === true ? { forced: true } : {}),
    });
    return true;
  },
  'message.delta': (t, ev) => {
    const streamId = `${ev.messageId}:${ev.index}`;
    const existing = getItem(t, t.streams.get(streamId));
    if (existing !== undefined && (existing.type === 'assistant' || existing.type === 'thinking')) {
      replaceItem(t, { ...existing, text: existing.text + ev.text });
      return true;
    }
    const key = newKey(t, 's');
    const item: AssistantItem | ThinkingItem =
      ev.block === 'thinking'
        ? { type: 'thinking', key, time: ev.time, messageId: ev.messageId, text: ev.text, streaming: true, ...turnOf(ev) }
        : { type: 'assistant', key, time: ev.time, messageId: ev.messageId, text: ev.text, streaming: true, ...turnOf(ev) };
    t.streams.set(streamId, key);
    addItem(t, item);
    return true;
  },
  'message.completed': (t, ev) => {
    completeMessage(t, ev.role, ev.text, ev.time, ev.messageId, ev.uuid, ev.parentToolUseId, ev.turn, ev.stopped === true);
    return true;
  },
  'tool.started': toolStarted,
  'tool.updated': (t, ev) => {
    const tool = getTool(t, ev.toolUseId);
    if (tool === undefined) return false;
    replaceItem(t, {
      ...tool,
      ...(ev.elapsedSeconds !== undefined ? { elapsedSeconds: ev.elapsedSeconds } : {}),
      ...(ev.summary !== undefined ? { summary: ev.summary } : {}),
    });
    return true;
  },
  'tool.completed': toolCompleted,
  'tool.failed': (t, ev) => {
    const tool = ensureTool(t, ev.toolUseId, ev.name, ev.time, ev.turn);
    replaceItem(t, { ...tool, status: 'failed', error: ev.error, ...(ev.denied === true ? { denied: true as const } : {}) });
    return true;
  },
  'tool.interrupted': (t, ev) => {
    const tool = ensureTool(t, ev.toolUseId, ev.name, ev.time, ev.turn);
    // One terminal state per call: a result that came first stands.
    if (tool.status !== 'running') return false;
    replaceItem(t, { ...tool, status: ev.cause === 'cancel' ? 'canceled' : ev.cause === 'session_ended' ? 'ended' : 'interrupted' });
    return true;
  },
  // A host tool's call shows as its tool.started / tool.completed card already.
  'tool.called': noRow,
  'permission.requested': permissionRequested,
  'permission.settled': (t, ev, ctx) => {
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
        ...(ev.answers !== undefined ? { answers: ev.answers } : {}),
        ...(ev.mode !== undefined ? { mode: ev.mode } : {}),
      },
    });
    return true;
  },
  unknown: (t, ev) => {
    addItem(t, { type: 'unknown', key: newKey(t, 'k'), time: ev.time, label: unknownLabel(ev.raw), raw: ev.raw, ...turnOf(ev) });
    return true;
  },
  'protocol.error': (t, ev) => {
    addItem(t, { type: 'error', key: newKey(t, 'e'), time: ev.time, title: 'Protocol error', message: ev.message, code: ev.code, ...turnOf(ev) });
    return true;
  },
};

/**
 * Adds or changes the rows one event makes; returns whether anything changed. A kind this build does not know
 * becomes a raw row; the host's own pushes (provisioning, sign-in) make none.
 */
export function applyTranscriptEvent(t: Transcript, ev: ConsoleEvent, ctx: FoldContext): boolean {
  if (isUnrecognized(ev)) {
    addItem(t, {
      type: 'unknown',
      key: newKey(t, 'k'),
      time: ev.time,
      label: ev.kind.slice('unrecognized:'.length),
      raw: ev.original,
      ...(ev.turn !== undefined ? { turn: ev.turn } : {}),
    });
    return true;
  }
  if (
    ev.kind === 'provision.state' ||
    ev.kind === 'auth.changed' ||
    ev.kind === 'index.state' ||
    ev.kind === 'sessions.changed' ||
    ev.kind === 'changes.updated'
  )
    return false;
  // TypeScript cannot tie the table's entry to the event's kind through a union; the table's type did.
  const handler = TRANSCRIPT[ev.kind] as TranscriptHandler<Kind>;
  return handler(t, ev as EventOf<Kind>, ctx);
}

export function turnFailure(ev: TurnFailedEvent): { code: string; message: string } {
  return { code: ev.code, message: ev.message };
}

function toolStarted(t: Transcript, ev: EventOf<'tool.started'>): boolean {
  const existingKey = toolKey(t, ev.toolUseId);
  const known = getTool(t, ev.toolUseId);
  if (ev.fileBefore !== undefined && !t.files.has(ev.fileBefore.path)) t.files.set(ev.fileBefore.path, ev.fileBefore.text);
  const path = isFileKind(ev.toolKind) ? filePath(ev.input) : undefined;
  const before = path !== undefined && t.files.has(path) ? t.files.get(path) : undefined;
  // The permission request may come before the call's own message: tie them either way.
  const requestId = known?.requestId ?? t.ids.get(`permfor:${ev.toolUseId}`);
  const item: ToolItem = {
    type: 'tool',
    key: existingKey ?? newKey(t, 't'),
    time: ev.time,
    toolUseId: ev.toolUseId,
    name: ev.name,
    input: ev.input,
    toolKind: ev.toolKind,
    title: ev.title,
    ...(ev.detail !== undefined ? { detail: ev.detail } : {}),
    status: known?.status ?? 'running',
    children: known?.children ?? [],
    ...turnOf(ev),
    ...(before !== undefined ? { before } : {}),
    ...(ev.fileBefore !== undefined ? { fileBefore: ev.fileBefore } : {}),
    ...(ev.parentToolUseId !== undefined ? { parentToolUseId: ev.parentToolUseId } : {}),
    ...(known?.output !== undefined ? { output: known.output } : {}),
    ...(known?.error !== undefined ? { error: known.error } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
  };
  if (existingKey !== undefined) {
    replaceItem(t, item);
  } else {
    t.ids.set(`tool:${ev.toolUseId}`, item.key);
    if (!collapseChecklist(t, item)) addItem(t, item, ev.parentToolUseId);
  }
  return true;
}

/** A checklist update right after another of the same turn takes that one's row, counting both (issue 28:
 * "Checklist updated" repeated row after row). The earlier call stays an item, so its own events still fold. */
function collapseChecklist(t: Transcript, item: ToolItem): boolean {
  if (item.toolKind !== 'plan' || item.parentToolUseId !== undefined) return false;
  const lastKey = t.rows[t.rows.length - 1];
  const last = lastKey !== undefined ? t.items.get(lastKey) : undefined;
  if (last?.type !== 'tool' || last.toolKind !== 'plan' || last.turn !== item.turn || last.status === 'failed') return false;
  t.items.set(item.key, { ...item, repeats: (last.repeats ?? 1) + 1 });
  t.rows[t.rows.length - 1] = item.key;
  return true;
}

function toolCompleted(t: Transcript, ev: EventOf<'tool.completed'>): boolean {
  const tool = ensureTool(t, ev.toolUseId, ev.name, ev.time, ev.turn);
  if (ev.fileBefore !== undefined && !t.files.has(ev.fileBefore.path)) t.files.set(ev.fileBefore.path, ev.fileBefore.text);
  const kind = tool.toolKind;
  const path = isFileKind(kind) ? filePath(tool.input) : undefined;
  let before = tool.before;
  if (path !== undefined && before === undefined && ev.fileBefore?.path === path) before = ev.fileBefore.text;
  if (path !== undefined && isFileKind(kind)) {
    // The file changed only now that the tool succeeded; later cards diff against this text.
    const after = textAfter(kind, tool.input, before);
    if (after !== undefined) t.files.set(path, after);
    else t.files.delete(path);
  }
  if (kind === 'read') noteReadText(t, tool.input, ev.structured);
  replaceItem(t, {
    ...tool,
    status: 'completed',
    output: ev.output,
    ...(ev.structured !== undefined ? { structured: ev.structured } : {}),
    ...(before !== undefined ? { before } : {}),
    ...(ev.fileBefore !== undefined && tool.fileBefore === undefined ? { fileBefore: ev.fileBefore } : {}),
    ...(ev.images !== undefined && ev.images.length > 0 ? { images: ev.images } : {}),
  });
  return true;
}

function permissionRequested(t: Transcript, ev: EventOf<'permission.requested'>): boolean {
  if (t.ids.has(`perm:${ev.requestId}`)) return false;
  const key = newKey(t, 'p');
  t.ids.set(`perm:${ev.requestId}`, key);
  t.ids.set(`permfor:${ev.toolUseId}`, ev.requestId);
  addItem(t, {
    type: 'permission',
    key,
    time: ev.time,
    requestId: ev.requestId,
    toolUseId: ev.toolUseId,
    toolName: ev.toolName,
    input: ev.input,
    toolKind: ev.toolKind,
    toolTitle: ev.toolTitle,
    suggestions: ev.suggestions,
    ...turnOf(ev),
    ...(ev.title !== undefined ? { title: ev.title } : {}),
    ...(ev.description !== undefined ? { description: ev.description } : {}),
    ...(ev.decisionReason !== undefined ? { decisionReason: ev.decisionReason } : {}),
  });
  const tool = getTool(t, ev.toolUseId);
  if (tool !== undefined) replaceItem(t, { ...tool, requestId: ev.requestId });
  return true;
}

/** What each API error code Claude Code records means, in words; others read as a plain API error. */
const API_ERROR_TITLES: Readonly<Record<string, string>> = {
  rate_limit: 'Rate limit reached',
  overloaded: 'The API is overloaded',
  authentication_failed: 'The API refused the credentials',
  oauth_org_not_allowed: 'This organization may not use Claude Code',
  account_on_hold: 'The account is on hold',
  verification_required: 'The account needs verification',
  billing_error: 'A billing problem stopped the request',
  invalid_request: 'The API refused the request',
  model_not_found: 'The model was not found',
  server_error: 'The API had a server error',
  max_output_tokens: 'The reply reached the output limit',
  cloud_credential_error: 'The cloud credentials were refused',
};

/** An API error's card: its meaning and HTTP status as the title ("Rate limit reached (429)"), the CLI's words. */
function apiErrorItem(t: Transcript, ev: ApiErrorEvent): Item {
  const known = Object.hasOwn(API_ERROR_TITLES, ev.error) ? API_ERROR_TITLES[ev.error] : undefined;
  const title = known ?? 'The API answered with an error';
  return {
    type: 'error',
    key: newKey(t, 'e'),
    time: ev.time,
    title: ev.httpStatus !== undefined ? `${title} (${ev.httpStatus})` : title,
    message: ev.message,
    code: ev.error,
    api: true,
    ...turnOf(ev),
  };
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
    case 'host_exited':
      return 'Cut off: Baton stopped during this turn';
    default:
      return 'The turn failed';
  }
}

/** Removes items still streaming (their deltas never became a message); true when any was removed. */
export function dropStreams(t: Transcript): boolean {
  if (t.streams.size === 0) return false;
  for (const key of t.streams.values()) removeItem(t, key);
  t.streams.clear();
  return true;
}

/** Keeps the items still streaming as what they are, stopped: a turn that ended mid-reply keeps its words. */
export function settleStreams(t: Transcript): void {
  for (const key of t.streams.values()) {
    const item = getItem(t, key);
    if (item?.type === 'assistant' || item?.type === 'thinking') {
      if (item.text === '') removeItem(t, key);
      else replaceItem(t, { ...item, streaming: false, stopped: true });
    }
  }
  t.streams.clear();
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
    // Its kind and title come with its tool.started; until then it is a plain card under its name.
    toolKind: 'other',
    title: name,
    status: 'running',
    children: [],
    ...(turn !== undefined ? { turn } : {}),
  };
  t.ids.set(`tool:${toolUseId}`, item.key);
  addItem(t, item);
  return item;
}

/** The CLI's stand-in reply after an interrupt: the turn's end says it. */
const NO_RESPONSE = 'No response requested.';

/** The prefix of history transcripts' keys (history.ts). */
const HISTORY_PREFIX = 'h';

/** Live, a model change reads once, from session.updated; a transcript has only the CLI's own line. */
function liveModelLine(t: Transcript, text: string): boolean {
  return t.prefix !== HISTORY_PREFIX && /^Set model to /.test(text.trim());
}

function completeMessage(
  t: Transcript,
  role: 'assistant' | 'user' | 'thinking',
  text: string,
  time: string,
  messageId: string | undefined,
  uuid: string | undefined,
  parentToolUseId: string | undefined,
  turn: string | undefined,
  stopped = false,
): void {
  const common = {
    time,
    ...(stopped ? { stopped: true as const } : {}),
    ...(turn !== undefined ? { turn } : {}),
    ...(parentToolUseId !== undefined ? { parentToolUseId } : {}),
  };
  if (role === 'user') {
    // A subagent's brief (history has it as the subagent's first message): its Agent card shows it already.
    if (parentToolUseId !== undefined && isBriefOf(t, parentToolUseId, text)) return;
    const command = slashCommand(text);
    if (command !== undefined) {
      addCommand(t, command, time, turn);
      return;
    }
    const local = localOutput(text);
    // What a local command printed belongs to its row; alone it is a line of its own, as the CLI shows it.
    if (local !== undefined && followsCommand(t)) {
      addCommandOutput(t, local.stream, local.text, time, turn);
      return;
    }
    const interrupted = /^\[Request interrupted by user[^\]]*\]$/.test(text.trim());
    const localText = local?.text.replace(/`/g, '');
    if (localText !== undefined && liveModelLine(t, localText)) return;
    const item: Item = interrupted
      ? { type: 'notice', key: newKey(t, 'n'), time, text: 'Canceled', interrupted: true, ...(turn !== undefined ? { turn } : {}) }
      : localText !== undefined
        ? { type: 'notice', key: newKey(t, 'n'), time, text: localText, ...(turn !== undefined ? { turn } : {}) }
        : { type: 'user', key: newKey(t, 'u'), time, text, ...(turn !== undefined ? { turn } : {}), ...(uuid !== undefined ? { uuid } : {}) };
    addItem(t, item, parentToolUseId);
    return;
  }
  const type = role === 'thinking' ? 'thinking' : 'assistant';
  const previous = getItem(t, t.rows[t.rows.length - 1]);
  if (type === 'assistant' && text.trim() === NO_RESPONSE && previous?.type === 'notice' && previous.interrupted === true) return;
  const streamId = messageId !== undefined ? findStream(t, messageId, type) : undefined;
  const streamed = streamId !== undefined ? getItem(t, t.streams.get(streamId)) : undefined;
  const fields = { text, streaming: false as const, ...common, ...(messageId !== undefined ? { messageId } : {}) };
  if (streamed !== undefined && (streamed.type === 'assistant' || streamed.type === 'thinking')) {
    if (streamId !== undefined) t.streams.delete(streamId);
    const done: Item =
      type === 'assistant' ? { type, key: streamed.key, ...fields, ...(uuid !== undefined ? { uuid } : {}) } : { type, key: streamed.key, ...fields };
    replaceItem(t, done);
    if (parentToolUseId !== undefined) moveUnder(t, streamed.key, parentToolUseId);
    return;
  }
  const key = newKey(t, type === 'assistant' ? 'a' : 'th');
  const item: Item = type === 'assistant' ? { type, key, ...fields, ...(uuid !== undefined ? { uuid } : {}) } : { type, key, ...fields };
  addItem(t, item, parentToolUseId);
}

/** Whether the text is the prompt the Agent call gave its subagent. */
function isBriefOf(t: Transcript, toolUseId: string, text: string): boolean {
  const tool = getTool(t, toolUseId);
  const brief = tool !== undefined ? stringField(tool.input, 'prompt') : undefined;
  return brief !== undefined && brief.trim() === text.trim();
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
