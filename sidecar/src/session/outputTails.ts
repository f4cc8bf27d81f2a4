// The live tail of each background command's output. No SDK message carries it (task_progress is for agents
// only): Claude Code writes the output to a file its Bash result names, so while the task lives we read that
// file's end on a modest beat and send task.output when it changed. Bounded: the last TAIL_BYTES, TAIL_LINES.
import { open } from 'node:fs/promises';
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { EventBody } from '../protocol/events.js';

export const TAIL_BYTES = 4096;
export const TAIL_LINES = 40;
export const TAIL_BEAT_MS = 1000;

/** The Bash result's own words: "Output is being written to: <path>. You will be notified …". */
const OUTPUT_FILE = /Output is being written to: (\S+?)\.?(?:\s|$)/;

interface Watched {
  path: string;
  toolUseId: string;
  turn: string | undefined;
  last: string;
}

export interface TailSink {
  emit(body: EventBody, turn: string | undefined): void;
}

export class OutputTails {
  private readonly watched = new Map<string, Watched>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private reading = false;

  constructor(
    private readonly sink: TailSink,
    private readonly beatMs: number = TAIL_BEAT_MS,
  ) {}

  /** Reads what a message says about background commands: a launch starts a watch, an end stops it. */
  observe(message: SDKMessage, turn: string | undefined): void {
    const launched = backgroundLaunch(message);
    if (launched !== undefined) {
      this.watched.set(launched.taskId, { path: launched.path, toolUseId: launched.toolUseId, turn, last: '' });
      this.arm();
      return;
    }
    const ended = endedTask(message);
    if (ended !== undefined && this.watched.has(ended)) void this.finish(ended);
  }

  /** Reads every watched file once now (the beat's work; tests call it to step without waiting). */
  async beat(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      for (const [taskId, w] of [...this.watched]) await this.readOne(taskId, w);
    } finally {
      this.reading = false;
    }
  }

  get watching(): number {
    return this.watched.size;
  }

  close(): void {
    this.watched.clear();
    this.disarm();
  }

  /** The task ended: its last output goes out once more, then the watch stops. */
  private async finish(taskId: string): Promise<void> {
    const w = this.watched.get(taskId);
    if (w === undefined) return;
    this.watched.delete(taskId);
    if (this.watched.size === 0) this.disarm();
    await this.readOne(taskId, w);
  }

  private async readOne(taskId: string, w: Watched): Promise<void> {
    const tail = await readTail(w.path);
    if (tail === undefined || tail === w.last) return;
    w.last = tail;
    this.sink.emit({ kind: 'task.output', ephemeral: true, taskId, toolUseId: w.toolUseId, tail }, w.turn);
  }

  private arm(): void {
    if (this.timer !== undefined || this.beatMs <= 0) return;
    this.timer = setInterval(() => void this.beat(), this.beatMs);
    this.timer.unref?.();
  }

  private disarm(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The end of a file: at most TAIL_BYTES, cut to whole lines, at most TAIL_LINES; undefined when unreadable. */
export async function readTail(path: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    let text = buffer.subarray(0, bytesRead).toString('utf8');
    // A cut mid-file starts mid-line (maybe mid-character): drop that first partial line.
    if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    const lines = text.split('\n');
    const keep = text.endsWith('\n') ? TAIL_LINES + 1 : TAIL_LINES;
    return lines.length > keep ? lines.slice(-keep).join('\n') : text;
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

interface Launch {
  taskId: string;
  toolUseId: string;
  path: string;
}

/** A Bash result that says its command runs in the background, naming its task and output file. */
function backgroundLaunch(message: SDKMessage): Launch | undefined {
  if (message.type !== 'user') return undefined;
  const result = (message as { tool_use_result?: unknown }).tool_use_result;
  if (typeof result !== 'object' || result === null) return undefined;
  const taskId = (result as { backgroundTaskId?: unknown }).backgroundTaskId;
  if (typeof taskId !== 'string' || taskId === '') return undefined;
  const content = message.message.content;
  if (!Array.isArray(content)) return undefined;
  for (const block of content) {
    if (typeof block !== 'object' || block === null || block.type !== 'tool_result') continue;
    const text = typeof block.content === 'string' ? block.content : '';
    const path = OUTPUT_FILE.exec(text)?.[1];
    if (path !== undefined) return { taskId, toolUseId: block.tool_use_id, path };
  }
  return undefined;
}

/** The task a message says ended: a terminal task_updated, or its notification. */
function endedTask(message: SDKMessage): string | undefined {
  if (message.type !== 'system') return undefined;
  if (message.subtype === 'task_notification') return message.task_id;
  if (message.subtype === 'task_updated') {
    const status = message.patch.status;
    if (status === 'completed' || status === 'failed' || status === 'killed') return message.task_id;
  }
  return undefined;
}
