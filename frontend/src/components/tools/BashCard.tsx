// A Bash call: the command, its output, and how it exited. A command sent to the background "completes" at once
// (the call returns its task id): it reads running while its task lives, never "exit 0", with the live end of its
// output beneath (task.output; issue 28).
import type { Json } from '../../protocol/events';
import { useConsole } from '../../store/hooks';
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

/** Whether the call runs its command in the background (run_in_background, or the task id its result names). */
export function inBackground(item: ToolItem): boolean {
  if (typeof item.input === 'object' && item.input !== null && !Array.isArray(item.input) && item.input['run_in_background'] === true) return true;
  return stringField(item.structured ?? null, 'backgroundTaskId') !== undefined;
}

export function exitLabel(item: ToolItem, taskRunning = false): string | undefined {
  if (item.status === 'completed' && inBackground(item)) return taskRunning ? undefined : 'ran in background';
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
  const taskRunning = useConsole((s) => {
    const session = s.selected !== undefined ? s.sessions[s.selected] : undefined;
    return session?.tasks.some((t) => t.toolUseId === item.toolUseId) === true;
  });
  const tail = useConsole((s) => (s.selected !== undefined ? s.sessions[s.selected]?.taskTails[item.toolUseId] : undefined));
  const background = item.status === 'completed' && inBackground(item);
  const label = exitLabel(item, taskRunning);
  const pill =
    background && taskRunning ? (
      <span className="pill running" data-testid="background-running">
        running in background
      </span>
    ) : (
      <StatusPill item={item} {...(label !== undefined ? { label } : {})} />
    );
  return (
    <div className="tool-card tool-bash" data-testid="tool-card" data-tool={item.name}>
      <ToolHeader item={item} title={item.name} detail={description} pill={pill} />
      <pre className="command">
        <span className="prompt-sign">$ </span>
        {command}
      </pre>
      {output !== '' && <Output text={output} failed={item.status === 'failed'} />}
      {background && tail !== undefined && tail !== '' && (
        <div className="background-tail" data-testid="background-tail">
          <Output text={tail} />
        </div>
      )}
    </div>
  );
}
