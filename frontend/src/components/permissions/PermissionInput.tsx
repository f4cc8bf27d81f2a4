// What a permission request would do, shown the way its tool card would show it.
import type { Json } from '../../protocol/events';
import { diffTexts, filePath, isFileTool, stringField } from '../../store/files';
import { prettyJson } from '../../lib/format';
import { DiffView } from '../tools/DiffView';

export function PermissionInput({ toolName, input, before }: { toolName: string; input: Json; before?: string | null }) {
  if (toolName === 'Bash') {
    return (
      <pre className="command">
        <span className="prompt-sign">$ </span>
        {stringField(input, 'command') ?? ''}
      </pre>
    );
  }
  if (isFileTool(toolName)) {
    const texts = diffTexts(toolName, input, before);
    return (
      <div>
        <code>{filePath(input) ?? ''}</code>
        <DiffView before={texts.before} after={texts.after} />
      </div>
    );
  }
  return <pre className="raw">{prettyJson(input)}</pre>;
}
