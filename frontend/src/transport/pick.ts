// Chooses the transport for where the page runs: the Wails window exposes `window.go`; anything else is a
// browser under `baton serve`, which presents this launch's token (accessToken.ts).
import { checkAccess, forgetToken, socketProtocols, takeToken } from './accessToken';
import type { Transport } from './transport';
import { type WailsWindow, WailsTransport } from './wails';
import { WebSocketTransport, socketUrl } from './websocket';

export function pickTransport(win: Window & WailsWindow = window as Window & WailsWindow): Transport {
  if (win.go !== undefined) return new WailsTransport(win);
  const token = takeToken(win);
  return new WebSocketTransport({
    url: socketUrl(win.location),
    protocols: socketProtocols(token),
    checkAccess: () => checkAccess(token),
    onRefused: () => forgetToken(win),
  });
}
