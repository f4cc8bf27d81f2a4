// Claude Code's own sign-in (`claude auth login`, unmodified) in a terminal inside Baton, dialog-sized. Baton
// only carries the keys; the sign-in watcher notices the new state when claude saves it.
import { useEffect, useState } from 'react';
import { toApiError } from '../../protocol/api';
import { useStore } from '../../store/hooks';
import { Modal } from '../dialogs/Modal';
import { XtermView } from './XtermView';
import './terminal.css';

export function SignInTerminal({ onClose, onUnavailable }: { onClose: () => void; onUnavailable: () => void }) {
  const store = useStore();
  const [id, setId] = useState<string | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    let opened: string | undefined;
    store.terminals.signIn(100, 28).then(
      (info) => {
        opened = info.terminal;
        if (alive) setId(info.terminal);
        else void store.terminals.close(info.terminal).catch(() => undefined);
      },
      (err: unknown) => {
        if (!alive) return;
        store.toast('error', toApiError(err).message);
        onUnavailable();
      },
    );
    return () => {
      alive = false;
      if (opened !== undefined) void store.terminals.close(opened).catch(() => undefined);
    };
  }, [store, onUnavailable]);
  return (
    <Modal title="Sign in to Claude Code" onClose={onClose} className="terminal-dialog">
      <p className="muted small">Claude Code’s own sign-in runs here; Baton never sees your credentials.</p>
      {id !== undefined && <XtermView terminals={store.terminals} id={id} />}
      <div className="dialog-buttons">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
