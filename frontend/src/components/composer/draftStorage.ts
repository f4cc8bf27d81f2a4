// An unsent draft outlives switching sessions (the composer is remounted per session) and a reload: it is kept in
// localStorage, keyed by session, its text and its attached images apart. Storage that is full or switched off only
// loses the draft, never the prompt.
import type { PromptImage } from '../../protocol/api.gen';

const PREFIX = 'baton.draft.';
const IMAGES_PREFIX = 'baton.draft-images.';
/**
 * The most a draft's images may take, in characters of base64 (a browser keeps about 5 M characters per site for
 * all of it): the images past it stay attached until the composer goes, but are not kept.
 */
export const DRAFT_IMAGES_BUDGET = 1_500_000;

/** An attached image as a draft keeps it. */
export interface DraftImage {
  name: string;
  image: PromptImage;
  width: number;
  height: number;
}

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

export function loadDraftImages(session: string): DraftImage[] {
  try {
    const raw = storage()?.getItem(IMAGES_PREFIX + session);
    if (raw === null || raw === undefined) return [];
    const list: unknown = JSON.parse(raw);
    return Array.isArray(list) ? list.filter(isDraftImage) : [];
  } catch {
    return []; // damaged: the draft's images are gone, its text is not
  }
}

/** Keeps the images that fit DRAFT_IMAGES_BUDGET, in order; returns how many were kept. */
export function saveDraftImages(session: string, images: readonly DraftImage[]): number {
  const kept: DraftImage[] = [];
  let size = 0;
  for (const image of images) {
    size += image.image.data.length;
    if (size > DRAFT_IMAGES_BUDGET) break;
    kept.push(image);
  }
  try {
    if (kept.length === 0) storage()?.removeItem(IMAGES_PREFIX + session);
    else storage()?.setItem(IMAGES_PREFIX + session, JSON.stringify(kept));
    return kept.length;
  } catch {
    return 0; // full or denied
  }
}

function isDraftImage(v: unknown): v is DraftImage {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as Partial<DraftImage>;
  return (
    typeof d.name === 'string' &&
    typeof d.width === 'number' &&
    typeof d.height === 'number' &&
    typeof d.image?.data === 'string' &&
    ['image/png', 'image/jpeg', 'image/gif', 'image/webp'].includes(d.image.mediaType)
  );
}
