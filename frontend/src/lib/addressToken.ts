// Browser mode opens at the address `baton serve` printed, which carries this launch's access token. The
// response to that first load set the token as a cookie, so the page takes the token out of the address bar
// and out of this history entry: it should not linger where it can be copied, shared or read back.

/** The address without its `token` parameter, or undefined when it has none. */
export function withoutToken(href: string): string | undefined {
  const url = new URL(href);
  if (!url.searchParams.has('token')) return undefined;
  url.searchParams.delete('token');
  return url.pathname + url.search + url.hash;
}

export function dropTokenFromAddress(win: Pick<Window, 'location' | 'history'>): void {
  const next = withoutToken(win.location.href);
  if (next !== undefined) win.history.replaceState(win.history.state, '', next);
}
