// Whether the sidebar is shown. In a window wider than 900 px it sits beside the conversation and the person's
// choice (Ctrl+B, «, ») is kept in the sidebar prefs; at 900 px or less it is an overlay over the conversation,
// closed until asked for and closed again when a session is picked, so the conversation keeps the whole width.
import { useSyncExternalStore } from 'react';
import { setSidebarPrefs, sidebarPrefs, useSidebarPrefs } from './prefs';

export const NARROW_QUERY = '(max-width: 900px)';

function narrowQuery(): MediaQueryList | undefined {
  return typeof window === 'undefined' || typeof window.matchMedia !== 'function' ? undefined : window.matchMedia(NARROW_QUERY);
}

export function isNarrow(): boolean {
  return narrowQuery()?.matches === true;
}

function subscribeNarrow(onChange: () => void): () => void {
  const q = narrowQuery();
  q?.addEventListener('change', onChange);
  return () => q?.removeEventListener('change', onChange);
}

export function useNarrow(): boolean {
  return useSyncExternalStore(subscribeNarrow, isNarrow, () => false);
}

let overlayOpen = false;
const listeners = new Set<() => void>();

function setOverlay(open: boolean): void {
  if (overlayOpen === open) return;
  overlayOpen = open;
  for (const l of [...listeners]) l();
}

function subscribeOverlay(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

/** Shows or hides the sidebar, beside the conversation or over it as the window's width says. */
export function showSidebar(shown: boolean): void {
  if (isNarrow()) setOverlay(shown);
  else setSidebarPrefs({ hidden: !shown });
}

export function sidebarShown(): boolean {
  return isNarrow() ? overlayOpen : !sidebarPrefs().hidden;
}

/** A session was picked: a narrow window's overlay makes way for it. */
export function sessionPicked(): void {
  setOverlay(false);
}

export interface SidebarLayout {
  narrow: boolean;
  shown: boolean;
}

export function useSidebarLayout(): SidebarLayout {
  const narrow = useNarrow();
  const prefs = useSidebarPrefs();
  const open = useSyncExternalStore(
    subscribeOverlay,
    () => overlayOpen,
    () => false,
  );
  return { narrow, shown: narrow ? open : !prefs.hidden };
}
