// ↑/↓ recall of the session's earlier prompts (promptHistory.ts): the draft being written is kept aside while
// older prompts are shown and comes back at the bottom; typing leaves recall.
import { useRef } from 'react';
import type { SessionState } from '../../store/types';
import { caretOnFirstLine, caretOnLastLine, sessionPrompts, step } from './promptHistory';

export interface Recall {
  /** Handles ↑/↓ in the textarea: true when it recalled a prompt (the key is then consumed). */
  onArrow(direction: 'up' | 'down', el: HTMLTextAreaElement): boolean;
  /** The person typed: the text is theirs now. */
  reset(): void;
}

export function usePromptRecall(session: SessionState, setText: (text: string, caret: number) => void): Recall {
  const at = useRef<{ index: number; draft: string } | undefined>(undefined);
  return {
    onArrow(direction, el) {
      const onEdge = direction === 'up' ? caretOnFirstLine : caretOnLastLine;
      if (!onEdge(el.value, el.selectionStart, el.selectionEnd)) return false;
      const prompts = sessionPrompts(session);
      const from = at.current?.index ?? prompts.length;
      const next = step(prompts, from, direction);
      if (next === undefined) return false;
      const draft = at.current?.draft ?? el.value;
      at.current = next === prompts.length ? undefined : { index: next, draft };
      const shown = next === prompts.length ? draft : (prompts[next] ?? '');
      setText(shown, shown.length);
      return true;
    },
    reset() {
      at.current = undefined;
    },
  };
}
