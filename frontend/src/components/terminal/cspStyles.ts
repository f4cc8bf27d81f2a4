// xterm.js writes its theme and cell sizes into <style> elements, which the page's policy (style-src 'self', no
// 'unsafe-inline') does not apply. Their text is copied into constructed stylesheets instead: the CSSOM is not
// governed by CSP, and the policy stays as strict as it is.
export function adoptInlineStyles(root: HTMLElement): () => void {
  if (typeof CSSStyleSheet === 'undefined' || !('adoptedStyleSheets' in document)) return () => undefined;
  const sheets = new Map<HTMLStyleElement, CSSStyleSheet>();
  const sync = () => {
    for (const el of root.querySelectorAll('style')) {
      let sheet = sheets.get(el);
      if (sheet === undefined) {
        sheet = new CSSStyleSheet();
        sheets.set(el, sheet);
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }
      sheet.replaceSync(el.textContent ?? '');
    }
    for (const [el, sheet] of sheets) {
      if (root.contains(el)) continue;
      sheets.delete(el);
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    }
  };
  const observer = new MutationObserver(sync);
  observer.observe(root, { subtree: true, childList: true, characterData: true });
  sync();
  return () => {
    observer.disconnect();
    const gone = new Set(sheets.values());
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => !gone.has(s));
  };
}
