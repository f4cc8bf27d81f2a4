// A file change (kinds write, edit): the diff against the file's text before this change (which starts from the text
// before the session first changed the file), or against the edited strings alone when the text is unknown.
import { diffTexts, filePath } from '../../store/files';
import type { FileToolKind } from '../../lib/toolKinds';
import type { ToolItem } from '../../store/types';
import { DiffView } from './DiffView';
import { ToolHeader, usePermissionState } from './ToolHeader';

export function FileChangeCard({ item, kind }: { item: ToolItem; kind: FileToolKind }) {
  const path = filePath(item.input) ?? '(no path)';
  const texts = diffTexts(kind, item.input, item.before);
  const created = kind === 'write' && item.before === null;
  // While the change waits for permission its diff is in the permission request: shown once, not twice.
  const waiting = usePermissionState(item) === 'waiting';
  return (
    <div className="tool-card tool-file" data-testid="tool-card" data-tool={item.name}>
      <ToolHeader item={item} title={created ? 'Create' : item.name} detail={<code title={path}>{path}</code>} />
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
