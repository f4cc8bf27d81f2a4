// What is attached to the prompt being written: images (fitted by attachImages.ts, shown as thumbnails until sent)
// and the errors of what could not be attached. Other files become @-mentions: a browser never tells a page where
// a dropped file lives, so the file is looked up by name in the session's folder and mentioned by its path there.
import { useEffect, useState } from 'react';
import { toApiError } from '../../protocol/api';
import type { PromptImage } from '../../protocol/api.gen';
import { useStore } from '../../store/hooks';
import { isImageType, prepareImage } from './attachImages';
import { loadDraftImages, saveDraftImages } from './draftStorage';

const MAX_IMAGES = 20;

export interface Attached {
  id: number;
  name: string;
  image: PromptImage;
  width: number;
  height: number;
}

export interface Attachments {
  images: readonly Attached[];
  errors: readonly string[];
  /** Attaches files; resolves to the paths (relative to the session's folder) of those to mention instead. */
  add(files: readonly File[]): Promise<string[]>;
  remove(id: number): void;
  dismissErrors(): void;
  clear(): void;
}

let nextId = 1;

/** The session's attachments; its unsent images are kept with its draft (draftStorage.ts). */
export function useAttachments(cwd: string, session: string): Attachments {
  const store = useStore();
  const [images, setImages] = useState<Attached[]>(() => loadDraftImages(session).map((d) => ({ id: nextId++, ...d })));
  useEffect(() => {
    saveDraftImages(
      session,
      images.map(({ name, image, width, height }) => ({ name, image, width, height })),
    );
  }, [session, images]);
  const [errors, setErrors] = useState<string[]>([]);

  const mentionPath = async (file: File): Promise<string> => {
    // The whole listing: a file missing from a partial one would be said not to be in the folder.
    const found = await store.lookups.findFiles(cwd, file.name, 50, true).catch((err: unknown) => {
      throw new Error(`${file.name} could not be looked up: ${toApiError(err).message}`);
    });
    const same = found.matches.filter((m) => !m.dir && (m.path === file.name || m.path.endsWith(`/${file.name}`)));
    const path = same[0]?.path;
    if (path === undefined) throw new Error(`${file.name} is not in this session’s folder (${cwd}); only files inside it can be mentioned.`);
    return path;
  };

  return {
    images,
    errors,
    async add(files) {
      const problems: string[] = [];
      const added: Attached[] = [];
      const mentions: string[] = [];
      for (const file of files) {
        if (isImageType(file.type) || file.type.startsWith('image/')) {
          const name = file.name !== '' ? file.name : 'The pasted image';
          if (images.length + added.length >= MAX_IMAGES) {
            problems.push(`${name} was not attached: a prompt carries at most ${MAX_IMAGES} images.`);
            continue;
          }
          const prepared = await prepareImage(file, name);
          if (prepared.ok) added.push({ id: nextId++, name, image: prepared.image, width: prepared.width, height: prepared.height });
          else problems.push(prepared.error);
          continue;
        }
        try {
          mentions.push(await mentionPath(file));
        } catch (err) {
          problems.push(err instanceof Error ? err.message : String(err));
        }
      }
      if (added.length > 0) setImages((now) => [...now, ...added]);
      setErrors(problems);
      return mentions;
    },
    remove(id) {
      setImages((now) => now.filter((a) => a.id !== id));
    },
    dismissErrors() {
      setErrors([]);
    },
    clear() {
      setImages([]);
      setErrors([]);
    },
  };
}
