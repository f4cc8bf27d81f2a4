// Links in the transcript open outside the console: in the Wails window a click would navigate the window
// itself away from Baton, and in a browser the console tab should stay where it is.
interface WailsRuntime {
  runtime?: { BrowserOpenURL?: (url: string) => void };
}

export function openExternal(url: string): void {
  if (!/^(https?:|mailto:)/i.test(url)) return;
  const rt = (window as Window & WailsRuntime).runtime;
  if (rt?.BrowserOpenURL !== undefined) rt.BrowserOpenURL(url);
  else window.open(url, '_blank', 'noopener,noreferrer');
}

/** A click handler for a container of rendered HTML: sends link clicks out. */
export function interceptLinks(ev: { target: EventTarget | null; preventDefault(): void }): void {
  const el = ev.target instanceof Element ? ev.target.closest('a[href]') : null;
  if (el === null) return;
  ev.preventDefault();
  openExternal(el.getAttribute('href') ?? '');
}
