// The sidebar's list: the SDK's sessions across projects, newest first, with the sessions open right now
// marked live (and listed even before their transcript exists), filtered by text and by project, and grouped by
// project or by date with pinned sessions on top and archived ones out of the way.
import type { SessionInfo } from '../protocol/api';
import type { ChangesUpdate } from '../protocol/api.gen';
import { isBusy, needsYou } from './sessionSignals';
import { byBranch, repositoryOf } from './worktreeGroups';
import type { ConsoleState, SessionState } from './types';

export interface SidebarEntry extends SessionInfo {
  /** Open but asleep: no process until its next prompt. */
  asleep: boolean;
  /** A request of the session waits for the person (until it is answered). */
  waiting: boolean;
  finished: boolean;
  /** A turn runs. */
  busy: boolean;
  /** The session this one was forked from (Baton's record, or the live session's own start). */
  forkOf?: string;
  /** An open session's change counts, as the host pushes them (its folder watched). */
  changes?: ChangesUpdate;
  /** In its own worktree with work its base lacks (committed or not), and idle: it can be landed. */
  landable?: boolean;
}

function basename(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}

export function projectName(cwd: string | undefined): string {
  return cwd === undefined || cwd === '' ? 'unknown project' : basename(cwd);
}

/** A prompt as a one-line title: Markdown marks and line breaks go (the host does the same for stored titles). */
export function plainLine(text: string): string {
  return text
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+(?:\[[ xX]\]\s+)?)/gm, '')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function firstPrompt(s: SessionState): string | undefined {
  for (const id of s.turnOrder) {
    const prompt = s.turns.get(id)?.prompt;
    if (prompt !== undefined && prompt !== '') return prompt;
  }
  return undefined;
}

function titleOf(s: SessionState): string {
  const prompt = firstPrompt(s);
  return s.title ?? (prompt !== undefined ? plainLine(prompt) : `New session in ${projectName(s.cwd)}`);
}

export function sidebarEntries(state: ConsoleState): SidebarEntry[] {
  const seen = new Set<string>();
  const out: SidebarEntry[] = [];
  const mark = (id: string) => {
    const s = state.sessions[id];
    const waiting = needsYou(s) || state.marks[id] === 'permission';
    const busy = isBusy(s);
    const changes = state.changes[id];
    return {
      waiting,
      finished: state.marks[id] === 'finished',
      busy,
      landable: changes !== undefined && readyToLand(changes) && !busy && !waiting,
      ...(changes !== undefined ? { changes } : {}),
    };
  };
  for (const info of state.sidebar.items) {
    seen.add(info.session);
    const s = state.sessions[info.session];
    const live = s !== undefined ? s.live : info.live;
    // The listing is re-read after every turn and every rename, so it is the latest word on the title; a live
    // session's own title (read when it opened) fills in until the listing has one.
    // A fork's own name ("Fork of …") wins over the listing's, which repeats the parent's first prompt.
    const forkName = s?.forkedFrom !== undefined ? s.title : undefined;
    const title =
      forkName ?? (info.title !== '' ? info.title : (s?.title ?? (info.firstPrompt !== undefined ? plainLine(info.firstPrompt) : info.session.slice(0, 8))));
    const forkOf = info.forkOf ?? s?.forkedFrom;
    out.push({ ...info, title, live, asleep: s?.live === true && s.sleep === 'asleep', ...(forkOf !== undefined ? { forkOf } : {}), ...mark(info.session) });
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
      pinned: false,
      archived: false,
      asleep: s.sleep === 'asleep',
      ...(prompt !== undefined ? { firstPrompt: prompt } : {}),
      ...(s.forkedFrom !== undefined ? { forkOf: s.forkedFrom } : {}),
      ...mark(s.id),
    });
  }
  return [...extra, ...out];
}

/** Whether a session's changes are work to land: in its own worktree (not a stale one), some files changed. */
export function readyToLand(c: ChangesUpdate): boolean {
  return c.worktree && !c.missing && c.files > 0;
}

