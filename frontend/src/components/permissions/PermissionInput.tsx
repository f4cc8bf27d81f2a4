// What a permission request would do, shown the way its tool card would show it.
import type { Json } from '../../protocol/events';
import type { ToolKind } from '../../protocol/events';
import { diffTexts, filePath, stringField } from '../../store/files';
import { isFileKind } from '../../lib/toolKinds';
import { prettyJson } from '../../lib/format';
import { DiffView } from '../tools/DiffView';

export function PermissionInput({ toolKind, input, before }: { toolKind: ToolKind; input: Json; before?: string | null }) {
  if (toolKind === 'shell') {
    return (
      <pre className="command">
        <span className="prompt-sign">$ </span>
        {stringField(input, 'command') ?? ''}
      </pre>
    );
  }
  if (isFileKind(toolKind)) {
    const texts = diffTexts(toolKind, input, before);
    return (
      <div>
        <code>{filePath(input) ?? ''}</code>
        <DiffView before={texts.before} after={texts.after} />
      </div>
    );
  }
  return <pre className="raw">{prettyJson(input)}</pre>;
}
