// Which panels each session showed (terminal, changes, checklist) and its terminal tab in front, remembered per
// browser profile (localStorage), so a reload shows the session as it was left. Bounded: the sessions touched
// last are kept. Storage that is full or switched off only forgets, never breaks a panel.
const KEY = 'baton.panels';
/** How many sessions' panels are remembered; the ones touched longest ago are forgotten first. */
export const MAX_REMEMBERED = 200;

export type PanelName = 'terminal' | 'changes' | 'checklist';

interface SessionPanels {
  open: PanelName[];
  tab?: string;
}

const PANELS: readonly PanelName[] = ['terminal', 'changes', 'checklist'];

function read(): Map<string, SessionPanels> {
  const out = new Map<string, SessionPanels>();
  try {
    const raw = localStorage.getItem(KEY);
    if (raw === null) return out;
    const v: unknown = JSON.parse(raw);
    if (typeof v !== 'object' || v === null) return out;
    for (const [session, p] of Object.entries(v as Record<string, unknown>)) {
      if (typeof p !== 'object' || p === null) continue;
      const { open, tab } = p as { open?: unknown; tab?: unknown };
      const names = Array.isArray(open) ? PANELS.filter((n) => open.includes(n)) : [];
      out.set(session, typeof tab === 'string' ? { open: names, tab } : { open: names });
    }
  } catch {
    // unreadable: start afresh
  }
  return out;
}

let memory: Map<string, SessionPanels> | undefined;

function all(): Map<string, SessionPanels> {
  memory ??= read();
  return memory;
}

function update(session: string, change: (p: SessionPanels) => SessionPanels): void {
  const m = all();
  const next = change(m.get(session) ?? { open: [] });
  m.delete(session); // re-inserted last: a Map keeps insertion order, the oldest first
  if (next.open.length > 0 || next.tab !== undefined) m.set(session, next);
  while (m.size > MAX_REMEMBERED) {
    const oldest = m.keys().next().value;
    if (oldest === undefined) break;
    m.delete(oldest);
  }
  try {
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(m)));
  } catch {
    // private mode or storage full: kept for this page only
  }
}

export function panelRemembered(session: string, panel: PanelName): boolean {
  return all().get(session)?.open.includes(panel) ?? false;
}

export function rememberPanel(session: string, panel: PanelName, open: boolean): void {
  if (panelRemembered(session, panel) === open) return;
  update(session, (p) => ({ ...p, open: open ? [...p.open, panel] : p.open.filter((n) => n !== panel) }));
}

/** The sessions whose panel was open when the page was left. */
export function sessionsWithPanel(panel: PanelName): string[] {
  return [...all()].filter(([, p]) => p.open.includes(panel)).map(([s]) => s);
}

/** The terminal tab the session showed in front, if any. */
export function rememberedTab(session: string): string | undefined {
  return all().get(session)?.tab;
}

export function rememberTab(session: string, terminal: string | undefined): void {
  if (rememberedTab(session) === terminal) return;
  update(session, (p) => (terminal === undefined ? { open: p.open } : { ...p, tab: terminal }));
}

/** Forgets the cached memory (tests clear localStorage between cases). */
export function resetPanelMemory(): void {
  memory = undefined;
}
