// The ONE mapper from SDK messages to activity events, for live sessions and transcripts (history) alike.
// Pure: per-session state, no I/O; the clock is injected. Every message is routed by sdkRoutes.ts (a table over
// the SDK's own SDKMessage union): it maps to events, is consumed by the state it updates (system/init, stream
// bookkeeping), is dropped by name (command_lifecycle), or becomes an `unknown` event carrying its raw JSON.
import { type Event, type EventBody, type PlanItem, permissionModeSchema, type SessionActivity, stampEvent, stampEventAt } from '../protocol/events.js';
import { assertNever } from '../util/assertNever.js';
import { BackgroundTracker, type GoalObservation } from './background.js';
import { isStopMark, refusalOf } from './denials.js';
import { PlanTracker } from './plan.js';
import { isTaskNotification, promptText } from './prompts.js';
import { mapResult } from './results.js';
import {
  type AssistantMessage,
  envelopeSchema,
  resultMessageSchema,
  sessionTitleChangedSchema,
  systemInitSchema,
  systemStatusSchema,
  systemTaskProgressSchema,
  systemThinkingTokensSchema,
  systemApiRetrySchema,
  type UserMessage,
} from './sdkSchemas.js';
import { isoTime } from './writtenTime.js';
import {
  checkAssistantBlock,
  checkAssistantMessage,
  checkOwnAssistantBlock,
  checkStreamEvent,
  checkTimestamp,
  checkUserBlock,
  checkUserMessage,
} from './fastParse.js';
import { routeOf } from './sdkRoutes.js';
import { StreamTracker } from './stream.js';
import { ToolTracker } from './tools.js';
import { isSlashCommand, localCommandReply } from './localCommandReply.js';
import { recordedUsage, UsageMeter } from './usage.js';
import { toJsonValue } from '../util/json.js';
import { bashOutput, blockPrompt, compactSummary, contentText, localCommand, localOutput } from './userEntries.js';

/** The model the SDK names on the stub assistant message it makes up for API errors. */
const SYNTHETIC_MODEL = '<synthetic>';

export interface MapContext {
  /** The turn the message belongs to: the running turn live; derived from the prompt's uuid in history. */
  turn?: string | undefined;
}

export interface MapperOptions {
  /**
   * Mapping a transcript (history) rather than a live stream. Live, the session emits turn.started for each
   * prompt it sends; a transcript holds the prompt as a user message, which then maps to that turn.started.
   */
  transcript?: boolean;
  /**
   * Each message is fresh JSON (parsed from its line for this mapper alone): its values go into events as they
   * are, not copied through JSON once more (a transcript job's tool results: ~50 ms of the 120 MB bench's pass 2).
   */
  ownJson?: boolean;
}

export interface MapperSnapshot {
  model?: string | undefined;
  permissionMode?: string | undefined;
  changedPaths: string[];
  plan: PlanItem[];
}

export class Mapper {
  private readonly usage = new UsageMeter();
  private readonly plan = new PlanTracker();
  private readonly tools: ToolTracker;
  private readonly stream = new StreamTracker(this.usage);
  private readonly background = new BackgroundTracker();
  private readonly goalsSeen = new Set<string>();
  private readonly sentPrompts = new Set<string>();
  private model: string | undefined;
  /** A model switch since the last report: the next report goes out even when it names the same model. */
  private modelSwitched = false;
  /** The last prompt sent runs a slash command: its stub reply is the command's output (localCommandReply.ts). */
  private commandPrompt = false;
  private permissionMode: string | undefined;
  private costSoFar = 0;
  private assistantError: string | undefined;
  /** A plain deny stopped Claude in the current turn: its interrupt ends the turn as completed. */
  private deniedStop = false;
  /** A compact_boundary came since the last user message: the next one may be the compaction's summary. */
  private afterBoundary = false;

  private readonly transcript: boolean;
  private readonly ownJson: boolean;
  /** A transcript's last written time, as the message wrote it (checked). */
  private lastWritten: string | undefined;

  constructor(
    private readonly session: string,
    private readonly now: () => Date,
    options: MapperOptions = {},
  ) {
    this.transcript = options.transcript === true;
    this.ownJson = options.ownJson === true;
    this.tools = new ToolTracker(this.plan, this.ownJson);
  }

  /** What a transcript job must carry to continue mapping at a prompt (small: no message is in it). */
  snapshot(): MapperSnapshot {
    return {
      ...(this.model !== undefined ? { model: this.model } : {}),
      ...(this.permissionMode !== undefined ? { permissionMode: this.permissionMode } : {}),
      changedPaths: this.tools.changed,
      plan: this.plan.current,
    };
  }

