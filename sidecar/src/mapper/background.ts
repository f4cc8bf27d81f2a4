// Background work and the other session-level signals Claude Code sends beside the conversation: the live task
// set (a level signal: each payload replaces the last), the task edges (started, updated, notification), goals
// (`active_goal`), compaction, command hooks and command-list pushes. Pure per-session state, no I/O.
import type { BackgroundTask, EventBody, GoalState } from '../protocol/events.js';
import {
  activeGoalSchema,
  backgroundTasksChangedSchema,
  commandsChangedSchema,
  compactBoundarySchema,
  hookResponseSchema,
  taskNotificationSchema,
  taskStartedSchema,
  taskUpdatedSchema,
} from './sdkSchemas.js';

/** One goal_status attachment of a transcript (read by history/goalStatus.ts), in transcript order. */
export interface GoalObservation {
  uuid: string;
  timestamp: string;
  condition: string;
  met: boolean;
  /** Written when the goal was set, before any evaluation. */
  sentinel?: boolean;
  /** The evaluator found the condition impossible: the goal ended without being met. */
  failed?: boolean;
  reason?: string;
  iterations?: number;
}

/** What a task edge means for the session beside its events (the session decides continuations from it). */
export interface TaskSignal {
  /** A task_notification settled a task: Claude Code will send a follow-up turn about it. */
  notified?: boolean;
}

export class BackgroundTracker {
  /** The run each task is on: a frame naming an earlier run (plain string order, per the SDK) is late. */
  private readonly runs = new Map<string, string>();
  /** Tasks that reached a terminal state: they never go back to running, and settle (task.completed) once. */
  private readonly terminal = new Set<string>();
  private readonly settled = new Set<string>();
  private live: BackgroundTask[] = [];
  /** The tool call that launched each task (from task_started): the level signal does not name it. */
  private readonly toolUses = new Map<string, string>();
  private goal: GoalState | undefined;
  /** The last `/goal …` command sent: a null active_goal after `/goal clear` is a clear, otherwise a completion. */
  private goalCommand: 'set' | 'clear' | undefined;

  /** The non-ambient live tasks: what counts as "working in the background". */
  get active(): readonly BackgroundTask[] {
    return this.live.filter((t) => t.ambient !== true);
  }

  /** The claude process (re)started: it sends nothing at start, so the live set is empty until it says. */
  processRestarted(): EventBody[] {
    if (this.live.length === 0) return [];
    this.live = [];
    return [{ kind: 'tasks.updated', tasks: [] }];
  }

  /** A prompt was sent: remembered when it is a goal command, to read the next null active_goal. */
  notePrompt(prompt: string): void {
    const match = /^\/goal(?:\s+(.*))?$/s.exec(prompt.trim());
    if (match === null) return;
    this.goalCommand = match[1]?.trim().toLowerCase() === 'clear' ? 'clear' : 'set';
  }

  tasksChanged(message: unknown): EventBody[] | undefined {
    const parsed = backgroundTasksChangedSchema.safeParse(message);
    if (!parsed.success) return undefined;
    this.live = parsed.data.tasks.map((t) => ({
      taskId: t.task_id,
      ...(t.run_id !== undefined ? { runId: t.run_id } : {}),
      taskType: t.task_type,
      description: t.description,
      ...(this.toolUses.has(t.task_id) ? { toolUseId: this.toolUses.get(t.task_id) } : {}),
      ...(t.parent_task_id !== undefined ? { parentTaskId: t.parent_task_id } : {}),
      ...(t.ambient === true ? { ambient: true } : {}),
    }));
    return [{ kind: 'tasks.updated', tasks: this.live }];
  }

  taskStarted(message: unknown): EventBody[] | undefined {
    const parsed = taskStartedSchema.safeParse(message);
    if (!parsed.success) return undefined;
    const t = parsed.data;
    if (this.isLate(t.task_id, t.run_id)) return [];
    if (t.run_id !== undefined && this.runs.get(t.task_id) !== t.run_id) {
      // A new run of a known task (a resumed subagent) starts afresh.
      this.terminal.delete(t.task_id);
      this.settled.delete(t.task_id);
    }
    this.noteRun(t.task_id, t.run_id);
    // The level often comes first: the live entry learns the tool call that launched it now.
    const level: EventBody[] = [];
    if (t.tool_use_id !== undefined) {
      this.toolUses.set(t.task_id, t.tool_use_id);
      const live = this.live.find((l) => l.taskId === t.task_id && l.toolUseId === undefined);
      if (live !== undefined) {
        live.toolUseId = t.tool_use_id;
        level.push({ kind: 'tasks.updated', tasks: [...this.live] });
      }
    }
    return [
      ...level,
      {
        kind: 'task.started',
        taskId: t.task_id,
        ...(t.run_id !== undefined ? { runId: t.run_id } : {}),
        ...(t.tool_use_id !== undefined ? { toolUseId: t.tool_use_id } : {}),
        taskType: t.task_type ?? t.subagent_type ?? 'task',
        description: t.description,
        backgrounded: t.is_backgrounded === true,
      },
    ];
  }

