// React's view of the store: a context carrying it, and selector hooks on useSyncExternalStore so a component
// re-renders only when what it selected changed.
import { createContext, createElement, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { ConsoleStore } from './store';
import type { ConsoleState, SessionState } from './types';

const StoreContext = createContext<ConsoleStore | undefined>(undefined);

export function StoreProvider({ store, children }: { store: ConsoleStore; children: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children);
}

export function useStore(): ConsoleStore {
  const store = useContext(StoreContext);
  if (store === undefined) throw new Error('useStore needs a StoreProvider above it');
  return store;
}

/** Selects a slice of the state; the selector must return a stable value (a part of the state, not a new object). */
export function useConsole<T>(select: (state: ConsoleState) => T): T {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

export function useSession(id: string | undefined): SessionState | undefined {
  return useConsole((s) => (id === undefined ? undefined : s.sessions[id]));
}

export function useSelectedSession(): SessionState | undefined {
  return useConsole((s) => (s.selected === undefined ? undefined : s.sessions[s.selected]));
}
