// Which transcript images the console shows from their own data, and how it names them.
import { describe, expect, it } from 'vitest';
import { imageFacts, imageSource, notShownReason } from '../src/lib/images';

describe('transcript images', () => {
  it('shows PNG, JPEG, GIF and WebP from their base64 data only', () => {
    for (const mediaType of ['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
      expect(imageSource({ mediaType, data: 'AAAA', bytes: 3 })).toBe(`data:${mediaType};base64,AAAA`);
    expect(imageSource({ mediaType: 'image/svg+xml', data: 'PHN2Zy8+', bytes: 6 })).toBeUndefined();
    expect(imageSource({ mediaType: 'image/png', bytes: 9_000_000 })).toBeUndefined();
    // Data that is not base64 cannot become part of the URI.
    expect(imageSource({ mediaType: 'image/png', data: 'AAAA");background:url(http://x', bytes: 3 })).toBeUndefined();
  });

  it('names an image by its type and size, and says why it is not shown', () => {
    expect(imageFacts({ mediaType: 'image/jpeg', bytes: 2048 })).toBe('JPEG, 2.0 KB');
    expect(notShownReason({ mediaType: 'image/png', bytes: 9_000_000 })).toBe('too large to show here');
    expect(notShownReason({ mediaType: 'image/tiff', data: 'AAAA', bytes: 3 })).toBe('this type is not shown');
    expect(notShownReason({ mediaType: 'image/png', data: '%%', bytes: 3 })).toBe('its data could not be read');
  });
});
