// Images pasted, dropped or picked into the composer, fitted to what the Messages API takes: PNG, JPEG, GIF or
// WebP; larger than 1568 px on the long edge or 1.15 megapixels is scaled down (the API would scale it itself, only
// slower); each at most 5 MB once encoded. An image already within the limits is sent as it is (a GIF keeps its
// animation). What cannot be sent says why, naming the file.
import type { PromptImage } from '../../protocol/api.gen';

export const IMAGE_TYPES: readonly PromptImage['mediaType'][] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const MAX_EDGE = 1568;
export const MAX_PIXELS = 1_150_000;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Beyond this the API refuses an image outright; Baton refuses it before scaling anything that large. */
const MAX_SOURCE_EDGE = 8000 * 4;

export type Prepared = { ok: true; image: PromptImage; width: number; height: number } | { ok: false; error: string };

export function isImageType(type: string): type is PromptImage['mediaType'] {
  return (IMAGE_TYPES as readonly string[]).includes(type);
}

/** The size to scale (width, height) to, or undefined when it is within the limits already. */
export function fittedSize(width: number, height: number): { width: number; height: number } | undefined {
  const scale = Math.min(1, MAX_EDGE / Math.max(width, height), Math.sqrt(MAX_PIXELS / (width * height)));
  if (scale >= 1) return undefined;
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

export async function prepareImage(file: Blob, name: string): Promise<Prepared> {
  const type = file.type;
  if (!isImageType(type)) return { ok: false, error: `${name} is ${type === '' ? 'of an unknown type' : type}; Claude reads PNG, JPEG, GIF and WebP images.` };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { ok: false, error: `${name} could not be read as an image.` };
  }
  try {
    const { width, height } = bitmap;
    if (width > MAX_SOURCE_EDGE || height > MAX_SOURCE_EDGE) return { ok: false, error: `${name} is ${width}×${height} px, too large to scale down here.` };
    const fit = fittedSize(width, height);
    if (fit === undefined && file.size <= MAX_IMAGE_BYTES) return { ok: true, image: { mediaType: type, data: await base64(file) }, width, height };
    const size = fit ?? { width, height };
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const g = canvas.getContext('2d');
    if (g === null) return { ok: false, error: `${name} could not be scaled down here.` };
    g.drawImage(bitmap, 0, 0, size.width, size.height);
    // A GIF is re-encoded as PNG (canvases do not write GIF); if the result is still too large, as JPEG.
    const first: PromptImage['mediaType'] = type === 'image/gif' ? 'image/png' : type;
    for (const [as, quality] of [
      [first, 0.9],
      ['image/jpeg', 0.85],
      ['image/jpeg', 0.7],
    ] as const) {
      const blob = await encode(canvas, as, quality);
      if (blob !== null && blob.type === as && blob.size <= MAX_IMAGE_BYTES) return { ok: true, image: { mediaType: as, data: await base64(blob) }, ...size };
    }
    return { ok: false, error: `${name} stays over 5 MB even scaled down; Claude takes images up to 5 MB.` };
  } finally {
    bitmap.close();
  }
}

function encode(canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

async function base64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}
