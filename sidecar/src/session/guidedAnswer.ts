// The bound on a guided turn's answer (issue 33, item 9). Once the guidance went to Claude Code, the answer must
// begin within a budget: a response other than the interrupted one starts (its message_start reaches the turn).
// Found under load, a turn whose guidance raced its first output showed no output and no end at all; whatever held
// it (Claude Code never answering, the identity barrier, the message gate), this wait ends, and the session stops
// the turn. What arrived meanwhile is kept by kind only (never text) for the diagnostic saying what held it.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';

/** How long a guided turn may show nothing of its answer; BATON_GUIDE_ANSWER_BUDGET_MS in the environment overrides it. */
export const GUIDE_ANSWER_BUDGET_MS = 60_000;
const TRAIL = 8;

export function guideUnanswered(budgetMs: number): string {
  return `Claude Code showed no answer to the guidance within ${budgetMs / 1000} s, so the turn was stopped; send the guidance again as a prompt`;
}

/** What the generation delivered after the guidance went out, for the diagnostic. */
export interface Silence {
  turn: string;
  budgetMs: number;
  /** Messages the generation delivered since. */
  arrived: number;
  /** The kinds of the last few of them, oldest first. */
  trail: string[];
}

interface Watch {
  silence: Silence;
  timer: NodeJS.Timeout;
  /** The response under way when the guidance went out: its start is not the answer. */
  interrupted: string | undefined;
}

export class AnswerWatch {
  private watch: Watch | undefined;
  /** The id of the last response that began, as the generation delivered it (before any barrier). */
  private lastStart: string | undefined;

  constructor(private readonly budgetMs: number) {}

  /** The guidance went out on `turn`: unless its answer begins within the budget, `stalled` runs once. */
  arm(turn: string, stalled: (silence: Silence) => void): void {
    this.disarm();
    const silence: Silence = { turn, budgetMs: this.budgetMs, arrived: 0, trail: [] };
    const fire = () => {
      this.watch = undefined;
      stalled(silence);
    };
    this.watch = { silence, timer: setTimeout(fire, this.budgetMs), interrupted: this.lastStart };
  }

  /** Every message the live generation delivers, before any gate: its kind is noted, never its content. */
  arrived(message: SDKMessage): void {
    const start = responseStart(message);
    if (start !== undefined) this.lastStart = start;
    const silence = this.watch?.silence;
    if (silence === undefined) return;
    silence.arrived += 1;
    silence.trail.push(kindOf(message));
    if (silence.trail.length > TRAIL) silence.trail.shift();
  }

  /** A message reached `turn` (past the barrier and the gate): the answer's start ends the watch; a retry renews it. */
  reached(turn: string | undefined, message: SDKMessage): void {
    const watch = this.watch;
    if (watch === undefined || watch.silence.turn !== turn) return;
    const start = responseStart(message);
    if (start !== undefined && start !== watch.interrupted) {
      this.disarm();
      return;
    }
    // Claude Code says it is retrying the request: it is alive and waiting on the API, so the budget starts again.
    if (message.type === 'system' && message.subtype === 'api_retry') watch.timer.refresh();
  }

  /** The turn ended or the session closes: nothing is waited for any more. */
  disarm(): void {
    if (this.watch !== undefined) clearTimeout(this.watch.timer);
    this.watch = undefined;
  }
}

/** The id of a response that began (a message_start stream event). */
function responseStart(message: SDKMessage): string | undefined {
  if (message.type !== 'stream_event' || message.event.type !== 'message_start') return undefined;
  return message.event.message.id;
}

function kindOf(message: SDKMessage): string {
  switch (message.type) {
    case 'system':
    case 'result':
      return `${message.type}/${message.subtype}`;
    case 'stream_event':
      return `stream/${message.event.type}`;
    default:
      return message.type;
  }
}
