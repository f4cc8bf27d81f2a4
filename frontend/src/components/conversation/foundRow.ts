// Which transcript row shows a history position (a search hit's): the history's events are folded again up to
// that position, noting the item each event made or changed. The fold is deterministic, so those keys are the
// loaded transcript's; an item that ended up nested (a subagent's work) shows in its top-level tool's row.
import { emptyTranscript, toolKey } from '../../store/transcript';
import { applyTranscriptEvent, REPLAY } from '../../store/transcriptFold';
import type { Item, ItemKey, SessionState, Transcript } from '../../store/types';

/** The items map of a fold that notes the last key it was given that it did not hold. */
class NotingMap extends Map<ItemKey, Item> {
  added: ItemKey | undefined;
  override set(key: ItemKey, value: Item): this {
    if (!this.has(key)) this.added = key;
    return super.set(key, value);
  }
}

/** The keys the events up to index made or changed, latest first. */
function keysUpTo(session: SessionState, index: number): ItemKey[] {
  const { events, transcript } = session.history;
  const t = emptyTranscript(transcript.prefix);
  const items = new NotingMap();
  t.items = items;
  const out: ItemKey[] = [];
  for (let i = 0; i <= index; i++) {
    const ev = events[i];
    if (ev === undefined) break;
    items.added = undefined;
    applyTranscriptEvent(t, ev, REPLAY);
    const tool = 'toolUseId' in ev && typeof ev.toolUseId === 'string' ? toolKey(t, ev.toolUseId) : undefined;
    const key = tool ?? items.added;
    if (key !== undefined) out.push(key);
  }
  return out.reverse();
}

/** Each nested item's parent, and the top-level rows. */
function parents(t: Transcript): Map<ItemKey, ItemKey> {
  const out = new Map<ItemKey, ItemKey>();
  for (const item of t.items.values()) if (item.type === 'tool') for (const child of item.children) out.set(child, item.key);
  return out;
}

function topRow(rows: ReadonlySet<ItemKey>, up: Map<ItemKey, ItemKey>, key: ItemKey): ItemKey | undefined {
  for (let k: ItemKey | undefined = key, guard = 0; k !== undefined && guard < 100; k = up.get(k), guard++) if (rows.has(k)) return k;
  return undefined;
}

/** The row showing history position `position` (a hit's; uuid its message's), or undefined while it is not loaded.
 * A position past the loaded history is in the live part: the row of that message, else the last one. */
export function rowAtPosition(session: SessionState, position: number, uuid?: string): ItemKey | undefined {
  const h = session.history;
  const index = position - h.start;
  if (index < 0) return undefined;
  if (index < h.events.length) {
    const rows = new Set(h.transcript.rows);
    const up = parents(h.transcript);
    for (const key of keysUpTo(session, index)) {
      const row = topRow(rows, up, key);
      if (row !== undefined) return row;
    }
    return h.transcript.rows[0];
  }
  const live = session.transcript;
  const mine =
    uuid === undefined
      ? undefined
      : live.rows.find((k) => {
          const item = live.items.get(k);
          return item !== undefined && 'uuid' in item && item.uuid === uuid;
        });
  return mine ?? live.rows[live.rows.length - 1] ?? h.transcript.rows[h.transcript.rows.length - 1];
}
