// Permission requests from the SDK's canUseTool, each waiting for one verdict. A request settles exactly once,
// by the person's verdict or by an interrupt; later verdicts change nothing and are answered with the recorded
// one. Interactive tools answer through the same gate: AskUserQuestion's answers go into the tool's input
// (`answers`, question text → answer), and an approved ExitPlanMode switches the session's mode.
import type { PermissionResult, PermissionUpdate } from '@anthropic-ai/claude-agent-sdk';
import type { EventBody, PermissionMode, QuestionAnswer, SettledBy, ToolKind, Verdict } from '../protocol/events.js';
import { assertNever } from '../util/assertNever.js';
import { toJsonValue } from '../util/json.js';
import { describeTool, toolKindOf } from '../tools/catalogue.js';

/** Claude Code's own words for a tool use the person rejected without a message (its terminal's "No"). */
export const PLAIN_DENY_MESSAGE =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
export const INTERRUPT_DENY_MESSAGE = 'The tool use was interrupted before the user answered.';
export const SKIPPED_QUESTION_MESSAGE = 'The user declined to answer the question.';
export const KEEP_PLANNING_MESSAGE = 'The user wants to keep planning: do not start on the plan yet.';

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

/** What a person (or policy) answered beyond the verdict. */
export interface AnswerDetail {
  message?: string | undefined;
  answers?: QuestionAnswer[] | undefined;
  mode?: PermissionMode | undefined;
}

/** A settled request's answer, kept so a repeated or late answer gets it back. */
export interface RecordedAnswer {
  verdict: Verdict;
  answers?: QuestionAnswer[];
  mode?: PermissionMode;
}

interface Pending {
  ask: PermissionAsk;
  resolve: (result: PermissionResult) => void;
  detach: () => void;
  /** permission.requested went out (false: held behind the identity barrier). */
  announced: boolean;
}

export type SettleOutcome =
  | { outcome: 'settled'; recorded: RecordedAnswer }
  | { outcome: 'already_settled'; recorded: RecordedAnswer }
  | { outcome: 'unknown' };

/** How many settled answers a session remembers for late or repeated answers. */
const SETTLED_MEMORY = 10_000;

export class PermissionBroker {
  private pending = new Map<string, Pending>();
  private settled = new Map<string, RecordedAnswer>();

  /**
   * @param emit receives permission.requested / permission.settled bodies (the session stamps them).
   * @param onPlanApproved an ExitPlanMode was allowed with a mode to continue in (the session records it).
   * @param bound whether the running turn passed its identity barrier (false: new requests are held).
   */
  constructor(
    private readonly emit: (body: EventBody<'permission.requested'> | EventBody<'permission.settled'>) => void,
    private readonly onPlanApproved: (mode: PermissionMode) => void = () => undefined,
    private readonly bound: () => boolean = () => true,
  ) {}

  request(ask: PermissionAsk): Promise<PermissionResult> {
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.settle(ask.requestId, 'deny', 'interrupt');
      };
      const entry: Pending = { ask, resolve, detach: () => ask.signal.removeEventListener('abort', onAbort), announced: false };
      this.pending.set(ask.requestId, entry);
      if (this.bound()) this.announce(entry);
      if (ask.signal.aborted) onAbort();
      else ask.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The running turn is bound: announce the requests held meanwhile, in the order they came. */
  release(): void {
    for (const entry of this.pending.values()) if (!entry.announced) this.announce(entry);
  }

  private announce(entry: Pending): void {
    entry.announced = true;
    const { ask } = entry;
    this.emit({
      kind: 'permission.requested',
      requestId: ask.requestId,
      toolUseId: ask.toolUseID,
      toolName: ask.toolName,
      input: toJsonValue(ask.input),
      ...toolFacts(ask.toolName, ask.input),
      ...(ask.title !== undefined ? { title: ask.title } : {}),
      ...(ask.description !== undefined ? { description: ask.description } : {}),
      ...(ask.decisionReason !== undefined ? { decisionReason: ask.decisionReason } : {}),
      suggestions: (ask.suggestions ?? []).map(toJsonValue),
    });
  }

