// Images from a transcript (a pasted screenshot, a tool's returned image): shown only from their own data, as a
// data: URI (the CSP's img-src allows it), never fetched. Only the raster types browsers decode without running
// anything are shown; SVG (which can script) and every other type get a placeholder, as does an image whose data
// the wire left out (larger than it carries).
import type { Image } from '../protocol/wire.gen';
import { formatBytes } from './format';

export const SHOWN_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The data: URI to show the image from, or undefined when it is not shown (no data, another type, not base64). */
export function imageSource(image: Image): string | undefined {
  if (image.data === undefined || image.data === '' || !SHOWN_IMAGE_TYPES.includes(image.mediaType)) return undefined;
  if (!BASE64.test(image.data)) return undefined;
  return `data:${image.mediaType};base64,${image.data}`;
}

/** "PNG, 8.6 MB": the image's type and size, for its alt text and its placeholder. */
export function imageFacts(image: Image): string {
  const type = image.mediaType.startsWith('image/') ? image.mediaType.slice('image/'.length).toUpperCase() : image.mediaType;
  return `${type}, ${formatBytes(image.bytes)}`;
}

/** Why an image is not shown, in words. */
export function notShownReason(image: Image): string {
  if (image.data === undefined || image.data === '') return 'too large to show here';
  if (!SHOWN_IMAGE_TYPES.includes(image.mediaType)) return 'this type is not shown';
  return 'its data could not be read';
}
