// Assistant text → safe HTML: Markdown (marked, GitHub flavour) with highlighted code, then sanitized
// (DOMPurify, see lib/inert.ts), because the agent's text can hold any HTML and the window can call into Go.
import { Marked } from 'marked';
import { escapeHtml, highlight, languageFor } from './highlight';
import { sanitizeInert } from './inert';

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    code({ text, lang }) {
      const language = languageFor(lang?.trim().split(/\s+/)[0]);
      const cls = language !== undefined ? ` class="hljs language-${escapeHtml(language)}"` : ' class="hljs"';
      return `<pre><code${cls}>${highlight(text, language)}</code></pre>\n`;
    },
  },
});

const cache = new Map<string, string>();
const CACHE_LIMIT = 400;

/** Sanitized HTML for a Markdown text; cached, since scrolling a long transcript renders rows again. */
export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const html = sanitizeInert(marked.parse(text) as string);
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(text, html);
  return html;
}
