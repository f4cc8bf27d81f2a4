// What the "Jump to latest" button counts: the messages (prompts and replies) that arrived below the view since
// the person scrolled away from the bottom. Rows are counted after the last row there was then, so older history
// prepended above meanwhile does not count.
import type { ItemKey } from '../../store/types';

export function countNewMessages(keys: readonly ItemKey[], lastSeen: ItemKey | undefined, isMessage: (key: ItemKey) => boolean): number {
  const from = lastSeen === undefined ? 0 : keys.lastIndexOf(lastSeen) + 1;
  // A last-seen row no longer there (a rewind dropped it): nothing counts as new.
  if (lastSeen !== undefined && from === 0) return 0;
  let n = 0;
  for (let i = from; i < keys.length; i++) {
    const key = keys[i];
    if (key !== undefined && isMessage(key)) n++;
  }
  return n;
}

/** The button's words. */
export function jumpLabel(count: number): string {
  if (count === 0) return 'Jump to latest';
  return `Jump to latest · ${count} new ${count === 1 ? 'message' : 'messages'}`;
}
