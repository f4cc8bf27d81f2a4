// How the person arranged the sidebar — its width, whether it is hidden, grouped by project or by date, which
// groups are collapsed, whether archived sessions show — remembered per browser profile (localStorage).
import { useSyncExternalStore } from 'react';
import type { GroupBy } from '../../store/sidebar';

export interface SidebarPrefs {
  width: number;
  hidden: boolean;
  groupBy: GroupBy;
  collapsed: readonly string[];
  showArchived: boolean;
}

export const MIN_WIDTH = 200;
export const MAX_WIDTH = 520;
const KEY = 'baton.sidebar';
const DEFAULTS: SidebarPrefs = { width: 280, hidden: false, groupBy: 'project', collapsed: [], showArchived: false };

export function clampWidth(width: number): number {
  return Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)));
}

function read(): SidebarPrefs {
  try {
    const raw = localStorage.getItem(KEY);
    if (raw === null) return DEFAULTS;
    const v = JSON.parse(raw) as Partial<SidebarPrefs>;
    return {
      width: typeof v.width === 'number' && Number.isFinite(v.width) ? clampWidth(v.width) : DEFAULTS.width,
      hidden: v.hidden === true,
      groupBy: v.groupBy === 'date' ? 'date' : 'project',
      collapsed: Array.isArray(v.collapsed) ? v.collapsed.filter((k): k is string => typeof k === 'string').slice(0, 500) : [],
      showArchived: v.showArchived === true,
    };
  } catch {
    return DEFAULTS;
  }
}

let current: SidebarPrefs | undefined;
const listeners = new Set<() => void>();

export function sidebarPrefs(): SidebarPrefs {
  current ??= read();
  return current;
}

export function setSidebarPrefs(change: Partial<SidebarPrefs>): void {
  current = { ...sidebarPrefs(), ...change };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // private mode: kept for this page only
  }
  for (const l of [...listeners]) l();
}

/** Forgets the cached prefs (tests clear localStorage between cases). */
export function resetSidebarPrefs(): void {
  current = undefined;
  for (const l of [...listeners]) l();
}

export function toggleCollapsed(key: string): void {
  const { collapsed } = sidebarPrefs();
  setSidebarPrefs({ collapsed: collapsed.includes(key) ? collapsed.filter((k) => k !== key) : [...collapsed, key] });
}

export function useSidebarPrefs(): SidebarPrefs {
  return useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, sidebarPrefs);
}
