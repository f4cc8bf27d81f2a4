// Write / Edit / MultiEdit: the diff against the file's text before this change (which starts from the text
// before the session first changed the file), or against the edited strings alone when the text is unknown.
import { diffTexts, filePath, type FileTool } from '../../store/files';
import type { ToolItem } from '../../store/types';
import { DiffView } from './DiffView';
import { ToolHeader, usePermissionState } from './ToolHeader';

export function FileChangeCard({ item, tool }: { item: ToolItem; tool: FileTool }) {
  const path = filePath(item.input) ?? '(no path)';
  const texts = diffTexts(tool, item.input, item.before);
  const created = tool === 'Write' && item.before === null;
  // While the change waits for permission its diff is in the permission request: shown once, not twice.
  const waiting = usePermissionState(item) === 'waiting';
  return (
    <div className="tool-card tool-file" data-testid="tool-card" data-tool={tool}>
      <ToolHeader item={item} title={created ? 'Create' : tool} detail={<code title={path}>{path}</code>} />
      {waiting ? (
        <div className="muted small">The change is shown in the permission request below.</div>
      ) : (
        <>
          <DiffView before={texts.before} after={texts.after} />
          {!texts.whole && <div className="muted small">The file’s full text is not known here; showing the edited text only.</div>}
        </>
      )}
      {item.status === 'failed' && <div className="tool-error plain">{item.error}</div>}
    </div>
  );
}
