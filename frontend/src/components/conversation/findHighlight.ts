// The words of a search marked in the found row's text with the CSS Custom Highlight API: nothing in the row's
// markup changes, so every row kind is marked alike. Where the API is missing only the row is marked.

const NAME = 'baton-find';

/** Marks every occurrence of the words (case-insensitive) in the element's text; none when words is empty. */
export function highlightWords(el: HTMLElement, words: readonly string[]): void {
  if (typeof CSS === 'undefined' || !('highlights' in CSS) || typeof Highlight === 'undefined') return;
  const wanted = words.map((w) => w.toLowerCase()).filter((w) => w !== '');
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = (node.nodeValue ?? '').toLowerCase();
    for (const w of wanted) {
      for (let at = text.indexOf(w); at >= 0; at = text.indexOf(w, at + w.length)) {
        const r = document.createRange();
        r.setStart(node, at);
        r.setEnd(node, at + w.length);
        ranges.push(r);
      }
    }
  }
  CSS.highlights.set(NAME, new Highlight(...ranges));
}

export function clearHighlight(): void {
  if (typeof CSS !== 'undefined' && 'highlights' in CSS) CSS.highlights.delete(NAME);
}
