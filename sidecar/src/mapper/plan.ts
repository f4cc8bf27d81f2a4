// The session's checklist, which no single SDK message carries whole: TodoWrite replaces it, TaskCreate and
// TaskUpdate patch it. Changes apply when the tool succeeded (its tool_result), so a denied or failed call
// leaves the list as it was.
import type { PlanItem } from '../protocol/events.js';
import { assertNever } from '../util/assertNever.js';
import { taskCreateInputSchema, taskCreateResultSchema, taskUpdateInputSchema, todoWriteInputSchema } from './sdkSchemas.js';
import { TOOL, type PlanToolName as PlanTool } from '../tools/catalogue.js';

// TaskCreate's tool_result text names the new id ("Task #3 created successfully: …"); the structured result
// carries it too, but transcripts (history) keep only the text.
const CREATED_ID = /Task #([\w-]+)/;

export class PlanTracker {
  private items: PlanItem[] = [];

  /** The checklist as it stands (a resumed transcript job continues from it). */
  get current(): PlanItem[] {
    return this.items.map((item) => ({ ...item }));
  }

  restore(items: readonly PlanItem[]): void {
    this.items = items.map((item) => ({ ...item }));
  }

  /** Applies a successful plan tool call; returns the whole new list, or undefined when nothing changed. */
  apply(tool: PlanTool, input: unknown, structured: unknown, output: string): PlanItem[] | undefined {
    const changed = this.applyOne(tool, input, structured, output);
    return changed ? this.items.map((item) => ({ ...item })) : undefined;
  }

  private applyOne(tool: PlanTool, input: unknown, structured: unknown, output: string): boolean {
    switch (tool) {
      case TOOL.todoWrite:
        return this.todoWrite(input);
      case TOOL.taskCreate:
        return this.taskCreate(input, structured, output);
      case TOOL.taskUpdate:
        return this.taskUpdate(input);
      default:
        return assertNever(tool);
    }
  }

  private todoWrite(input: unknown): boolean {
    const parsed = todoWriteInputSchema.safeParse(input);
    if (!parsed.success) return false;
    this.items = parsed.data.todos.map((todo, index) => ({
      id: String(index + 1),
      content: todo.content,
      status: todo.status,
      ...(todo.activeForm !== undefined ? { activeForm: todo.activeForm } : {}),
    }));
    return true;
  }

  private taskCreate(input: unknown, structured: unknown, output: string): boolean {
    const parsed = taskCreateInputSchema.safeParse(input);
    if (!parsed.success) return false;
    const fromResult = taskCreateResultSchema.safeParse(structured);
    const id = fromResult.success ? fromResult.data.task.id : CREATED_ID.exec(output)?.[1];
    if (id === undefined) return false;
    const item: PlanItem = {
      id,
      content: parsed.data.subject,
      status: 'pending',
      ...(parsed.data.activeForm !== undefined ? { activeForm: parsed.data.activeForm } : {}),
    };
    const at = this.items.findIndex((existing) => existing.id === id);
    if (at === -1) this.items.push(item);
    else this.items[at] = item;
    return true;
  }

  private taskUpdate(input: unknown): boolean {
    const parsed = taskUpdateInputSchema.safeParse(input);
    if (!parsed.success) return false;
    const { taskId, status, subject, activeForm } = parsed.data;
    const at = this.items.findIndex((item) => item.id === taskId);
    if (at === -1) return false;
    if (status === 'deleted') {
      this.items.splice(at, 1);
      return true;
    }
    const current = this.items[at]!;
    this.items[at] = {
      ...current,
      ...(status !== undefined ? { status } : {}),
      ...(subject !== undefined ? { content: subject } : {}),
      ...(activeForm !== undefined ? { activeForm } : {}),
    };
    return true;
  }
}
