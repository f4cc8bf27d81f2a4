// A local slash command the person ran, with what it printed under it (its terminal colours kept, long output
// collapsed, error output marked); output that followed no command is shown alone. Output written as Markdown
// (/context's headings and tables) is rendered as Markdown, whole; any other keeps its columns, preformatted.
import { memo } from 'react';
import type { CommandItem, CommandOutput } from '../../store/types';
import { AnsiText } from '../tools/AnsiText';
import { Markdown } from './Markdown';

/** Output longer than this is collapsed behind its line count. */
const SHORT_LINES = 8;
const SHORT_CHARS = 800;

/** Markdown a command printed: a heading or a table's separator row, at the start of a line. */
const MARKDOWN_OUTPUT = /^(#{1,6} \S|\|? *:?-{3,}:? *\|)/m;

function OutputBlock({ output }: { output: CommandOutput }) {
  const text = output.text.replace(/\s+$/, '');
  if (text === '') return null;
  const stderr = output.stream === 'stderr';
  if (!stderr && MARKDOWN_OUTPUT.test(text) && !text.includes('\u001b')) {
    return (
      <div className="command-output command-markdown" data-stream={output.stream}>
        <Markdown text={text} />
      </div>
    );
  }
  const className = `command-output${stderr ? ' stderr' : ''}`;
  const lines = text.split('\n').length;
  const block = (
    <pre className={className} data-stream={output.stream} title={stderr ? 'Error output' : undefined}>
      <AnsiText text={text} />
    </pre>
  );
  if (lines <= SHORT_LINES && text.length <= SHORT_CHARS) return block;
  return (
    <details className="command-output-long">
      <summary className="small muted">
        {stderr ? 'Error output' : 'Output'} ({lines} {lines === 1 ? 'line' : 'lines'})
      </summary>
      {block}
    </details>
  );
}

export const CommandRow = memo(function CommandRow({ item }: { item: CommandItem }) {
  return (
    <div className="row row-command" data-testid="command-row">
      {item.command !== undefined && <code className="command-name">{item.command}</code>}
      {item.output.map((output, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: outputs are only ever appended, in order.
        <OutputBlock key={i} output={output} />
      ))}
    </div>
  );
});
