// A prompt's or a tool's images: thumbnails from their own data, each enlarged on a click in an overlay (Escape
// or Close ends it and focus goes back to the thumbnail); an image that is not shown is a placeholder saying its
// type and size (lib/images.ts).
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { formatBytes } from '../../lib/format';
import { imageFacts, imageSource, notShownReason } from '../../lib/images';
import type { Image } from '../../protocol/wire.gen';
import { Modal } from '../dialogs/Modal';

export function Thumbnails({ images, of }: { images: readonly Image[]; of: string }) {
  const [open, setOpen] = useState<number | undefined>(undefined);
  const shown = open !== undefined ? images[open] : undefined;
  const source = shown !== undefined ? imageSource(shown) : undefined;
  const alt = (image: Image, i: number) => `Image ${i + 1} of ${of} (${imageFacts(image)})`;
  return (
    <div className="thumbnails" data-testid="thumbnails">
      {images.map((image, i) => {
        const src = imageSource(image);
        const key = `${i}:${image.mediaType}:${image.bytes}`;
        if (src === undefined) {
          return (
            <div
              key={key}
              className="thumb thumb-missing"
              role="img"
              aria-label={`${alt(image, i)}, not shown: ${notShownReason(image)}`}
              data-testid="image-placeholder"
            >
              <span className="thumb-type">{image.mediaType}</span>
              <span>{formatBytes(image.bytes)}</span>
            </div>
          );
        }
        return (
          <button key={key} type="button" className="thumb" title="Enlarge" onClick={() => setOpen(i)}>
            <img src={src} alt={alt(image, i)} />
          </button>
        );
      })}
      {shown !== undefined &&
        open !== undefined &&
        source !== undefined &&
        createPortal(
          <Modal title={alt(shown, open)} onClose={() => setOpen(undefined)} labelledBy="image-viewer-title" className="image-viewer">
            <button type="button" className="image-viewer-close" onClick={() => setOpen(undefined)}>
              Close
            </button>
            <img className="image-full" src={source} alt={alt(shown, open)} />
          </Modal>,
          document.body,
        )}
    </div>
  );
}
