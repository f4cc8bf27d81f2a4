// An unsent draft outlives switching sessions (the composer is remounted per session) and a reload: it is kept in
// localStorage, keyed by session. Storage that is full or switched off only loses the draft, never the prompt.
const PREFIX = 'baton.draft.';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // a sandboxed frame without storage
  }
}

export function loadDraft(session: string): string {
  try {
    return storage()?.getItem(PREFIX + session) ?? '';
  } catch {
    return '';
  }
}

export function saveDraft(session: string, text: string): void {
  try {
    if (text === '') storage()?.removeItem(PREFIX + session);
    else storage()?.setItem(PREFIX + session, text);
  } catch {
    // full or denied: the draft lives as long as the composer does
  }
}