/** A session's change counts as the sidebar shows them ("" for none to show). */
export function changeCounts(c: ChangesUpdate | undefined): string {
  if (c === undefined || c.files === 0) return '';
  return `+${c.added} −${c.deleted}`;
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

/** Recent folders, most recently used first: the new-session dialog offers them. */
export function recentFolders(entries: readonly SessionInfo[], limit = 8): string[] {
  const out: string[] = [];
  for (const e of [...entries].sort((a, b) => b.lastModified - a.lastModified)) {
    if (e.cwd === undefined || e.cwd === '' || out.includes(e.cwd)) continue;
    out.push(e.cwd);
    if (out.length >= limit) break;
  }
  return out;
}

/** A branch worth showing: Claude Code records "HEAD" (or nothing) for a folder that is not a git repository. */
export function shownBranch(branch: string | undefined): string | undefined {
  return branch === undefined || branch === '' || branch === 'HEAD' ? undefined : branch;
}

export type GroupBy = 'project' | 'date';

export interface SidebarGroup {
  /** Stable across refreshes: what a collapsed group is remembered by. */
  key: string;
  label: string;
  /** The full path of a project group. */
  hint?: string;
  entries: SidebarEntry[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The date group of a time, relative to now (local days). */
export function dateGroup(ms: number, now: number): { key: string; label: string } {
  const today = startOfDay(now);
  if (ms >= today) return { key: 'date:today', label: 'Today' };
  if (ms >= today - DAY_MS) return { key: 'date:yesterday', label: 'Yesterday' };
  if (ms >= today - 7 * DAY_MS) return { key: 'date:week', label: 'Previous 7 days' };
  if (ms >= today - 30 * DAY_MS) return { key: 'date:month', label: 'Previous 30 days' };
  return { key: 'date:older', label: 'Older' };
}

/** Project labels: the folder's name, with its parent when two projects share a name. */
function projectLabels(cwds: readonly string[]): Map<string, string> {
  const byName = new Map<string, string[]>();
  for (const cwd of cwds) {
    const name = projectName(cwd);
    byName.set(name, [...(byName.get(name) ?? []), cwd]);
  }
  const labels = new Map<string, string>();
  for (const [name, list] of byName) {
    for (const cwd of list) {
      if (list.length === 1 || cwd === '') labels.set(cwd, name);
      else {
        const parts = cwd.split(/[\\/]/).filter((p) => p !== '');
        labels.set(cwd, `${name} — ${parts[parts.length - 2] ?? '/'}`);
      }
    }
  }
  return labels;
}

/**
 * The groups the sidebar shows, in order: "Pinned" (when any), then one group per project (most recently active
 * first) or per date (Today, Yesterday, Previous 7 days, Previous 30 days, Older), then "Archived" when asked
 * for. Archived sessions appear only there, pinned ones only in "Pinned"; each group keeps the list's order
 * (newest first). Empty groups are left out.
 */
export function groupEntries(entries: readonly SidebarEntry[], by: GroupBy, now: number, showArchived: boolean): SidebarGroup[] {
  const pinned: SidebarEntry[] = [];
  const archived: SidebarEntry[] = [];
  const groups = new Map<string, SidebarGroup>();
  const labels = projectLabels([...new Set(entries.map((e) => repositoryOf(e.cwd) ?? ''))]);
  for (const e of entries) {
    if (e.archived === true && !e.live) {
      archived.push(e);
      continue;
    }
    if (e.pinned === true) {
      pinned.push(e);
      continue;
    }
    const { key, label, hint } =
      by === 'project'
        ? { key: `project:${repositoryOf(e.cwd) ?? ''}`, label: labels.get(repositoryOf(e.cwd) ?? '') ?? projectName(e.cwd), hint: repositoryOf(e.cwd) }
        : { ...dateGroup(e.live ? now : e.lastModified, now), hint: undefined };
    let group = groups.get(key);
    if (group === undefined) {
      group = { key, label, ...(hint !== undefined && hint !== '' ? { hint } : {}), entries: [] };
      groups.set(key, group);
    }
    group.entries.push(e);
  }
  const out: SidebarGroup[] = [];
  if (pinned.length > 0) out.push({ key: 'pinned', label: 'Pinned', entries: pinned });
  // Maps keep insertion order: project groups come out most recently active first, date groups newest first.
  for (const g of groups.values()) out.push(by === 'project' ? { ...g, entries: byBranch(g.entries) } : g);
  if (showArchived && archived.length > 0) out.push({ key: 'archived', label: 'Archived', entries: archived });
  return out;
}

/** How many sessions are archived (the sidebar's "Show archived" says so). */
export function archivedCount(entries: readonly SidebarEntry[]): number {
  return entries.filter((e) => e.archived === true && !e.live).length;
}
