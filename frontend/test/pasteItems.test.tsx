// Pasting an image listed only as a clipboard item of kind "file" (clipboardData.files empty), or, as the window's
// WebKitGTK does for an image alone, with an empty clipboardData and the image on the asynchronous clipboard: the
// composer attaches it as it does a pasted file (issue 28, item 2; scripts/window-smoke saw no thumbnail).
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pastedFiles } from '../src/components/composer/pastedFiles';
import { settle } from './fakeTransport';
import { renderComposer } from './renderComposer';

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'image.png', { type: 'image/png' });
const item = (kind: string, type: string, file: File | null) => ({ kind, type, getAsFile: () => file });

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('pasted files', () => {
  it('reads the items of kind "file" when the files list is empty', () => {
    const image = png();
    const files = pastedFiles({ files: [], items: [item('string', 'text/html', null), item('file', 'image/png', image)] });
    expect(files).toEqual([image]);
  });

  it('takes the files list when it has them, never both copies', () => {
    const image = png();
    expect(pastedFiles({ files: [image], items: [item('file', 'image/png', image)] })).toEqual([image]);
    expect(pastedFiles({ files: [] })).toEqual([]);
  });

  it('shows a thumbnail for an image pasted only as a clipboard item', async () => {
    await pasteShows({ files: [], items: [item('file', 'image/png', png())], types: ['Files'], getData: () => '' });
  });

  it("shows a thumbnail for an image WebKitGTK's paste leaves on the asynchronous clipboard only", async () => {
    const read = async () => [{ types: ['image/png'], getType: async () => png() }];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { read } });
    try {
      await pasteShows({ files: [], items: [], types: [], getData: () => '' });
    } finally {
      Reflect.deleteProperty(navigator, 'clipboard');
    }
  });
});

/** Pastes clipboardData into a session's composer and checks one thumbnail shows, with no error. */
async function pasteShows(clipboardData: object): Promise<void> {
  // jsdom decodes no images: the bitmap a browser reads of a small PNG.
  vi.stubGlobal('createImageBitmap', async () => ({ width: 40, height: 30, close: () => undefined }));
  const { input } = await renderComposer();
  await act(async () => {
    fireEvent.paste(input, { clipboardData });
    await settle();
  });
  expect(screen.queryByTestId('attachment-error')).toBeNull();
  expect(screen.getAllByTestId('attachment')).toHaveLength(1);
}
