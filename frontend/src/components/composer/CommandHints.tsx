// Slash commands the CLI offers, listed while the prompt starts with "/" and no argument yet: ↑/↓ move the
// selection, Enter or Tab (or a click) picks it. Each shows its argument hint and the first sentence of its
// description (some are whole essays).
import { useEffect, useRef } from 'react';
import type { CommandEntry } from '../../protocol/events';

const MAX_SHOWN = 50;
const MAX_DESCRIPTION = 120;

export function matchingCommands(commands: readonly CommandEntry[], text: string): CommandEntry[] {
  if (!text.startsWith('/') || /\s/.test(text)) return [];
  const typed = text.slice(1).toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(typed));
  const within = typed === '' ? [] : commands.filter((c) => !c.name.toLowerCase().startsWith(typed) && c.name.toLowerCase().includes(typed));
  return [...starts, ...within].slice(0, MAX_SHOWN);
}

/** The description's first sentence (or line), cut to one short line. */
export function firstSentence(description: string): string {
  const line = description.trim().split('\n')[0] ?? '';
  const end = line.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? line.slice(0, end + 1) : line;
  return sentence.length > MAX_DESCRIPTION ? `${sentence.slice(0, MAX_DESCRIPTION - 1).trimEnd()}…` : sentence;
}

export function CommandHints({ matches, selected, onPick }: { matches: readonly CommandEntry[]; selected: number; onPick: (name: string) => void }) {
  const list = useRef<HTMLUListElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the selected row scrolls into view when the selection moves.
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);
  if (matches.length === 0) return null;
  return (
    <ul ref={list} className="command-hints" role="listbox" id="command-hints" aria-label="Slash commands" data-testid="command-hints">
      {matches.map((c, i) => (
        <li key={c.name} role="option" id={`command-hint-${i}`} aria-selected={i === selected} className={i === selected ? 'selected' : undefined}>
          <button type="button" className="command-hint" tabIndex={-1} onMouseDown={(e) => e.preventDefault()} onClick={() => onPick(c.name)}>
            <code>/{c.name}</code>
            {c.argumentHint !== undefined && c.argumentHint !== '' && (
              <span className="muted command-arg" data-testid="command-arg">
                {' '}
                {c.argumentHint}
              </span>
            )}
            {c.description !== undefined && c.description !== '' && (
              <span className="muted small command-desc" data-testid="command-desc">
                {' '}
                — {firstSentence(c.description)}
              </span>
            )}
          </button>
        </li>
      ))}
    </ul>
  );
}
