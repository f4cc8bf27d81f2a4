import { beforeEach, describe, expect, it } from 'vitest';
import { DRAFT_IMAGES_BUDGET, loadDraftImages, saveDraftImages } from '../src/components/composer/draftStorage';

const image = (name: string, chars: number) => ({ name, image: { mediaType: 'image/png' as const, data: 'A'.repeat(chars) }, width: 4, height: 3 });

describe("a draft's attached images", () => {
  beforeEach(() => localStorage.clear());

  it('are kept per session and come back in order', () => {
    expect(saveDraftImages('s1', [image('a.png', 8), image('b.png', 8)])).toBe(2);
    expect(loadDraftImages('s1').map((d) => d.name)).toEqual(['a.png', 'b.png']);
    expect(loadDraftImages('s2')).toEqual([]);
  });

  it('are bounded: those past the budget are not kept, and none leaves no entry', () => {
    expect(saveDraftImages('s1', [image('a.png', DRAFT_IMAGES_BUDGET - 10), image('b.png', 20), image('c.png', 5)])).toBe(1);
    expect(loadDraftImages('s1').map((d) => d.name)).toEqual(['a.png']);
    saveDraftImages('s1', []);
    expect(localStorage.length).toBe(0);
  });

  it('read nothing from a damaged entry', () => {
    localStorage.setItem('baton.draft-images.s1', '[{"name":1}');
    expect(loadDraftImages('s1')).toEqual([]);
    localStorage.setItem('baton.draft-images.s1', JSON.stringify([{ name: 'x', width: 1, height: 1, image: { mediaType: 'image/bmp', data: 'x' } }]));
    expect(loadDraftImages('s1')).toEqual([]);
  });
});