  restore(snapshot: MapperSnapshot): void {
    this.model = snapshot.model;
    this.permissionMode = snapshot.permissionMode;
    this.tools.restoreChanged(snapshot.changedPaths);
    this.plan.restore(snapshot.plan);
  }

  /** Live only: a prompt this sidecar sent under `uuid`. An echo of it maps to nothing (the session
   * emitted turn.started for it already). */
  notePromptSent(uuid: string): void {
    this.sentPrompts.add(uuid);
  }

  /** Live only: the prompt a turn sends (a `/goal …` command changes how the next goal report reads). */
  notePromptText(prompt: string): void {
    this.background.notePrompt(prompt);
    this.commandPrompt = isSlashCommand(prompt);
  }

  /** Goal statuses read from the transcript (each once, in order): goal.updated events. */
  goalObserved(observations: readonly GoalObservation[], context: MapContext = {}): Event[] {
    const fresh = observations.filter((o) => !this.goalsSeen.has(o.uuid));
    for (const o of fresh) this.goalsSeen.add(o.uuid);
    return fresh.flatMap((o) => this.background.goalStatus(o).map((body) => this.stamp(body, context, () => new Date(o.timestamp))));
  }

  /** A turn that sent `/goal clear` ended: the goal is gone (Claude Code files no status for a clear). */
  goalTurnEnded(context: MapContext = {}): Event[] {
    return this.background.goalCleared().map((body) => this.stamp(body, context, this.now));
  }

  /** A goal is active and not met yet. */
  get goalActive(): boolean {
    return this.background.goalActive;
  }

  /** Whether the transcript is worth reading for goal statuses (a goal command was sent, or a goal is active). */
  get goalInPlay(): boolean {
    return this.background.goalInPlay;
  }

  /** The non-ambient background tasks Claude Code reports live (the level signal). */
  get activeTasks(): readonly { taskId: string }[] {
    return this.background.active;
  }

  /**
   * A fresh query generation began (after a cancel): costs count from zero again and nothing streams. Its claude
   * process starts with no background task: returns the tasks.updated that says so, when the set was not empty.
   */
  queryRestarted(): EventBody[] {
    this.costSoFar = 0;
    this.assistantError = undefined;
    this.usage.reset();
    this.stream.reset();
    return this.background.processRestarted();
  }

  /** The permission mode the session is known to run in (set at start or by set_permission_mode);
   * returns whether it changed. */
  notePermissionMode(mode: string): boolean {
    const changed = mode !== this.permissionMode;
    this.permissionMode = mode;
    return changed;
  }

  /**
   * The model was switched (set_model): what was reported before is no longer known to run, so the next report
   * is news even when it names the same model (the console cleared the one it showed).
   */
  switchedModel(): void {
    this.modelSwitched = true;
  }

  /** A report of the main loop's model from outside the message stream (the context usage read). */
  noteModel(model: string): EventBody[] {
    return this.modelReported(model);
  }

  map(message: unknown, context: MapContext = {}): Event[] {
    // A transcript says when each message was written; history shows that time rather than the time it was read.
    // A line without a valid one (an edited transcript) reads as written with the line before: a re-read is the same.
    const written = this.transcript ? (writtenAt(message) ?? this.lastWritten) : undefined;
    if (written !== undefined) this.lastWritten = written;
    const bodies = this.mapBodies(message);
    if (written === undefined) return bodies.map((body) => this.stamp(body, context, this.now));
    // Every event of a written message carries its one time: written once, not once per event.
    if (bodies.length === 0) return [];
    const time = isoTime(written);
    return bodies.map((body) => stampEventAt(body, this.session, time, context.turn));
  }

  private stamp(body: EventBody, context: MapContext, clock: () => Date): Event {
    return stampEvent(body, this.session, clock, context.turn);
  }

