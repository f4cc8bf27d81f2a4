// Whether one of a session's panels is open, starting from what panelMemory kept and remembering each change; a
// switch to another session reads that session's.
import { useCallback, useState } from 'react';
import { type PanelName, panelRemembered, rememberPanel } from '../../store/panelMemory';

export function useRememberedPanel(session: string, panel: PanelName): [boolean, (open: boolean) => void] {
  const [state, setState] = useState(() => ({ session, open: panelRemembered(session, panel) }));
  const open = state.session === session ? state.open : panelRemembered(session, panel);
  const set = useCallback(
    (next: boolean) => {
      setState({ session, open: next });
      rememberPanel(session, panel, next);
    },
    [session, panel],
  );
  return [open, set];
}
