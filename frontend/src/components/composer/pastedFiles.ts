// The files a paste carries. Browsers list a copied file in clipboardData.files; WebKitGTK (the window) lists an
// image put on the clipboard (a screenshot, `xclip -t image/png`) only as an item of kind "file".

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
