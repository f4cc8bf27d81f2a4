// Tool calls: tool_use blocks start them, tool_result blocks end them. Remembers each call's name and input
// (results carry only the id) and which paths the session already changed, for fileBefore.
import type { EventBody, FileBefore } from '../protocol/events.js';
import { interruptedCause } from './interruptedTool.js';
import type { PlanTracker } from './plan.js';
import { readFileChange } from './fastParse.js';
import type { ToolResultBlock, ToolUseBlock } from './sdkSchemas.js';
import { type JsonValue, toJsonValue } from '../util/json.js';
import { imagesOf } from './userEntries.js';
import { changesFiles, describeTool, isPlanToolName, toolKindOf } from '../tools/catalogue.js';
import { visibleAgentOutput } from './agentResult.js';

interface ToolCall {
  name: string;
  input: unknown;
}

export class ToolTracker {
  private calls = new Map<string, ToolCall>();
  private changedPaths = new Set<string>();

  /** `ownJson`: results are fresh JSON no one else holds (MapperOptions.ownJson), kept as they are. */
  constructor(
    private readonly plan: PlanTracker,
    private readonly ownJson = false,
  ) {}

  /** The paths already changed (their text-before was sent): a resumed transcript job continues from them. */
  get changed(): string[] {
    return [...this.changedPaths];
  }

  restoreChanged(paths: readonly string[]): void {
    this.changedPaths = new Set(paths);
  }

  started(block: ToolUseBlock, parentToolUseId: string | undefined): EventBody<'tool.started'> {
    this.calls.set(block.id, { name: block.name, input: block.input });
    return {
      kind: 'tool.started',
      toolUseId: block.id,
      name: block.name,
      input: block.input,
      ...describeTool(block.name, block.input),
      ...(parentToolUseId !== undefined ? { parentToolUseId } : {}),
    };
  }

  /**
   * Maps one tool_result. `structured` is the message's tool_use_result, present live (not in transcripts)
   * and only meaningful when the message holds this single result. `denied`: the permission gate refused it.
   */
  finished(block: ToolResultBlock, structured: unknown, denied = false): EventBody[] {
    const call = this.calls.get(block.tool_use_id);
    const name = call?.name ?? '';
    const flat = flattenContent(block.content);
    const output = toolKindOf(name) === 'agent' ? visibleAgentOutput(flat) : flat;
    if (block.is_error === true) {
      // Claude Code's own correction ("stopped while running, not refused") outranks the refusal mark it also files.
      const cause = interruptedCause(output);
      if (cause !== undefined) return [{ kind: 'tool.interrupted', toolUseId: block.tool_use_id, name, cause }];
      return [{ kind: 'tool.failed', toolUseId: block.tool_use_id, name, error: output, ...(denied ? { denied: true as const } : {}) }];
    }
    const fileBefore = this.fileBefore(name, structured);
    const images = Array.isArray(block.content) ? imagesOf(block.content) : [];
    const events: EventBody[] = [
      {
        kind: 'tool.completed',
        toolUseId: block.tool_use_id,
        name,
        output,
        ...(structured !== undefined ? { structured: this.ownJson ? (structured as JsonValue) : toJsonValue(structured) } : {}),
        ...(fileBefore !== undefined ? { fileBefore } : {}),
        ...(images.length > 0 ? { images } : {}),
      },
    ];
    if (call !== undefined && isPlanToolName(name)) {
      const items = this.plan.apply(name, call.input, structured, output);
      if (items !== undefined) events.push({ kind: 'plan.updated', items });
    }
    return events;
  }

  private fileBefore(name: string, structured: unknown): FileBefore | undefined {
    if (!changesFiles(name)) return undefined;
    const change = readFileChange(structured);
    if (change === undefined || this.changedPaths.has(change.filePath)) return undefined;
    this.changedPaths.add(change.filePath);
    return { path: change.filePath, text: change.originalFile };
  }
}

/** tool_result content as text: a string as is, text blocks joined, other blocks named. */
export function flattenContent(content: ToolResultBlock['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  // Images travel beside the text (tool.completed.images), so they are not named in it.
  return content
    .flatMap((part) => (part.type === 'image' ? [] : [part.type === 'text' && typeof part['text'] === 'string' ? part['text'] : `[${part.type}]`]))
    .join('\n');
}
