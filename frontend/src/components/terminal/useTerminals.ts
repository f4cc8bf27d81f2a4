// Whether a session's terminal panel is open, from the store's Terminals.
import { useSyncExternalStore } from 'react';
import { useStore } from '../../store/hooks';

export function usePanelOpen(session: string): boolean {
  const terminals = useStore().terminals;
  useSyncExternalStore(terminals.subscribe, terminals.getVersion);
  return terminals.panelOpen(session);
}
