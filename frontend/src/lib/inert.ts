// Untrusted HTML → inert HTML. Everything the agent writes (and every tool output it quotes) may come from a
// prompt-injected model, so rendered text must neither run script nor make the console fetch anything: a
// remote image, a CSS url(), a video poster or a prefetch link would carry data out the moment a session
// opens. DOMPurify removes scripts and handlers against an allowlist of the tags and attributes Markdown
// produces; then, still inside DOMPurify's parsed document (which has no browsing context, so nothing in it
// loads), every image that is not embedded in the text is replaced by a placeholder naming its host.
//
// Decision: a remote image is never loaded inside the console, not even on a click (the CSP's img-src
// would refuse it anyway). The placeholder is a link: clicking it opens the image's address in the system
// browser, like any other link (lib/openLink.ts), where the person can see where it goes.
import DOMPurify from 'dompurify';

/** Attributes kept on any element. */
const COMMON_ATTRS = ['title', 'class', 'lang', 'dir'];

/** Attributes kept only on the named element; anything that can name a URL appears only here. */
const TAG_ATTRS: Record<string, readonly string[]> = {
  a: ['href'],
  img: ['src', 'alt'],
  input: ['type', 'checked', 'disabled'],
  ol: ['start'],
  th: ['align', 'colspan', 'rowspan'],
  td: ['align', 'colspan', 'rowspan'],
  details: ['open'],
};

/** What Markdown (marked, GitHub flavour) produces, plus harmless inline HTML people write in it. No media,
 * embeds, frames, forms, styles, links to resources, SVG or MathML. */
const ALLOWED_TAGS = [
  'a',
  'abbr',
  'b',
  'blockquote',
  'br',
  'caption',
  'cite',
  'code',
  'dd',
  'del',
  'details',
  'div',
  'dl',
  'dt',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'input',
  'ins',
  'kbd',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
  'var',
];

const ALLOWED_ATTR = [...new Set([...COMMON_ATTRS, ...Object.values(TAG_ATTRS).flat()])];

/** Classes highlight.js writes (hljs, hljs-keyword, "function_", language-go). Others are dropped, so
 * untrusted text cannot borrow the console's own classes to draw a fake dialog over it. */
const CLASS_RE = /^(hljs(-[\w-]+)?|language-[\w+#.-]+|[a-z]+_+)$/i;

/** An image embedded in the text itself; it needs no fetch. */
const DATA_IMAGE_RE = /^data:image\/[a-z0-9.+-]+[;,]/i;

const purify = DOMPurify();

/** Sanitized, inert HTML for untrusted HTML. */
export function sanitizeInert(html: string): string {
  // The body of DOMPurify's own parsed document (null for nothing to parse).
  const body = purify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM: true,
  }) as HTMLElement | null;
  if (body === null) return '';
  // querySelectorAll is a static list: replacing an image does not disturb the walk.
  for (const el of Array.from(body.querySelectorAll('*'))) {
    const tag = el.localName;
    const own = TAG_ATTRS[tag] ?? [];
    for (const { name } of Array.from(el.attributes)) {
      if (!COMMON_ATTRS.includes(name) && !own.includes(name)) el.removeAttribute(name);
    }
    keepOwnClasses(el);
    if (tag === 'img') inertImage(el);
    else if (tag === 'input') inertInput(el);
  }
  return body.innerHTML;
}

function keepOwnClasses(el: Element): void {
  if (!el.hasAttribute('class')) return;
  const kept = Array.from(el.classList).filter((c) => CLASS_RE.test(c));
  if (kept.length > 0) el.setAttribute('class', kept.join(' '));
  else el.removeAttribute('class');
}

/** GitHub task lists render `<input type="checkbox" disabled>`; any other input (an image button fetches
 * its src; a text field invites typing secrets) goes. */
function inertInput(el: Element): void {
  if ((el.getAttribute('type') ?? '').toLowerCase() !== 'checkbox') {
    el.remove();
    return;
  }
  el.setAttribute('disabled', '');
}

function inertImage(img: Element): void {
  const src = img.getAttribute('src') ?? '';
  if (DATA_IMAGE_RE.test(src)) return;
  img.replaceWith(imagePlaceholder(img.ownerDocument, src, img.getAttribute('alt') ?? ''));
}

function webUrl(src: string): URL | undefined {
  try {
    const url = new URL(src);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined; // relative or malformed: nothing to name, nothing to open
  }
}

/** A small inline box: the image's description and the host it would come from. */
function imagePlaceholder(doc: Document, src: string, alt: string): Element {
  const url = webUrl(src);
  const box = doc.createElement(url !== undefined ? 'a' : 'span');
  box.setAttribute('class', 'remote-image');
  const label = doc.createElement('span');
  label.setAttribute('class', 'remote-image-label');
  label.textContent = alt.trim() !== '' ? alt : 'image';
  const where = doc.createElement('span');
  where.setAttribute('class', 'remote-image-host');
  if (url !== undefined) {
    box.setAttribute('href', url.href);
    box.setAttribute('title', `Image from ${url.host}, not loaded: Baton does not fetch images named in a reply. Click to open it in your browser.`);
    where.textContent = url.host;
  } else {
    box.setAttribute('title', 'Image not shown: only images embedded in the text are displayed.');
    where.textContent = 'not shown';
  }
  box.append(label, where);
  return box;
}
