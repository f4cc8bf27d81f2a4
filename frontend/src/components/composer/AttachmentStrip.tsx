// The images attached to the prompt being written, as thumbnails with a remove button each, and what could not be
// attached, with why.
import type { Attachments } from './useAttachments';

export function AttachmentStrip({ attachments }: { attachments: Attachments }) {
  const { images, errors } = attachments;
  if (images.length === 0 && errors.length === 0) return null;
  return (
    <div className="attachments" data-testid="attachments">
      {images.length > 0 && (
        <ul className="attachment-list" aria-label="Attached images">
          {images.map((a) => (
            <li key={a.id} className="attachment" data-testid="attachment" title={`${a.name}, ${a.width}×${a.height} px`}>
              <img src={`data:${a.image.mediaType};base64,${a.image.data}`} alt={`${a.name}, attached`} />
              <button
                type="button"
                className="attachment-remove"
                aria-label={`Remove ${a.name}`}
                data-testid="attachment-remove"
                onClick={() => attachments.remove(a.id)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {errors.length > 0 && (
        <div className="attachment-errors" role="alert" data-testid="attachment-error">
          {errors.map((e) => (
            <div key={e}>{e}</div>
          ))}
          <button type="button" className="link" onClick={attachments.dismissErrors}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