  private mapBodies(message: unknown): EventBody[] {
    const envelope = envelopeOf(message);
    if (envelope === undefined) return [unknown(message)];
    const route = routeOf(envelope.type, envelope.subtype);
    if (typeof route === 'function') return route(message) ?? [unknown(message)];
    switch (route) {
      case 'assistant': {
        const parsed = checkAssistantMessage(message);
        return parsed.success ? this.assistant(parsed.data, message) : [unknown(message)];
      }
      case 'user': {
        const parsed = checkUserMessage(message);
        const afterBoundary = this.afterBoundary;
        this.afterBoundary = false;
        return parsed.success ? this.user(parsed.data, message, afterBoundary) : [unknown(message)];
      }
      case 'result': {
        const parsed = resultMessageSchema.safeParse(message);
        if (!parsed.success) return [unknown(message)];
        const result = parsed.data;
        const usage = this.usage.turnFinished(result, this.model);
        const end = mapResult(result, { costBefore: this.costSoFar, assistantError: this.assistantError, deniedStop: this.deniedStop });
        this.costSoFar = result.total_cost_usd;
        this.assistantError = undefined;
        this.deniedStop = false;
        return [usage, end];
      }
      case 'stream_event': {
        const parsed = checkStreamEvent(message);
        return parsed.success ? this.stream.map(parsed.data) : [unknown(message)];
      }
      case 'init': {
        const init = systemInitSchema.safeParse(message);
        if (!init.success) return [unknown(message)];
        return [...this.modelReported(init.data.model), ...this.modeReported(init.data.permissionMode)];
      }
      case 'status':
        return this.status(message);
      case 'api_retry':
        return this.retry(message);
      case 'thinking_tokens': {
        // The CLI's own estimate of thinking under way (from the API's estimated_tokens, else from the text).
        const parsed = systemThinkingTokensSchema.safeParse(message);
        return parsed.success ? [this.stream.thinkingEstimated(parsed.data.estimated_tokens)] : [unknown(message)];
      }
      case 'task_progress':
        return this.taskProgress(message);
      case 'task_started': {
        const started = this.background.taskStarted(message);
        return started === undefined ? [unknown(message)] : [...this.taskProgress(message, false), ...started];
      }
      case 'task_notification': {
        const notified = this.background.taskNotified(message);
        return notified === undefined ? [unknown(message)] : [...this.taskProgress(message, false), ...notified.events];
      }
      case 'task_updated':
        return this.background.taskUpdated(message) ?? [unknown(message)];
      case 'tasks_changed':
        return this.background.tasksChanged(message) ?? [unknown(message)];
      case 'goal':
        return this.background.activeGoal(message) ?? [unknown(message)];
      case 'compacted':
        this.afterBoundary = true;
        return this.background.compacted(message) ?? [unknown(message)];
      case 'hook':
        return this.background.hookRan(message) ?? [unknown(message)];
      case 'commands':
        return this.background.commandsChanged(message) ?? [unknown(message)];
      case 'local_output': {
        const content = (message as { content?: unknown }).content;
        if (typeof content !== 'string') return [unknown(message)];
        return [localOutput(content) ?? { kind: 'command.output', stream: 'stdout', text: content }];
      }
      case 'title': {
        const named = sessionTitleChangedSchema.safeParse(message);
        return named.success ? [{ kind: 'session.updated', title: named.data.title }] : [unknown(message)];
      }
      case 'ignore':
        return [];
      case 'unknown':
        return [unknown(message)];
      default:
        return assertNever(route);
    }
  }

  private assistant(message: AssistantMessage, raw: unknown): EventBody[] {
    const parentToolUseId = message.parent_tool_use_id ?? undefined;
    const events: EventBody[] = [];
    if (message.error !== undefined) this.assistantError = message.error;
    const blocks = message.message.content.map(this.ownJson ? checkOwnAssistantBlock : checkAssistantBlock);
    const texts = blocks.flatMap((block) => (block.success && block.data.type === 'text' ? [block.data.text] : []));
    const apiError = apiErrorOf(message, texts, parentToolUseId);
    if (apiError !== undefined) return [apiError];
    const commandReply = localCommandReply(message.message.model, texts, this.commandPrompt, parentToolUseId);
    if (commandReply !== undefined) return commandReply;
    // Subagents may run on another model; only the main loop's model is the session's.
    if (parentToolUseId === undefined) events.push(...this.modelReported(message.message.model));
    const common = {
      messageId: message.message.id,
      ...(message.uuid !== undefined ? { uuid: message.uuid } : {}),
      ...(parentToolUseId !== undefined ? { parentToolUseId } : {}),
      ...(message.aborted === true ? { stopped: true as const } : {}),
    };
    let unknownSeen = false;
    for (const block of blocks) {
      if (!block.success) {
        unknownSeen = true;
        continue;
      }
      const data = block.data;
      switch (data.type) {
        case 'text':
          events.push({ kind: 'message.completed', role: 'assistant', ...common, text: data.text });
          break;
        case 'thinking':
          events.push({ kind: 'message.completed', role: 'thinking', ...common, text: data.thinking });
          break;
        case 'tool_use':
          events.push(this.tools.started(data, parentToolUseId));
          break;
        default:
          assertNever(data);
      }
    }
    if (unknownSeen) events.push(unknown(raw));
    // Only a transcript's message holds the response's final counts (live, the SDK's copy has them as the stream
    // began; the turn's usage.updated counts them live). First, so a call's nested work still follows the call.
    const usage = this.transcript ? recordedUsage(message, parentToolUseId) : undefined;
    if (usage !== undefined) events.unshift(usage);
    return events;
  }

