// The Changes panel benchmark page: the real panel (store, virtualised list and diff, highlighting, styles) over
// an in-memory host whose session changed ?files= files of ?lines= lines in all, the first of them a ?diff=-line
// diff. It reports on window.__changesBench when the file list, then (after the first file is opened) its diff, painted.
import { createRoot } from 'react-dom/client';
import { ChangesPanel } from '../../src/components/changes/ChangesPanel';
import type { Capabilities, Method, Params, Result } from '../../src/protocol/api';
import type { ChangesResult, FileDiff } from '../../src/protocol/api.gen';
import { newSession } from '../../src/store/fold';
import { StoreProvider } from '../../src/store/hooks';
import { ConsoleStore } from '../../src/store/store';
import '../../src/styles/app.css';
import type { ConnectionState, Transport } from '../../src/transport/transport';

interface ChangesBenchResult {
  startAt: number;
  listAt?: number;
  openAt?: number;
  diffAt?: number;
}
declare global {
  interface Window {
    __changesBench: ChangesBenchResult;
  }
}

const q = new URLSearchParams(location.search);
const files = Number(q.get('files') ?? '1000');
const lines = Number(q.get('lines') ?? '50000');
const diffLines = Number(q.get('diff') ?? '5000');
const SESSION = '27270000-0000-4000-8000-0000000000bb';

const changes: ChangesResult = {
  folder: '/home/user/project/.claude/worktrees/bench',
  base: 'main',
  missing: false,
  worktree: { repo: '/home/user/project', path: '/home/user/project/.claude/worktrees/bench', branch: 'baton/bench', base: 'main' },
  files: Array.from({ length: files }, (_, i) => ({
    path: `src/module${Math.floor(i / 50)}/file${i}.ts`,
    status: i % 7 === 0 ? 'added' : 'modified',
    added: Math.round((lines * 0.6) / files),
    deleted: Math.round((lines * 0.4) / files),
    binary: false,
  })),
};

function fileDiff(path: string): FileDiff {
  const out: FileDiff['hunks'][number]['lines'] = [];
  for (let i = 1; i <= diffLines; i++) {
    const text = `  const value${i} = compute(${i}, "text ${i}"); // line ${i}`;
    const kind = i % 5 === 0 ? 'deleted' : i % 5 === 1 ? 'added' : 'context';
    out.push({ kind, text, old: kind === 'added' ? 0 : i, new: kind === 'deleted' ? 0 : i, noNewline: false });
  }
  return { path, binary: false, truncated: false, hunks: [{ oldStart: 1, oldLines: diffLines, newStart: 1, newLines: diffLines, section: '', lines: out }] };
}

class ChangesBenchTransport implements Transport {
  readonly connection: ConnectionState = 'open';
  async call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
    switch (method) {
      case 'sessionChanges':
        return structuredClone(changes) as Result<M>;
      case 'fileDiff':
        return fileDiff((params as { path: string }).path) as Result<M>;
      default:
        return {} as Result<M>;
    }
  }
  subscribeTerminal(): () => void {
    return () => undefined;
  }

  subscribe(): () => void {
    return () => undefined;
  }
  onConnectionChange(): () => void {
    return () => undefined;
  }
  capabilities(): Promise<Capabilities> {
    return Promise.resolve({ transport: 'websocket', folderPicker: false, notifications: false, version: 'bench' });
  }
  close(): void {}
}

/** Calls mark once the frame in which check() first holds has been painted (a task posted from its callback). */
function whenPainted(check: () => boolean, mark: (at: number) => void): void {
  const frame = () => {
    if (!check()) {
      requestAnimationFrame(frame);
      return;
    }
    const painted = new MessageChannel();
    painted.port1.onmessage = () => mark(performance.now());
    painted.port2.postMessage(undefined);
  };
  requestAnimationFrame(frame);
}

window.__changesBench = { startAt: performance.now() };
const store = new ConsoleStore(new ChangesBenchTransport());
const session = { ...newSession({ id: SESSION, cwd: changes.folder }), live: true };
whenPainted(
  () => document.querySelectorAll('[data-testid="changes-file"]').length > 0,
  (at) => {
    window.__changesBench.listAt = at;
    const first = document.querySelector<HTMLButtonElement>('[data-testid="changes-file"] .changes-file-name');
    window.__changesBench.openAt = performance.now();
    first?.click();
    whenPainted(
      () => document.querySelectorAll('.diff-row').length > 10,
      (diffAt) => {
        window.__changesBench.diffAt = diffAt;
      },
    );
  },
);
const root = document.getElementById('root');
if (root !== null) {
  createRoot(root).render(
    <StoreProvider store={store}>
      <ChangesPanel session={session} />
    </StoreProvider>,
  );
}
