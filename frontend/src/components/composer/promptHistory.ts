// The session's earlier prompts, for ↑/↓ recall in the composer as a terminal does: the caret must sit on the
// first line (↑) or the last line (↓), so moving within a multi-line prompt keeps working.
import type { SessionState, Transcript } from '../../store/types';

function userTexts(transcript: Transcript): string[] {
  const out: string[] = [];
  for (const key of transcript.rows) {
    const item = transcript.items.get(key);
    if (item?.type === 'user' && item.text.trim() !== '') out.push(item.text);
  }
  return out;
}

/** The prompts sent in this session, oldest first, a prompt repeated right after itself kept once. */
export function sessionPrompts(session: SessionState): string[] {
  const all = [...userTexts(session.history.transcript), ...userTexts(session.transcript)];
  return all.filter((text, i) => i === 0 || all[i - 1] !== text);
}

/** True when the caret (no selection) is on the text's first line. */
export function caretOnFirstLine(text: string, start: number, end: number): boolean {
  return start === end && !text.slice(0, start).includes('\n');
}

/** True when the caret (no selection) is on the text's last line. */
export function caretOnLastLine(text: string, start: number, end: number): boolean {
  return start === end && !text.slice(end).includes('\n');
}

/**
 * Where ↑/↓ goes in the recalled prompts: position `at` is prompts.length for the draft being written. Returns
 * the new position, or undefined when there is nothing further that way.
 */
export function step(prompts: readonly string[], at: number, direction: 'up' | 'down'): number | undefined {
  const next = direction === 'up' ? at - 1 : at + 1;
  if (next < 0 || next > prompts.length) return undefined;
  return next;
}
