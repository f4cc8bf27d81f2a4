// A turn's `result` → turn.completed / turn.failed / turn.canceled. The subtype alone is not enough:
// API errors arrive as subtype "success" with is_error true, and interrupts as error_during_execution with an
// aborted_* terminal reason.
import type { EventBody, TurnFailureCode } from '../protocol/events.js';
import type { ResultMessage } from './sdkSchemas.js';

type TurnEnd = EventBody<'turn.completed'> | EventBody<'turn.failed'> | EventBody<'turn.canceled'>;

export interface ResultContext {
  /** The run's cost before this turn: result costs are cumulative over the query() call. */
  costBefore: number;
  /** The last assistant error the SDK reported in this turn ("authentication_failed", …). */
  assistantError: string | undefined;
  /** A plain deny stopped Claude in this turn (mapper/denials.ts). */
  deniedStop?: boolean;
}

/** The stop reason of a turn a plain deny ended: Claude stopped to wait for the person, as asked. */
export const DENIED_STOP_REASON = 'tool_denied';

export function mapResult(result: ResultMessage, context: ResultContext): TurnEnd {
  // Live, a canceled turn's result is fenced off with its generation; this reads it from a transcript.
  // A plain deny interrupts Claude Code's loop: the turn did what the person asked (stop), so it completed.
  if (isInterrupt(result) && context.deniedStop === true) {
    return {
      kind: 'turn.completed',
      durationMs: result.duration_ms,
      numTurns: result.num_turns,
      costUsd: cost(result, context),
      stopReason: DENIED_STOP_REASON,
    };
  }
  if (isInterrupt(result)) return { kind: 'turn.canceled', disposition: 'provider_active' };
  if (result.subtype === 'success' && !result.is_error) {
    return {
      kind: 'turn.completed',
      ...(result.result !== undefined ? { result: result.result } : {}),
      durationMs: result.duration_ms,
      numTurns: result.num_turns,
      costUsd: cost(result, context),
      ...(typeof result.stop_reason === 'string' ? { stopReason: result.stop_reason } : {}),
    };
  }
  return {
    kind: 'turn.failed',
    code: failureCode(result, context),
    message: failureMessage(result),
    // A turn stopped by its step or cost budget still took steps and cost money; a restricted run reports both.
    numTurns: result.num_turns,
    costUsd: cost(result, context),
  };
}

function cost(result: ResultMessage, context: ResultContext): number {
  return Math.max(0, result.total_cost_usd - context.costBefore);
}

function isInterrupt(result: ResultMessage): boolean {
  return result.subtype === 'error_during_execution' && (result.terminal_reason?.startsWith('aborted') ?? false);
}

function failureCode(result: ResultMessage, context: ResultContext): TurnFailureCode {
  switch (result.subtype) {
    case 'error_max_turns':
      return 'max_turns';
    case 'error_max_budget_usd':
      return 'budget';
    case 'success':
      if (result.api_error_status === 401 || context.assistantError === 'authentication_failed') return 'auth';
      return 'api_error';
    default:
      // error_during_execution, error_max_structured_output_retries and subtypes this sidecar does not know.
      return 'sdk_error';
  }
}

function failureMessage(result: ResultMessage): string {
  const errors = (result.errors ?? []).filter((e) => e.trim() !== '');
  if (errors.length > 0) return errors.join('; ');
  if (result.result !== undefined && result.result.trim() !== '') return result.result;
  return `the turn ended with ${result.subtype}`;
}
