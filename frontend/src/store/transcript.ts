// A transcript's mutable operations, used only on a draft (see `draftTranscript`): the fold copies the
// containers once per batch of events, then mutates the copy, so folding 10,000 events costs O(n), not O(n²).
import type { Item, ItemKey, ToolItem, Transcript } from './types';

export function emptyTranscript(prefix: string): Transcript {
  return { prefix, rows: [], items: new Map(), streams: new Map(), ids: new Map(), files: new Map(), counter: 0 };
}

/** A copy whose containers may be mutated without touching `t`. Items stay shared (they are immutable). */
export function draftTranscript(t: Transcript): Transcript {
  return {
    prefix: t.prefix,
    rows: t.rows.slice(),
    items: new Map(t.items),
    streams: new Map(t.streams),
    ids: new Map(t.ids),
    files: new Map(t.files),
    counter: t.counter,
  };
}

export function newKey(t: Transcript, kind: string): ItemKey {
  t.counter++;
  return `${t.prefix}${kind}${t.counter}`;
}

export function getItem(t: Transcript, key: ItemKey | undefined): Item | undefined {
  return key === undefined ? undefined : t.items.get(key);
}

export function toolKey(t: Transcript, toolUseId: string): ItemKey | undefined {
  return t.ids.get(`tool:${toolUseId}`);
}

export function getTool(t: Transcript, toolUseId: string): ToolItem | undefined {
  const item = getItem(t, toolKey(t, toolUseId));
  return item?.type === 'tool' ? item : undefined;
}

/** Adds an item at the end: under its parent tool when that call is known, else as a top-level row. */
export function addItem(t: Transcript, item: Item, parentToolUseId?: string): void {
  t.items.set(item.key, item);
  const parent = parentToolUseId !== undefined ? getTool(t, parentToolUseId) : undefined;
  if (parent !== undefined) {
    t.items.set(parent.key, { ...parent, children: [...parent.children, item.key] });
  } else {
    t.rows.push(item.key);
  }
}

/** How far back addByTime looks: what is read after the fact is seconds late, a few rows. */
const BY_TIME_REACH = 200;

/**
 * Adds a top-level row where its time puts it among the newest rows (of its own turn, when it names one): for what
 * is read after the fact (a goal status Claude Code filed during the turn), so it shows in the order it happened.
 */
export function addByTime(t: Transcript, item: Item): void {
  t.items.set(item.key, item);
  const at = Date.parse(item.time);
  const stop = Math.max(0, t.rows.length - BY_TIME_REACH);
  let i = t.rows.length;
  while (i > stop) {
    const prev = t.items.get(t.rows[i - 1] ?? '');
    if (prev === undefined || (item.turn !== undefined && prev.turn !== item.turn) || !(Date.parse(prev.time) > at)) break;
    i--;
  }
  t.rows.splice(i, 0, item.key);
}

export function replaceItem(t: Transcript, item: Item): void {
  t.items.set(item.key, item);
}

/** Moves a top-level item under a parent tool (a subagent's reply, recognized only when it completes). */
export function moveUnder(t: Transcript, key: ItemKey, parentToolUseId: string): void {
  const parent = getTool(t, parentToolUseId);
  if (parent === undefined || parent.children.includes(key)) return;
  const at = t.rows.lastIndexOf(key);
  if (at >= 0) t.rows.splice(at, 1);
  t.items.set(parent.key, { ...parent, children: [...parent.children, key] });
}

/** Removes an item that should not last (a stream that never completed). */
export function removeItem(t: Transcript, key: ItemKey): void {
  t.items.delete(key);
  const at = t.rows.lastIndexOf(key);
  if (at >= 0) {
    t.rows.splice(at, 1);
    return;
  }
  for (const [parentKey, parent] of t.items) {
    if (parent.type === 'tool' && parent.children.includes(key)) {
      t.items.set(parentKey, { ...parent, children: parent.children.filter((k) => k !== key) });
      return;
    }
  }
}
