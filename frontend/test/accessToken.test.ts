// Browser mode's token: taken from the fragment into this tab's sessionStorage, out of the address, offered on
// the WebSocket and presented as a bearer credential; never a cookie.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkAccess, forgetToken, fragmentWithout, socketProtocols, takeToken } from '../src/transport/accessToken';

const TOKEN = 'a'.repeat(64);

afterEach(() => {
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the access token', () => {
  it('leaves the address bar for sessionStorage and stays across a reload', () => {
    window.history.replaceState(null, '', `/?a=1#token=${TOKEN}`);
    expect(takeToken(window)).toBe(TOKEN);
    expect(window.location.hash).toBe('');
    expect(window.location.search).toBe('?a=1');
    expect(sessionStorage.getItem('baton.token')).toBe(TOKEN);
    expect(document.cookie).not.toContain(TOKEN);
    // A reload: the address has no token now, the tab still has it.
    expect(takeToken(window)).toBe(TOKEN);
  });

  it('keeps the rest of the fragment and ignores what is not a token', () => {
    expect(fragmentWithout(`#token=${TOKEN}&x=1`)).toEqual({ token: TOKEN, rest: '#x=1' });
    expect(fragmentWithout('#x=1')).toEqual({ token: undefined, rest: '#x=1' });
    window.history.replaceState(null, '', '/#token=no%20such,token');
    expect(takeToken(window)).toBeUndefined();
    expect(window.location.hash).toBe('');
  });

  it('a new address wins over what the tab kept, and a refused one is forgotten', () => {
    sessionStorage.setItem('baton.token', 'b'.repeat(64));
    window.history.replaceState(null, '', `/#token=${TOKEN}`);
    expect(takeToken(window)).toBe(TOKEN);
    forgetToken(window);
    expect(takeToken(window)).toBeUndefined();
  });

  it('is offered beside "baton" on the WebSocket', () => {
    expect(socketProtocols(TOKEN)).toEqual(['baton', `baton.token.${TOKEN}`]);
    expect(socketProtocols(undefined)).toEqual(['baton']);
  });

  it('is presented as a bearer credential, never with cookies', async () => {
    const fetchFn = vi.fn(async () => new Response(null, { status: 204 }));
    expect(await checkAccess(TOKEN, fetchFn as unknown as typeof fetch)).toBe('ok');
    expect(fetchFn).toHaveBeenCalledWith('/api/access', {
      headers: { Authorization: `Bearer ${TOKEN}` },
      cache: 'no-store',
      credentials: 'omit',
    });
    const refuse = vi.fn(async () => new Response('no', { status: 401 }));
    expect(await checkAccess(TOKEN, refuse as unknown as typeof fetch)).toBe('refused');
    const down = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await checkAccess(TOKEN, down as unknown as typeof fetch)).toBe('unreachable');
  });
});