  private user(message: UserMessage, raw: unknown, afterBoundary: boolean): EventBody[] {
    if (message.uuid !== undefined && this.sentPrompts.has(message.uuid)) return [];
    // Claude Code's own notice that a background task ended: never shown as a person's words (the follow-up it
    // starts is Claude's continuation of the turn that launched the task).
    if (isTaskNotification(message)) return [];
    // A Stop hook's verdict (a goal's "not met yet") that Claude Code feeds the model as a user message: a hook
    // row, not a person's words.
    const feedback = stopHookFeedback(message);
    if (feedback !== undefined) return [{ kind: 'hook.ran', hookEvent: 'Stop', name: 'Stop hook', outcome: 'success', output: feedback }];
    const entry = this.cliEntry(message, afterBoundary);
    if (entry !== undefined) return entry;
    const prompt = this.transcript ? promptText(message) : undefined;
    if (prompt !== undefined) {
      this.deniedStop = false;
      const content = message.message.content;
      const images = typeof content === 'string' ? [] : (blockPrompt(content)?.images ?? []);
      return [{ kind: 'turn.started', prompt, ...(message.uuid !== undefined ? { uuid: message.uuid } : {}), ...(images.length > 0 ? { images } : {}) }];
    }
    const parentToolUseId = message.parent_tool_use_id ?? undefined;
    const content = message.message.content;
    const texts: string[] = [];
    const events: EventBody[] = [];
    let unknownSeen = false;
    if (typeof content === 'string') {
      texts.push(content);
    } else {
      const blocks = content.map(checkUserBlock);
      const resultCount = blocks.filter((b) => b.success && b.data.type === 'tool_result').length;
      for (const block of blocks) {
        if (!block.success) {
          unknownSeen = true;
          continue;
        }
        const data = block.data;
        switch (data.type) {
          case 'text':
            // After a plain deny's stop, Claude Code's "interrupted" mark is no cancel: the turn's end tells.
            if (!(this.deniedStop && isStopMark(data.text))) texts.push(data.text);
            break;
          case 'tool_result': {
            const refusal = refusalOf(raw, data.tool_use_id);
            if (refusal?.stops === true) this.deniedStop = true;
            events.push(...this.tools.finished(data, resultCount === 1 ? message.tool_use_result : undefined, refusal !== undefined));
            break;
          }
          default:
            assertNever(data);
        }
      }
    }
    if (texts.length > 0) {
      events.unshift({
        kind: 'message.completed',
        role: 'user',
        ...(message.uuid !== undefined ? { uuid: message.uuid } : {}),
        text: texts.join('\n'),
        ...(parentToolUseId !== undefined ? { parentToolUseId } : {}),
      });
    }
    if (unknownSeen) events.push(unknown(raw));
    return events;
  }

  /** The compaction summary, a local command or its output: Claude Code's entries, shown as what they are. */
  private cliEntry(message: UserMessage, afterBoundary: boolean): EventBody[] | undefined {
    const summary = compactSummary(message, afterBoundary);
    if (summary !== undefined) return [summary];
    const command = localCommand(message);
    if (command !== undefined) {
      this.deniedStop = false;
      return [command];
    }
    const content = message.message.content;
    if (typeof content !== 'string' && content.length !== 1) return undefined;
    const text = contentText(content);
    const output = localOutput(text);
    return output !== undefined ? [output] : bashOutput(text);
  }

  private status(message: unknown): EventBody[] {
    const status = systemStatusSchema.safeParse(message);
    if (!status.success) return [unknown(message)];
    const changed = status.data.permissionMode !== undefined ? this.modeReported(status.data.permissionMode) : [];
    // The activity of the moment (requesting, compacting) is a stream piece: shown live, never replayed.
    const activity = sessionActivity(status.data.status);
    if (activity === undefined) return [...changed, unknown(message)];
    return [...changed, { kind: 'session.updated', ephemeral: true, status: activity }];
  }

  private retry(message: unknown): EventBody[] {
    const retry = systemApiRetrySchema.safeParse(message);
    if (!retry.success) return [unknown(message)];
    // Shown while it lasts (a burst of overload retries must not fill the transcript with raw rows). Typed
    // fields, so no reader has to parse wording.
    const { attempt, max_retries, error_status } = retry.data;
    const httpStatus = error_status !== null && error_status !== undefined ? { httpStatus: error_status } : {};
    return [{ kind: 'session.updated', ephemeral: true, status: 'retrying', retry: { attempt, maxRetries: max_retries, ...httpStatus } }];
  }

