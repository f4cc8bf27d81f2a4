// Renders assistant Markdown (sanitized HTML, see lib/markdown.ts); links open outside the console.
import { memo } from 'react';
import { renderMarkdown } from '../../lib/markdown';
import { interceptLinks } from '../../lib/openLink';

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return <div className="markdown" onClick={interceptLinks} dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
});
