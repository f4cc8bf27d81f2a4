// The files a paste carries. Browsers list a copied file in clipboardData.files, some only as an item of kind
// "file". WebKitGTK (the window) gives a paste of an image alone (a screenshot, `xclip -t image/png`) an empty
// clipboardData; its asynchronous clipboard (navigator.clipboard.read) holds the image (scripts/window-smoke).

/** What pastedFiles reads of a paste's DataTransfer. */
export interface PastedData {
  readonly files: ArrayLike<File>;
  readonly items?: ArrayLike<{ readonly kind: string; readonly type: string; getAsFile(): File | null }>;
}

/** The pasted files: clipboardData.files, else its items of kind "file" (one copy each, never both lists). */
export function pastedFiles(data: PastedData): File[] {
  const files = Array.from(data.files);
  if (files.length > 0 || data.items === undefined) return files;
  return Array.from(data.items).flatMap((item) => {
    if (item.kind !== 'file') return [];
    const file = item.getAsFile();
    return file !== null ? [file] : [];
  });
}

/** What clipboardImages reads of navigator.clipboard. */
export interface AsyncClipboard {
  read?(): Promise<ReadonlyArray<{ readonly types: readonly string[]; getType(type: string): Promise<Blob> }>>;
}

/** Whether a paste event listed nothing at all: the window's WebKitGTK, pasting an image alone. */
export function pastedNothing(data: { readonly types: readonly string[] }): boolean {
  return data.types.length === 0;
}

/** The images on the clipboard, read asynchronously; none when it cannot be read (no API, refused). */
export async function clipboardImages(clipboard: AsyncClipboard | undefined): Promise<File[]> {
  if (clipboard?.read === undefined) return [];
  try {
    const items = await clipboard.read();
    const files: File[] = [];
    for (const item of items) {
      const type = item.types.find((t) => t.startsWith('image/'));
      if (type === undefined) continue;
      const blob = await item.getType(type);
      files.push(new File([blob], `pasted.${type.slice('image/'.length)}`, { type }));
    }
    return files;
  } catch {
    return [];
  }
}
