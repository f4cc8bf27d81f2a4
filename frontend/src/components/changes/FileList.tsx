// The session's changed files with their status and +/- counts; virtualised, so a 1,000-file change paints at once.
import { Virtuoso } from 'react-virtuoso';
import type { FileChange } from '../../protocol/api.gen';

const STATUS_MARK: Record<FileChange['status'], string> = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R' };

export function FileList({
  files,
  selected,
  onSelect,
  onRevert,
}: {
  files: readonly FileChange[];
  selected: string | undefined;
  onSelect: (f: FileChange) => void;
  onRevert: (f: FileChange) => void;
}) {
  return (
    <div className="changes-files">
      <Virtuoso<FileChange>
        data={files as FileChange[]}
        defaultItemHeight={24}
        computeItemKey={(_, f) => f.path}
        itemContent={(_, f) => (
          <div className={`changes-file${f.path === selected ? ' selected' : ''}`} data-testid="changes-file" data-path={f.path}>
            <button
              type="button"
              className="changes-file-name"
              onClick={() => onSelect(f)}
              title={f.oldPath !== undefined ? `${f.oldPath} → ${f.path}` : f.path}
            >
              <span className={`changes-status ${f.status}`} title={f.status}>
                {STATUS_MARK[f.status]}
              </span>
              <span className="changes-path">{f.path}</span>
            </button>
            <span className="changes-counts small">
              {f.binary ? (
                'binary'
              ) : (
                <>
                  <span className="add">+{f.added}</span> <span className="del">−{f.deleted}</span>
                </>
              )}
            </span>
            <button type="button" className="link small" onClick={() => onRevert(f)} title="Put this file back as it is in the base" data-testid="revert-file">
              Revert
            </button>
          </div>
        )}
      />
    </div>
  );
}
