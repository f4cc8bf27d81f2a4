// A Bash call: the command, its output, and how it exited.
import type { Json } from '../../protocol/events';
import { stringField } from '../../store/files';
import type { ToolItem } from '../../store/types';
import { Output } from './Output';
import { StatusPill, ToolHeader } from './ToolHeader';

function structuredOutput(structured: Json | undefined): string | undefined {
  if (structured === undefined) return undefined;
  const stdout = stringField(structured, 'stdout');
  const stderr = stringField(structured, 'stderr');
  if (stdout === undefined && stderr === undefined) return undefined;
  return [stdout ?? '', stderr ?? ''].filter((s) => s !== '').join('\n');
}

export function exitLabel(item: ToolItem): string | undefined {
  if (item.status === 'completed') {
    const interrupted =
      typeof item.structured === 'object' && item.structured !== null && !Array.isArray(item.structured) && item.structured['interrupted'] === true;
    return interrupted ? 'interrupted' : 'exit 0';
  }
  if (item.status === 'failed') {
    const code = /exit code (\d+)/i.exec(item.error ?? '');
    return code !== null ? `exit ${code[1]}` : 'failed';
  }
  return undefined;
}

export function BashCard({ item }: { item: ToolItem }) {
  const command = stringField(item.input, 'command') ?? '';
  const description = stringField(item.input, 'description');
  const output = item.status === 'failed' ? (item.error ?? '') : (structuredOutput(item.structured) ?? item.output ?? '');
  const label = exitLabel(item);
  return (
    <div className="tool-card tool-bash" data-testid="tool-card" data-tool={item.name}>
      <ToolHeader item={item} title={item.name} detail={description} pill={<StatusPill item={item} {...(label !== undefined ? { label } : {})} />} />
      <pre className="command">
        <span className="prompt-sign">$ </span>
        {command}
      </pre>
      {output !== '' && <Output text={output} failed={item.status === 'failed'} />}
    </div>
  );
}
