// Assistant text → safe HTML: Markdown (marked, GitHub flavour) with highlighted code, then sanitized
// (DOMPurify, see lib/inert.ts), because the agent's text can hold any HTML and the window can call into Go.
// Only after that does each code block get the console's own frame (language label, Copy button): the text
// cannot make those, since sanitizing dropped every class that is not highlight.js's.
import { Marked } from 'marked';
import { escapeHtml, highlight, languageFor } from './highlight';
import { withoutEscapes } from './ansi';
import { sanitizeInert } from './inert';

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    code({ text, lang }) {
      const tag = lang?.trim().split(/\s+/)[0] ?? '';
      const language = languageFor(tag);
      // The fence's own tag names the block (highlighted or not); the label shows it.
      const label = /^[\w+#.-]{1,30}$/.test(tag) ? tag : language;
      const cls = label !== undefined ? ` class="hljs language-${escapeHtml(label)}"` : ' class="hljs"';
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
  // A reply quoting a command's output may hold its terminal escapes: they are dropped, never shown as garbage.
  const html = framedCode(sanitizeInert(marked.parse(withoutEscapes(text)) as string));
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(text, html);
  return html;
}

/** Wraps each code block of sanitized HTML in the console's frame: a header with the language and a Copy button
 * (Markdown.tsx handles its click). */
function framedCode(html: string): string {
  if (!html.includes('<pre>')) return html;
  // A parsed document of its own has no browsing context: nothing in it loads while it is reshaped.
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  for (const pre of Array.from(doc.body.querySelectorAll('pre'))) {
    const code = pre.querySelector('code');
    const language = /(?:^|\s)language-([\w+#.-]+)/.exec(code?.className ?? '')?.[1];
    const frame = doc.createElement('div');
    frame.className = 'code-block';
    const head = doc.createElement('div');
    head.className = 'code-head';
    const label = doc.createElement('span');
    label.className = 'code-lang';
    label.textContent = language ?? 'text';
    const copy = doc.createElement('button');
    copy.type = 'button';
    copy.className = 'code-copy';
    copy.textContent = 'Copy';
    copy.title = 'Copy the code';
    copy.setAttribute('data-testid', 'copy-code');
    head.append(label, copy);
    pre.replaceWith(frame);
    frame.append(head, pre);
  }
  return doc.body.innerHTML;
}
