// Partial-message stream events → ephemeral message.delta and running usage.updated. The other stream pieces
// (block starts/stops, signature and tool-input deltas, message_stop) are bookkeeping whose content arrives
// again in the completed assistant message, so they produce no event of their own.
import type { EventBody } from '../protocol/events.js';
import { assertNever } from '../util/assertNever.js';
import type { StreamEventMessage } from './sdkSchemas.js';
import type { UsageMeter } from './usage.js';

const MAIN_LOOP = '';

export class StreamTracker {
  /** The API message id currently streaming, per thread (main loop or a subagent's tool_use id). */
  private current = new Map<string, string>();

  constructor(private readonly usage: UsageMeter) {}

  /** A new query: no message streams any more. */
  reset(): void {
    this.current.clear();
  }

  /**
   * Claude Code's estimate of the thinking block streaming now (system/thinking_tokens, a running total); it comes
   * just before the delta it counts, and names no message: it counts for the main loop's.
   */
  thinkingEstimated(estimatedTokens: number): EventBody<'usage.updated'> {
    return this.usage.thinkingEstimated(this.current.get(MAIN_LOOP) ?? '', estimatedTokens);
  }

  map(message: StreamEventMessage): EventBody[] {
    const thread = message.parent_tool_use_id ?? MAIN_LOOP;
    const mainLoop = thread === MAIN_LOOP;
    const event = message.event;
    switch (event.type) {
      case 'message_start':
        this.current.set(thread, event.message.id);
        this.usage.requestStarted(event.message.id, event.message.usage, mainLoop);
        return [];
      case 'content_block_delta': {
        const messageId = this.current.get(thread) ?? '';
        const delta = event.delta;
        switch (delta.type) {
          case 'text_delta':
            return [{ kind: 'message.delta', ephemeral: true, messageId, index: event.index, block: 'text', text: delta.text }];
          case 'thinking_delta':
            // Its count comes in Claude Code's system/thinking_tokens (thinkingEstimated), not from the text.
            if (delta.thinking === undefined || delta.thinking === '') return [];
            return [{ kind: 'message.delta', ephemeral: true, messageId, index: event.index, block: 'thinking', text: delta.thinking }];
          case 'signature_delta':
          case 'input_json_delta':
          case 'citations_delta':
            return [];
          default:
            return assertNever(delta);
        }
      }
      case 'message_delta': {
        const messageId = this.current.get(thread);
        this.current.delete(thread);
        return [this.usage.requestFinished(messageId, event.usage, mainLoop)];
      }
      case 'content_block_start':
        // Claude Code's thinking estimate runs per block: a new block starts its count again.
        if (mainLoop) this.usage.blockStarted(this.current.get(thread) ?? '');
        return [];
      case 'content_block_stop':
      case 'message_stop':
        return [];
      default:
        return assertNever(event);
    }
  }
}
