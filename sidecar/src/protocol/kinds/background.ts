// Background work: the live set of tasks (a level signal) and each task's edges.
// Each kind: its strict schema, its place in the area's list, and its metadata (PROTOCOL.md, "Adding a kind").
import { z } from 'zod';
import { backgroundTask, base, taskEndSchema, taskStateSchema } from './common.js';
import { type MetaTable, S, small } from './meta.js';

export const tasksUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('tasks.updated'),
  /** Every live task; each payload replaces the last. */
  tasks: z.array(backgroundTask),
});
export const taskStartedEvent = z.strictObject({
  ...base,
  kind: z.literal('task.started'),
  taskId: z.string().min(1),
  runId: z.string().optional(),
  toolUseId: z.string().optional(),
  taskType: z.string(),
  description: z.string(),
  backgrounded: z.boolean(),
});
export const taskUpdatedEvent = z.strictObject({
  ...base,
  kind: z.literal('task.updated'),
  taskId: z.string().min(1),
  taskState: taskStateSchema.optional(),
  backgrounded: z.boolean().optional(),
});
export const taskCompletedEvent = z.strictObject({
  ...base,
  kind: z.literal('task.completed'),
  taskId: z.string().min(1),
  taskEnd: taskEndSchema,
  summary: z.string().optional(),
  outputFile: z.string().optional(),
});

/** The end of a live background command's output, read from the file Claude Code writes it to (no SDK message carries it). */
export const taskOutputEvent = z.strictObject({
  ...base,
  /** Live only, never logged: each tail replaces the last, and the log would otherwise keep every one. */
  ephemeral: z.literal(true),
  kind: z.literal('task.output'),
  taskId: z.string().min(1),
  toolUseId: z.string().optional(),
  /** The last lines (at most TAIL_LINES, TAIL_BYTES): each payload replaces the last. */
  tail: z.string(),
});

export const BACKGROUND_EVENTS = [tasksUpdatedEvent, taskStartedEvent, taskUpdatedEvent, taskCompletedEvent, taskOutputEvent] as const;

export const BACKGROUND_META = {
  'tasks.updated': {
    description: 'Every live background task (the level signal): each payload replaces the last.',
    example: {
      kind: 'tasks.updated',
      session: S,
      turn: 't5',
      time: '2026-11-30T12:00:04.000Z',
      tasks: [
        { taskId: 'b1', runId: 'r1', taskType: 'local_bash', description: 'sleep 2; echo done', toolUseId: 'toolu_05' },
        { taskId: 'w1', taskType: 'monitor', description: 'watch files', ambient: true, parentTaskId: 'a1' },
      ],
    },
    size: small('task descriptions'),
    terminal: { quiet: 'the task edges say it' },
  },
  'task.started': {
    description: 'A task began, in the background or blocking its tool call.',
    example: {
      kind: 'task.started',
      session: S,
      turn: 't5',
      time: '2026-11-30T12:00:04.100Z',
      taskId: 'b1',
      runId: 'r1',
      toolUseId: 'toolu_05',
      taskType: 'local_bash',
      description: 'sleep 2; echo done',
      backgrounded: true,
    },
    size: small('a task description'),
    terminal: {
      lines: [
        { when: 'backgrounded', text: '  ◆ {description|line=120} started in the background' },
        { when: '!backgrounded', text: '  ◆ {description|line=120} started in the foreground' },
      ],
    },
  },
  'task.updated': {
    description: "A task's state changed, or it moved to the background.",
    example: { kind: 'task.updated', session: S, turn: 't5', time: '2026-11-30T12:00:04.200Z', taskId: 'b1', taskState: 'running', backgrounded: true },
    size: small('a state'),
    terminal: { lines: [{ when: 'backgrounded && !taskState', text: '  ◆ moved to the background' }] },
  },
  'task.completed': {
    description: 'A task run ended (completed, failed, stopped), with its summary.',
    example: {
      kind: 'task.completed',
      session: S,
      turn: 't5',
      time: '2026-11-30T12:00:06.000Z',
      taskId: 'b1',
      taskEnd: 'completed',
      summary: 'Background command "sleep 2; echo done" completed (exit code 0)',
      outputFile: '/tmp/tasks/b1.output',
    },
    size: { truncate: ['summary'] },
    terminal: { lines: [{ text: '  ◆ background task {taskEnd}{summary|line=160|lead=: }' }] },
  },
  'task.output': {
    description: "The end of a live background command's output (its last lines; ephemeral); each payload replaces the last.",
    example: {
      kind: 'task.output',
      session: S,
      turn: 't5',
      time: '2026-11-30T12:00:05.000Z',
      ephemeral: true,
      taskId: 'b1',
      toolUseId: 'toolu_05',
      tail: 'step 1\nstep 2\n',
    },
    size: { truncate: ['tail'] },
    terminal: { quiet: 'the command prints its output when it ends' },
  },
} as const satisfies MetaTable<z.infer<(typeof BACKGROUND_EVENTS)[number]>>;
