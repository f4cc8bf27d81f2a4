// The sidebar's list: the SDK's sessions across projects, newest first, with the sessions open right now
// marked live (and listed even before their transcript exists), filtered by text and by project.
import type { SessionInfo } from '../protocol/api';
import type { ConsoleState, SessionState } from './types';

export interface SidebarEntry extends SessionInfo {
  /** Open but asleep: no process until its next prompt. */
  asleep: boolean;
  waiting: boolean;
  finished: boolean;
}

function basename(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}

export function projectName(cwd: string | undefined): string {
  return cwd === undefined || cwd === '' ? 'unknown project' : basename(cwd);
}

function firstPrompt(s: SessionState): string | undefined {
  for (const id of s.turnOrder) {
    const prompt = s.turns.get(id)?.prompt;
    if (prompt !== undefined && prompt !== '') return prompt;
  }
  return undefined;
}

function titleOf(s: SessionState): string {
  return s.title ?? firstPrompt(s) ?? `New session in ${projectName(s.cwd)}`;
}

export function sidebarEntries(state: ConsoleState): SidebarEntry[] {
  const seen = new Set<string>();
  const out: SidebarEntry[] = [];
  const mark = (id: string) => ({ waiting: state.marks[id] === 'permission', finished: state.marks[id] === 'finished' });
  for (const info of state.sidebar.items) {
    seen.add(info.session);
    const s = state.sessions[info.session];
    const live = s !== undefined ? s.live : info.live;
    const title = s?.title ?? (info.title !== '' ? info.title : (info.firstPrompt ?? info.session.slice(0, 8)));
    out.push({ ...info, title, live, asleep: s?.live === true && s.sleep === 'asleep', ...mark(info.session) });
  }
  const extra: SidebarEntry[] = [];
  for (const s of Object.values(state.sessions)) {
    if (seen.has(s.id) || !s.live) continue;
    const prompt = firstPrompt(s);
    extra.push({
      session: s.id,
      title: titleOf(s),
      cwd: s.cwd,
      lastModified: Date.now(),
      live: true,
      asleep: s.sleep === 'asleep',
      ...(prompt !== undefined ? { firstPrompt: prompt } : {}),
      ...mark(s.id),
    });
  }
  return [...extra, ...out];
}

export interface SidebarFilter {
  text: string;
  /** A cwd, or '' for every project. */
  project: string;
}

export function filterEntries(entries: readonly SidebarEntry[], filter: SidebarFilter): SidebarEntry[] {
  const needle = filter.text.trim().toLowerCase();
  return entries.filter((e) => {
    if (filter.project !== '' && e.cwd !== filter.project) return false;
    if (needle === '') return true;
    return [e.title, e.firstPrompt ?? '', e.cwd ?? '', e.gitBranch ?? '', e.session].some((v) => v.toLowerCase().includes(needle));
  });
}

/** Every project (cwd) in the list, by name. */
export function projects(entries: readonly SidebarEntry[]): string[] {
  const set = new Set<string>();
  for (const e of entries) if (e.cwd !== undefined && e.cwd !== '') set.add(e.cwd);
  return [...set].sort((a, b) => projectName(a).localeCompare(projectName(b)));
}