  /** A task's progress on the tool call that runs it; `orUnknown: false` when a task event covers the message. */
  private taskProgress(message: unknown, orUnknown = true): EventBody[] {
    const progress = systemTaskProgressSchema.safeParse(message);
    if (!progress.success) return orUnknown ? [unknown(message)] : []; // a task without a tool call, among others
    const { tool_use_id, summary, description, status, usage } = progress.data;
    const text = [summary, description, status !== undefined ? `task ${status}` : undefined].find((t) => t !== undefined && t !== '');
    return [
      {
        kind: 'tool.updated',
        toolUseId: tool_use_id,
        ...(usage !== undefined ? { elapsedSeconds: usage.duration_ms / 1000 } : {}),
        ...(text !== undefined ? { summary: text } : {}),
      },
    ];
  }

  private modelReported(model: string): EventBody[] {
    if (model === SYNTHETIC_MODEL || model === '' || (model === this.model && !this.modelSwitched)) return [];
    this.model = model;
    this.modelSwitched = false;
    return [{ kind: 'model.resolved', model }];
  }

  private modeReported(mode: string): EventBody[] {
    const parsed = permissionModeSchema.safeParse(mode);
    if (!parsed.success || parsed.data === this.permissionMode) return [];
    this.permissionMode = parsed.data;
    return [{ kind: 'session.updated', permissionMode: parsed.data }];
  }
}

/**
 * api.error for the stub reply Claude Code makes up for an API error (live: `error` on a `<synthetic>` message; a
 * transcript marks it isApiErrorMessage), else undefined.
 */
function apiErrorOf(message: AssistantMessage, text: readonly string[], parentToolUseId: string | undefined): EventBody<'api.error'> | undefined {
  const synthetic = message.message.model === SYNTHETIC_MODEL;
  // 1.0.x may file a copy of the stub without the mark: the CLI's wording tells it.
  const worded = synthetic && API_ERROR_WORDING.test(text[0] ?? '');
  if (message.isApiErrorMessage !== true && !(message.error !== undefined && synthetic) && !worded) return undefined;
  const status = message.apiErrorStatus ?? statusInWording(text[0] ?? '');
  return {
    kind: 'api.error',
    error: message.error ?? 'unknown',
    ...(typeof status === 'number' ? { httpStatus: status } : {}),
    message: text.join('\n'),
    ...(parentToolUseId !== undefined ? { parentToolUseId } : {}),
  };
}

const API_ERROR_WORDING = /^API Error: (?:(\d{3})\b|[^\n(]*\((\d{3})\))?/;

/** The HTTP status in the CLI's wording ("API Error: 429 {…}", "API Error: Request rejected (429) · …"). */
function statusInWording(text: string): number | undefined {
  const match = API_ERROR_WORDING.exec(text);
  const status = match?.[1] ?? match?.[2];
  return status !== undefined ? Number(status) : undefined;
}

/** The text of a Stop hook's feedback message ("Stop hook feedback:\n[…]: …"), or undefined. */
function stopHookFeedback(message: UserMessage): string | undefined {
  const content = message.message.content;
  const text = typeof content === 'string' ? content : content.length === 1 ? (content[0] as { text?: unknown }).text : undefined;
  return typeof text === 'string' && text.startsWith('Stop hook feedback:') ? text : undefined;
}

/** The `timestamp` a transcript message carries, when it has a valid one. */
function writtenAt(message: unknown): string | undefined {
  return isRecord(message) ? checkTimestamp(message['timestamp']) : undefined;
}

/**
 * envelopeSchema's check, field by field: a loose parse copies every field of the message, on every message of a
 * 100 MB transcript.
 */
function envelopeOf(message: unknown): { type: string; subtype: string | undefined } | undefined {
  if (!isRecord(message)) return undefined;
  const { type, subtype } = message;
  if (typeof type !== 'string' || (subtype !== undefined && !envelopeSchema.shape.subtype.safeParse(subtype).success)) return undefined;
  return { type, subtype: subtype as string | undefined };
}

/** What a zod object accepts: an object, not null, not an array. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The SDK's status (null: nothing under way); a status this build does not know is not guessed at. */
function sessionActivity(status: string | null): SessionActivity | undefined {
  if (status === null) return 'idle';
  return status === 'requesting' || status === 'compacting' ? status : undefined;
}

function unknown(raw: unknown): EventBody<'unknown'> {
  return { kind: 'unknown', raw: toJsonValue(raw) };
}
