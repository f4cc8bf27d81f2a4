// Slash commands the CLI offers, listed while the prompt starts with "/" and no argument yet; Tab or a click
// completes the name.
import type { CommandEntry } from '../../protocol/events';

export function matchingCommands(commands: readonly CommandEntry[], text: string): CommandEntry[] {
  if (!text.startsWith('/') || /\s/.test(text)) return [];
  const typed = text.slice(1).toLowerCase();
  return commands.filter((c) => c.name.toLowerCase().startsWith(typed)).slice(0, 8);
}

export function CommandHints({ matches, onPick }: { matches: readonly CommandEntry[]; onPick: (name: string) => void }) {
  if (matches.length === 0) return null;
  return (
    <ul className="command-hints" role="listbox" aria-label="Slash commands" data-testid="command-hints">
      {matches.map((c, i) => (
        <li key={c.name} role="option" aria-selected={i === 0}>
          <button type="button" className="command-hint" onMouseDown={(e) => e.preventDefault()} onClick={() => onPick(c.name)}>
            <code>/{c.name}</code>
            {c.argumentHint !== undefined && c.argumentHint !== '' && <span className="muted"> {c.argumentHint}</span>}
            {c.description !== undefined && <span className="muted small"> — {c.description}</span>}
          </button>
        </li>
      ))}
    </ul>
  );
}
