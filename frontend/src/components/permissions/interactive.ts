// Reading the input of the tools that ask the person something (kinds question, plan_exit) from the JSON the
// permission request carries, and saying how such a request was answered.
import type { Json, PermissionMode, QuestionAnswer, ToolKind } from '../../protocol/events';
import { MODE_LABELS } from '../../lib/names';
import type { PermissionSettlement } from '../../store/types';

export interface QuestionOption {
  label: string;
  description: string;
}

export interface Question {
  question: string;
  header: string;
  options: QuestionOption[];
  multiSelect: boolean;
}

function record(v: Json | undefined): Record<string, Json> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
}

function text(v: Json | undefined): string {
  return typeof v === 'string' ? v : '';
}

/** AskUserQuestion's questions; malformed entries are skipped (the card then offers to skip). */
export function readQuestions(input: Json): Question[] {
  const list = record(input)?.['questions'];
  if (!Array.isArray(list)) return [];
  const out: Question[] = [];
  for (const entry of list) {
    const q = record(entry);
    if (q === undefined || text(q['question']) === '') continue;
    const options = Array.isArray(q['options'])
      ? q['options']
          .map(record)
          .filter((o) => o !== undefined && text(o['label']) !== '')
          .map((o) => ({ label: text(o?.['label']), description: text(o?.['description']) }))
      : [];
    out.push({ question: text(q['question']), header: text(q['header']), options, multiSelect: q['multiSelect'] === true });
  }
  return out;
}

/** ExitPlanMode's plan (Markdown). */
export function readPlan(input: Json): string {
  return text(record(input)?.['plan']);
}

/** The modes an approved plan may continue in, the first the default. */
export const PLAN_CONTINUE_MODES: readonly PermissionMode[] = ['acceptEdits', 'default'];

/** How an answered question or plan reads in the conversation. */
export function interactiveSettlement(kind: ToolKind, s: PermissionSettlement): string | undefined {
  if (kind === 'question') {
    if (s.verdict === 'deny') return s.by === 'user' ? 'Skipped the question' : 'Not answered: the turn was interrupted';
    return s.answers !== undefined && s.answers.length > 0 ? s.answers.map(answerText).join(' · ') : 'Answered';
  }
  if (kind === 'plan_exit') {
    if (s.verdict === 'deny') return s.by === 'user' ? 'Kept planning' : 'Not answered: the turn was interrupted';
    return s.mode !== undefined ? `Plan approved — continuing with “${MODE_LABELS[s.mode]}”` : 'Plan approved';
  }
  return undefined;
}

function answerText(a: QuestionAnswer): string {
  return `${a.question} → ${a.answer}`;
}

/** Multi-select answers are joined by ", " (the form AskUserQuestion expects). */
export function joinChoices(choices: readonly string[]): string {
  return choices.join(', ');
}