  taskUpdated(message: unknown): EventBody[] | undefined {
    const parsed = taskUpdatedSchema.safeParse(message);
    if (!parsed.success) return undefined;
    const { task_id, run_id, patch } = parsed.data;
    if (this.isLate(task_id, run_id)) return [];
    this.noteRun(task_id, run_id);
    const state = patch.status === 'killed' ? 'stopped' : patch.status;
    const ends = state === 'completed' || state === 'failed' || state === 'stopped';
    // A terminal task never goes back to running; a later non-terminal patch is stale.
    if (this.terminal.has(task_id) && !ends) return [];
    if (ends) this.terminal.add(task_id);
    if (state === undefined && patch.is_backgrounded === undefined) return [];
    return [
      {
        kind: 'task.updated',
        taskId: task_id,
        ...(state !== undefined ? { taskState: state } : {}),
        ...(patch.is_backgrounded !== undefined ? { backgrounded: patch.is_backgrounded } : {}),
      },
    ];
  }

  taskNotified(message: unknown): { events: EventBody[]; signal: TaskSignal } | undefined {
    const parsed = taskNotificationSchema.safeParse(message);
    if (!parsed.success) return undefined;
    const t = parsed.data;
    if (this.isLate(t.task_id, t.run_id)) return { events: [], signal: {} };
    this.noteRun(t.task_id, t.run_id);
    this.terminal.add(t.task_id);
    // Reported twice (task_updated, then this) or repeated: it settles once; the follow-up is still due.
    if (this.settled.has(t.task_id)) return { events: [], signal: { notified: t.ambient !== true } };
    this.settled.add(t.task_id);
    return {
      events: [
        {
          kind: 'task.completed',
          taskId: t.task_id,
          taskEnd: t.status,
          ...(t.summary !== undefined && t.summary !== '' ? { summary: t.summary } : {}),
          ...(t.output_file !== undefined && t.output_file !== '' ? { outputFile: t.output_file } : {}),
        },
      ],
      signal: { notified: t.ambient !== true },
    };
  }

  /** The SDK's `active_goal`: a value keeps the goal active; null is a clear or a completion (see goalCommand). */
  activeGoal(message: unknown): EventBody[] | undefined {
    const parsed = activeGoalSchema.safeParse(message);
    if (!parsed.success) return undefined;
    const value = parsed.data.value;
    if (value !== null) {
      this.goal = {
        condition: value.condition,
        met: false,
        iterations: value.iterations,
        ...(value.last_reason !== undefined ? { lastReason: value.last_reason } : {}),
      };
      return [{ kind: 'goal.updated', goal: this.goal }];
    }
    const previous = this.goal;
    this.goal = undefined;
    const cleared = this.goalCommand === 'clear';
    this.goalCommand = undefined;
    if (previous === undefined || cleared) return [{ kind: 'goal.updated' }];
    // No clear was asked for: the goal's stop hook found the condition met.
    return [{ kind: 'goal.updated', goal: { ...previous, met: true } }];
  }

  /** A `goal_status` attachment from the transcript (history/goalStatus.ts): set, not met yet, met or failed. */
  goalStatus(status: GoalObservation): EventBody[] {
    if (status.failed === true) {
      this.goal = undefined;
      return [{ kind: 'goal.updated' }];
    }
    const iterations = status.sentinel === true ? 0 : (status.iterations ?? (this.goal?.iterations ?? 0) + 1);
    const goal: GoalState = {
      condition: status.condition,
      met: status.met,
      iterations,
      ...(status.reason !== undefined && status.sentinel !== true ? { lastReason: status.reason } : {}),
    };
    this.goal = status.met ? undefined : goal;
    return [{ kind: 'goal.updated', goal }];
  }

  /** A goal command's turn ended: a `/goal clear` took the goal (if one was active) away. */
  goalCleared(): EventBody[] {
    const command = this.goalCommand;
    this.goalCommand = undefined;
    if (command !== 'clear' || this.goal === undefined) return [];
    this.goal = undefined;
    return [{ kind: 'goal.updated' }];
  }

  /** Whether a goal command was sent or a goal is active: only then is the transcript worth reading for it. */
  get goalInPlay(): boolean {
    return this.goal !== undefined || this.goalCommand !== undefined;
  }

  /** A goal is active and not met yet (its final status may still be on its way). */
  get goalActive(): boolean {
    return this.goal !== undefined && !this.goal.met;
  }

  compacted(message: unknown): EventBody[] | undefined {
    const parsed = compactBoundarySchema.safeParse(message);
    if (!parsed.success) return undefined;
    const { trigger, pre_tokens } = parsed.data.compact_metadata;
    return [{ kind: 'session.compacted', trigger, preTokens: pre_tokens }];
  }

  hookRan(message: unknown): EventBody[] | undefined {
    const parsed = hookResponseSchema.safeParse(message);
    if (!parsed.success) return undefined;
    const h = parsed.data;
    const output = [h.output, h.stdout, h.stderr].find((t) => t !== undefined && t.trim() !== '');
    return [
      {
        kind: 'hook.ran',
        hookEvent: h.hook_event,
        name: h.hook_name,
        outcome: h.outcome,
        ...(output !== undefined ? { output } : {}),
      },
    ];
  }

  commandsChanged(message: unknown): EventBody[] | undefined {
    const parsed = commandsChangedSchema.safeParse(message);
    if (!parsed.success) return undefined;
    return [
      {
        kind: 'commands.updated',
        commands: parsed.data.commands.map((c) => ({
          name: c.name,
          description: c.description,
          ...(c.argumentHint !== undefined && c.argumentHint !== '' ? { argumentHint: c.argumentHint } : {}),
        })),
      },
    ];
  }

  private isLate(taskId: string, runId: string | undefined): boolean {
    const known = this.runs.get(taskId);
    return runId !== undefined && known !== undefined && runId < known;
  }

  private noteRun(taskId: string, runId: string | undefined): void {
    if (runId !== undefined) this.runs.set(taskId, runId);
  }
}