  settle(requestId: string, verdict: Verdict, by: SettledBy, detail: AnswerDetail = {}): SettleOutcome {
    const entry = this.pending.get(requestId);
    // Nobody outside was told of a held request: only an interrupt (the turn failing or stopping) settles it.
    if (entry !== undefined && !entry.announced && by !== 'interrupt') return { outcome: 'unknown' };
    if (entry === undefined) {
      const recorded = this.settled.get(requestId);
      return recorded !== undefined ? { outcome: 'already_settled', recorded } : { outcome: 'unknown' };
    }
    this.pending.delete(requestId);
    entry.detach();
    const { ask } = entry;
    // Answers belong to AskUserQuestion and a mode to ExitPlanMode, and only to an allow.
    const answers = verdict !== 'deny' && toolKindOf(ask.toolName) === 'question' ? detail.answers : undefined;
    const mode = verdict !== 'deny' && toolKindOf(ask.toolName) === 'plan_exit' ? detail.mode : undefined;
    const recorded: RecordedAnswer = { verdict, ...(answers !== undefined ? { answers } : {}), ...(mode !== undefined ? { mode } : {}) };
    this.remember(requestId, recorded);
    const given = detail.message !== undefined && detail.message.trim() !== '' ? detail.message : undefined;
    const deny = denial(ask, by, given);
    entry.resolve(toResult(ask, recorded, deny));
    if (mode !== undefined) this.onPlanApproved(mode);
    // A request held behind the barrier was never announced: it is denied to the SDK without a word on the wire.
    if (!entry.announced) return { outcome: 'settled', recorded };
    // A plain deny's words are Claude Code's, not the person's: the settlement carries no message then.
    const message = verdict === 'deny' ? (deny.interrupt ? undefined : deny.message) : detail.message;
    this.emit({
      kind: 'permission.settled',
      requestId,
      verdict,
      by,
      ...(message !== undefined ? { message } : {}),
      ...(answers !== undefined ? { answers } : {}),
      ...(mode !== undefined ? { mode } : {}),
    });
    return { outcome: 'settled', recorded };
  }

  /** Denies every open request (interrupt, close, the session failing). */
  settleAll(by: SettledBy): void {
    for (const requestId of [...this.pending.keys()]) this.settle(requestId, 'deny', by);
  }

  get openCount(): number {
    return this.pending.size;
  }

  private remember(requestId: string, recorded: RecordedAnswer): void {
    this.settled.set(requestId, recorded);
    if (this.settled.size > SETTLED_MEMORY) {
      const oldest = this.settled.keys().next().value;
      if (oldest !== undefined) this.settled.delete(oldest);
    }
  }
}

interface Denial {
  message: string;
  /** Claude stops and waits for the person (the terminal's plain "No"). */
  interrupt: boolean;
}

/**
 * What a deny tells Claude. A person's or policy's plain deny of a tool stops Claude (Claude Code's own words); a
 * message goes back as is and Claude carries on. A question or plan declined without a message is answered (skip
 * it, keep planning), not stopped; an interrupt's deny needs no stop of its own (the cancel or failure stops).
 */
function denial(ask: PermissionAsk, by: SettledBy, message: string | undefined): Denial {
  if (message !== undefined) return { message, interrupt: false };
  if (by === 'interrupt' || by === 'sidecar_exited') return { message: INTERRUPT_DENY_MESSAGE, interrupt: false };
  // The tools whose "permission" is a question to the person: a deny of theirs is an answer, not a refusal.
  if (toolKindOf(ask.toolName) === 'plan_exit') return { message: KEEP_PLANNING_MESSAGE, interrupt: false };
  if (toolKindOf(ask.toolName) === 'question') return { message: SKIPPED_QUESTION_MESSAGE, interrupt: false };
  return { message: PLAIN_DENY_MESSAGE, interrupt: true };
}

function toResult(ask: PermissionAsk, recorded: RecordedAnswer, deny: Denial): PermissionResult {
  switch (recorded.verdict) {
    case 'allow':
      return { behavior: 'allow', updatedInput: updatedInput(ask, recorded), ...modeUpdate(recorded), toolUseID: ask.toolUseID };
    case 'allow_always':
      return {
        behavior: 'allow',
        updatedInput: updatedInput(ask, recorded),
        updatedPermissions: [...(ask.suggestions ?? []), ...(modeUpdate(recorded).updatedPermissions ?? [])],
        toolUseID: ask.toolUseID,
      };
    case 'deny':
      return { behavior: 'deny', message: deny.message, ...(deny.interrupt ? { interrupt: true } : {}), toolUseID: ask.toolUseID };
    default:
      return assertNever(recorded.verdict);
  }
}

/** AskUserQuestion reads the person's choices from its input's `answers` (question text → answer). */
function updatedInput(ask: PermissionAsk, recorded: RecordedAnswer): Record<string, unknown> {
  if (recorded.answers === undefined) return ask.input;
  return { ...ask.input, answers: Object.fromEntries(recorded.answers.map((a) => [a.question, a.answer])) };
}

/** An approved plan continues in the chosen mode, applied by Claude Code with the tool's approval. */
function modeUpdate(recorded: RecordedAnswer): { updatedPermissions?: PermissionUpdate[] } {
  if (recorded.mode === undefined) return {};
  return { updatedPermissions: [{ type: 'setMode', mode: recorded.mode, destination: 'session' }] };
}

/** The catalogue's kind and title for a permission request (its `title` field is the SDK's own line). */
function toolFacts(toolName: string, input: unknown): { toolKind: ToolKind; toolTitle: string } {
  const { toolKind, title } = describeTool(toolName, input);
  return { toolKind, toolTitle: title };
}
