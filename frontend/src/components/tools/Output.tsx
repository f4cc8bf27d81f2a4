// A tool's text output: the last lines first (they matter most for commands), all of it on request.
import { useState } from 'react';
import { AnsiText } from './AnsiText';

const TAIL_LINES = 24;

export function Output({ text, failed = false }: { text: string; failed?: boolean }) {
  const [all, setAll] = useState(false);
  const lines = text.split('\n');
  const long = lines.length > TAIL_LINES;
  const shown = all || !long ? text : lines.slice(-TAIL_LINES).join('\n');
  return (
    <div className={`tool-output${failed ? ' failed' : ''}`}>
      {long && !all && (
        <button type="button" className="link small" onClick={() => setAll(true)}>
          Show all {lines.length} lines
        </button>
      )}
      <pre>
        <AnsiText text={shown} />
      </pre>
    </div>
  );
}
