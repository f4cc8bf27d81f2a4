// Finds a transcript item by key in a session: history keys start with "h", live keys with "l".
import type { Item, ItemKey, SessionState } from '../../store/types';

export function lookupItem(session: SessionState | undefined, key: ItemKey): Item | undefined {
  if (session === undefined) return undefined;
  const t = key.startsWith(session.history.transcript.prefix) ? session.history.transcript : session.transcript;
  return t.items.get(key);
}
