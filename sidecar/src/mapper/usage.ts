// Tokens written this turn. The SDK reports real output counts only when an API request finishes
// (message_delta usage), so thinking under way is estimated at chars/4 until its request's real count arrives.
import type { EventBody } from '../protocol/events.js';
import type { ApiUsage, ResultMessage } from './sdkSchemas.js';

const CHARS_PER_TOKEN = 4;

interface ContextSnapshot {
  input: number;
  cacheRead: number;
  cacheCreation: number;
  output: number;
}

export class UsageMeter {
  private finishedOutput = 0;
  /** Thinking characters streamed per API message still in flight. */
  private thinkingChars = new Map<string, number>();
  /** Size of the main loop's latest request: what the context holds now. */
  private context: ContextSnapshot | undefined;

  requestStarted(messageId: string, usage: ApiUsage | undefined, mainLoop: boolean): void {
    this.thinkingChars.set(messageId, 0);
    if (mainLoop && usage !== undefined) {
      this.context = {
        input: usage.input_tokens ?? 0,
        cacheRead: usage.cache_read_input_tokens ?? 0,
        cacheCreation: usage.cache_creation_input_tokens ?? 0,
        output: 0,
      };
    }
  }

  thinkingStreamed(messageId: string, chars: number): EventBody<'usage.updated'> {
    this.thinkingChars.set(messageId, (this.thinkingChars.get(messageId) ?? 0) + chars);
    return this.running();
  }

  /** A request finished: its real output count replaces the estimate. */
  requestFinished(messageId: string | undefined, usage: ApiUsage | undefined, mainLoop: boolean): EventBody<'usage.updated'> {
    const output = usage?.output_tokens ?? 0;
    this.finishedOutput += output;
    if (messageId !== undefined) this.thinkingChars.delete(messageId);
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
      ...(context !== undefined
        ? { contextTokens: context.input + context.cacheRead + context.cacheCreation + context.output }
        : {}),
    };
    this.finishedOutput = 0;
    this.thinkingChars.clear();
    return body;
  }

  /** A new query: what the old one had under way is gone. */
  reset(): void {
    this.finishedOutput = 0;
    this.thinkingChars.clear();
  }

  running(): EventBody<'usage.updated'> {
    return { kind: 'usage.updated', ephemeral: true, turnOutputTokens: this.turnOutputTokens() };
  }

  private turnOutputTokens(): number {
    let estimate = 0;
    for (const chars of this.thinkingChars.values()) estimate += Math.ceil(chars / CHARS_PER_TOKEN);
    return this.finishedOutput + estimate;
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
