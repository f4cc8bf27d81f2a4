import { describe, expect, it } from 'vitest';
import { eventImages, promptContent } from '../../src/session/promptContent.js';

const PNG = { mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' };

describe('a prompt with images', () => {
  it('is its text alone without images', () => {
    expect(promptContent('hello', undefined)).toBe('hello');
    expect(promptContent('hello', [])).toBe('hello');
    expect(eventImages(undefined)).toEqual({});
  });

  it('sends image blocks before the text, and only images when there is no text', () => {
    expect(promptContent('what is this', [PNG])).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.data } },
      { type: 'text', text: 'what is this' },
    ]);
    expect(promptContent('', [PNG])).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.data } }]);
  });

  it('puts the images on turn.started with their decoded size', () => {
    expect(eventImages([PNG])).toEqual({ images: [{ mediaType: 'image/png', data: PNG.data, bytes: 8 }] });
  });
});
