// Browser mode's access token. `baton serve` prints `http://127.0.0.1:PORT/#token=…`: a fragment never reaches
// any server, and sessionStorage is per origin (so per port) and per tab, so no other program on this machine
// sees the token. A cookie would: browsers send a host's cookies to every port of it (RFC 6265 §8.5). The page
// moves the token into sessionStorage, takes it out of the address bar and this history entry (it should not
// linger where it can be copied or shared), and presents it itself: as a WebSocket subprotocol on /ws, since a
// browser cannot put headers on a WebSocket, and as `Authorization: Bearer` on HTTP calls.

const STORAGE_KEY = 'baton.token';
/** What the server answers with; the token rides beside it as `baton.token.<token>`. */
export const WS_PROTOCOL = 'baton';
const WS_TOKEN_PREFIX = 'baton.token.';
// A subprotocol must be an HTTP token; Baton's are hex. Anything else is not ours and is ignored.
const TOKEN_SHAPE = /^[0-9A-Za-z]{16,256}$/;

type TokenWindow = Pick<Window, 'location' | 'history'> & { sessionStorage?: Storage };

/** The fragment without its `token` entry ('' when nothing else was there). */
export function fragmentWithout(hash: string): { token: string | undefined; rest: string } {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token') ?? undefined;
  params.delete('token');
  const rest = params.toString();
  return { token, rest: rest === '' ? '' : `#${rest}` };
}

function storage(win: TokenWindow): Storage | undefined {
  try {
    return win.sessionStorage ?? undefined;
  } catch {
    return undefined; // storage disabled: the token lives in this page's memory only
  }
}

/** Takes the token out of the address (into sessionStorage) and returns it, else the one this tab kept. */
export function takeToken(win: TokenWindow): string | undefined {
  const { token, rest } = fragmentWithout(win.location.hash);
  if (token !== undefined) {
    const { pathname, search } = win.location;
    win.history.replaceState(win.history.state, '', pathname + search + rest);
  }
  const store = storage(win);
  if (token !== undefined && TOKEN_SHAPE.test(token)) {
    try {
      store?.setItem(STORAGE_KEY, token);
    } catch {
      // full or refused: the token still serves this page
    }
    return token;
  }
  const kept = store?.getItem(STORAGE_KEY) ?? undefined;
  return kept !== undefined && TOKEN_SHAPE.test(kept) ? kept : undefined;
}

/** Drops a token the server refused (an earlier launch's). */
export function forgetToken(win: TokenWindow): void {
  try {
    storage(win)?.removeItem(STORAGE_KEY);
  } catch {
    // nothing kept
  }
}

/** The subprotocols the console offers on /ws. */
export function socketProtocols(token: string | undefined): string[] {
  return token === undefined ? [WS_PROTOCOL] : [WS_PROTOCOL, WS_TOKEN_PREFIX + token];
}

export type Access = 'ok' | 'refused' | 'unreachable';

/** Asks the server whether it takes the token (a browser hides why a WebSocket handshake failed). */
export async function checkAccess(token: string | undefined, fetchFn: typeof fetch = fetch): Promise<Access> {
  try {
    const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
    const res = await fetchFn('/api/access', { headers, cache: 'no-store', credentials: 'omit' });
    if (res.ok) return 'ok';
    return res.status === 401 ? 'refused' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}
