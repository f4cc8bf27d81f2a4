// Renders assistant Markdown (sanitized HTML, see lib/markdown.ts); links open outside the console, a code
// block's Copy button copies its code.
import { memo, type MouseEvent } from 'react';
import { copyText, flashCopied } from '../../lib/clipboard';
import { renderMarkdown } from '../../lib/markdown';
import { interceptLinks } from '../../lib/openLink';

function onClick(ev: MouseEvent<HTMLDivElement>): void {
  const copy = ev.target instanceof Element ? ev.target.closest('button.code-copy') : null;
  if (copy instanceof HTMLElement) {
    ev.preventDefault();
    const code = copy.closest('.code-block')?.querySelector('pre code, pre')?.textContent ?? '';
    void copyText(code).then((ok) => flashCopied(copy, ok));
    return;
  }
  interceptLinks(ev);
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown's HTML is sanitized (lib/inert.ts).
  // biome-ignore lint/a11y/noStaticElementInteractions: the click is the links' (delegated); a link takes the keyboard itself.
  // biome-ignore lint/a11y/useKeyWithClickEvents: as above; Enter on a focused link clicks it.
  return <div className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
});
