// Copies a message's text (the prompt as typed, the reply as Markdown source).
import { copyText, flashCopied } from '../../lib/clipboard';

export function CopyButton({ text, what }: { text: string; what: string }) {
  return (
    <button
      type="button"
      className="link"
      title={`Copy the ${what}`}
      data-testid="copy-message"
      onClick={(e) => {
        const button = e.currentTarget;
        void copyText(text).then((ok) => flashCopied(button, ok));
      }}
    >
      Copy
    </button>
  );
}
