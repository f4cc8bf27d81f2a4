// A prompt with images reaches the SDK as text then image blocks; without, as the plain text it always was.
import { describe, expect, it } from 'vitest';
import { promptContent } from '../../src/session/promptContent.js';

describe('promptContent', () => {
  it('is the text alone when there is no image', () => {
    expect(promptContent({ prompt: 'hello' })).toBe('hello');
    expect(promptContent({ prompt: 'hello', images: [] })).toBe('hello');
  });

  it('puts the images after the text as base64 blocks', () => {
    expect(promptContent({ prompt: 'look', images: [{ mediaType: 'image/png', data: 'AAAA' }] })).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
    ]);
    expect(promptContent({ prompt: '', images: [{ mediaType: 'image/webp', data: 'BBBB' }] })).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'BBBB' } },
    ]);
  });
});
