// Tokens written this turn. The SDK reports real output counts only when an API request finishes
// (message_delta usage), so thinking under way counts as Claude Code estimates it (system/thinking_tokens: the
// API's own estimated_tokens, which also covers thinking it does not show) until its request's real count arrives.
import type { EventBody } from '../protocol/events.js';
import { readApiUsage } from './fastParse.js';
import type { ApiUsage, AssistantMessage, ResultMessage } from './sdkSchemas.js';

interface ContextSnapshot {
  input: number;
  cacheRead: number;
  cacheCreation: number;
  output: number;
}

export class UsageMeter {
  private finishedOutput = 0;
  /** Estimated thinking per API message still in flight: its finished blocks, and the block under way. */
  private thinking = new Map<string, { done: number; current: number }>();
  /** Size of the main loop's latest request: what the context holds now. */
  private context: ContextSnapshot | undefined;

  requestStarted(messageId: string, usage: ApiUsage | undefined, mainLoop: boolean): void {
    this.thinking.set(messageId, { done: 0, current: 0 });
    if (mainLoop && usage !== undefined) {
      this.context = {
        input: usage.input_tokens ?? 0,
        cacheRead: usage.cache_read_input_tokens ?? 0,
        cacheCreation: usage.cache_creation_input_tokens ?? 0,
        output: 0,
      };
    }
  }

  /** A content block starts: the estimate of the one before it is final. */
  blockStarted(messageId: string): void {
    const entry = this.thinking.get(messageId);
    if (entry === undefined) return;
    entry.done += entry.current;
    entry.current = 0;
  }

  /** Claude Code's running estimate of the thinking block under way. */
  thinkingEstimated(messageId: string, estimatedTokens: number): EventBody<'usage.updated'> {
    const entry = this.thinking.get(messageId) ?? { done: 0, current: 0 };
    entry.current = estimatedTokens;
    this.thinking.set(messageId, entry);
    return this.running();
  }

  /** A request finished: its real output count replaces the estimate. */
  requestFinished(messageId: string | undefined, usage: ApiUsage | undefined, mainLoop: boolean): EventBody<'usage.updated'> {
    const output = usage?.output_tokens ?? 0;
    this.finishedOutput += output;
    if (messageId !== undefined) this.thinking.delete(messageId);
    if (mainLoop && this.context !== undefined) this.context.output = output;
    return this.running();
  }

  /** The turn's final, non-ephemeral count; resets the meter for the next turn. */
  turnFinished(result: ResultMessage, model: string | undefined): EventBody<'usage.updated'> {
    const contextWindow = pickContextWindow(result, model);
    const context = this.context;
    const body: EventBody<'usage.updated'> = {
      kind: 'usage.updated',
      turnOutputTokens: this.turnOutputTokens(),
      ...optional('inputTokens', result.usage.input_tokens),
      ...optional('outputTokens', result.usage.output_tokens),
      ...optional('cacheReadTokens', result.usage.cache_read_input_tokens),
      ...optional('cacheCreationTokens', result.usage.cache_creation_input_tokens),
      ...optional('contextWindow', contextWindow),
      ...(context !== undefined ? { contextTokens: context.input + context.cacheRead + context.cacheCreation + context.output } : {}),
    };
    this.finishedOutput = 0;
    this.thinking.clear();
    return body;
  }

  /** A new query: what the old one had under way is gone. */
  reset(): void {
    this.finishedOutput = 0;
    this.thinking.clear();
  }

  running(): EventBody<'usage.updated'> {
    const thinking = this.thinkingEstimate();
    return {
      kind: 'usage.updated',
      ephemeral: true,
      turnOutputTokens: this.finishedOutput + thinking,
      ...(thinking > 0 ? { thinkingTokens: thinking } : {}),
    };
  }

  private turnOutputTokens(): number {
    return this.finishedOutput + this.thinkingEstimate();
  }

  private thinkingEstimate(): number {
    let estimate = 0;
    for (const { done, current } of this.thinking.values()) estimate += done + current;
    return estimate;
  }
}

function pickContextWindow(result: ResultMessage, model: string | undefined): number | undefined {
  const byModel = model !== undefined ? result.modelUsage[model] : undefined;
  if (byModel?.contextWindow !== undefined) return byModel.contextWindow;
  for (const usage of Object.values(result.modelUsage)) if (usage.contextWindow !== undefined) return usage.contextWindow;
  return undefined;
}

function optional<K extends string>(key: K, value: number | null | undefined): { [P in K]?: number } {
  return value === null || value === undefined ? {} : ({ [key]: value } as { [P in K]: number });
}

/**
 * The tokens an API response cost, from the usage Claude Code keeps on its message (live and in the transcript
 * alike). A response stored as several messages (one per content block) repeats its id: totals count it once.
 */
export function recordedUsage(message: AssistantMessage, parentToolUseId: string | undefined): EventBody<'usage.recorded'> | undefined {
  const usage = readApiUsage((message.message as { usage?: unknown }).usage);
  if (usage === undefined) return undefined;
  return {
    kind: 'usage.recorded',
    messageId: message.message.id,
    model: message.message.model,
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    cacheCreationTokens: usage.cache_creation_input_tokens ?? 0,
    ...(parentToolUseId !== undefined ? { parentToolUseId } : {}),
  };
}
