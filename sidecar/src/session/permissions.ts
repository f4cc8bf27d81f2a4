// Permission requests from the SDK's canUseTool, each waiting for one verdict. A request settles exactly once,
// by the person's verdict or by an interrupt; later verdicts change nothing.
import type { PermissionResult, PermissionUpdate } from '@anthropic-ai/claude-agent-sdk';
import type { EventBody, SettledBy, Verdict } from '../protocol/events.js';
import { assertNever } from '../util/assertNever.js';
import { toJsonValue } from '../util/json.js';

export const DEFAULT_DENY_MESSAGE = 'The user denied this tool use.';
export const INTERRUPT_DENY_MESSAGE = 'The tool use was interrupted before the user answered.';

/** What canUseTool receives from the SDK that this broker uses. */
export interface PermissionAsk {
  toolName: string;
  input: Record<string, unknown>;
  signal: AbortSignal;
  requestId: string;
  toolUseID: string;
  suggestions?: PermissionUpdate[] | undefined;
  title?: string | undefined;
  description?: string | undefined;
  decisionReason?: string | undefined;
}

interface Pending {
  ask: PermissionAsk;
  resolve: (result: PermissionResult) => void;
  detach: () => void;
}

export type SettleOutcome = 'settled' | 'already_settled' | 'unknown';

export class PermissionBroker {
  private pending = new Map<string, Pending>();
  private settled = new Set<string>();

  /** @param emit receives permission.requested / permission.settled bodies (the session stamps them). */
  constructor(private readonly emit: (body: EventBody<'permission.requested'> | EventBody<'permission.settled'>) => void) {}

  request(ask: PermissionAsk): Promise<PermissionResult> {
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.settle(ask.requestId, 'deny', 'interrupt');
      };
      this.pending.set(ask.requestId, {
        ask,
        resolve,
        detach: () => ask.signal.removeEventListener('abort', onAbort),
      });
      this.emit({
        kind: 'permission.requested',
        requestId: ask.requestId,
        toolUseId: ask.toolUseID,
        toolName: ask.toolName,
        input: toJsonValue(ask.input),
        ...(ask.title !== undefined ? { title: ask.title } : {}),
        ...(ask.description !== undefined ? { description: ask.description } : {}),
        ...(ask.decisionReason !== undefined ? { decisionReason: ask.decisionReason } : {}),
        suggestions: (ask.suggestions ?? []).map(toJsonValue),
      });
      if (ask.signal.aborted) onAbort();
      else ask.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  settle(requestId: string, verdict: Verdict, by: SettledBy, message?: string): SettleOutcome {
    const entry = this.pending.get(requestId);
    if (entry === undefined) return this.settled.has(requestId) ? 'already_settled' : 'unknown';
    this.pending.delete(requestId);
    this.settled.add(requestId);
    entry.detach();
    const denyMessage = message ?? (by === 'interrupt' ? INTERRUPT_DENY_MESSAGE : DEFAULT_DENY_MESSAGE);
    entry.resolve(toResult(entry.ask, verdict, denyMessage));
    this.emit({
      kind: 'permission.settled',
      requestId,
      verdict,
      by,
      ...(verdict === 'deny' ? { message: denyMessage } : message !== undefined ? { message } : {}),
    });
    return 'settled';
  }

  /** Denies every open request (interrupt, close, the session failing). */
  settleAll(by: SettledBy): void {
    for (const requestId of [...this.pending.keys()]) this.settle(requestId, 'deny', by);
  }

  get openCount(): number {
    return this.pending.size;
  }
}

function toResult(ask: PermissionAsk, verdict: Verdict, denyMessage: string): PermissionResult {
  switch (verdict) {
    case 'allow':
      return { behavior: 'allow', updatedInput: ask.input, toolUseID: ask.toolUseID };
    case 'allow_always':
      return {
        behavior: 'allow',
        updatedInput: ask.input,
        updatedPermissions: ask.suggestions ?? [],
        toolUseID: ask.toolUseID,
      };
    case 'deny':
      return { behavior: 'deny', message: denyMessage, toolUseID: ask.toolUseID };
    default:
      return assertNever(verdict);
  }
}

