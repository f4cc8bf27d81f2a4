// Links in untrusted text open outside the console, and only for http, https and mailto.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { interceptLinks, openExternal } from '../src/lib/openLink';

type WailsWindow = Window & { runtime?: { BrowserOpenURL?: (url: string) => void } };

afterEach(() => {
  delete (window as WailsWindow).runtime;
});

describe('openExternal', () => {
  it('in a browser opens http, https and mailto in a new tab without opener or referrer', () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    for (const url of ['https://example.com/a', 'http://example.com/', 'mailto:a@example.com']) openExternal(url);
    expect(open.mock.calls).toEqual([
      ['https://example.com/a', '_blank', 'noopener,noreferrer'],
      ['http://example.com/', '_blank', 'noopener,noreferrer'],
      ['mailto:a@example.com', '_blank', 'noopener,noreferrer'],
    ]);
  });

  it('refuses every other scheme', () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const system = vi.fn();
    (window as WailsWindow).runtime = { BrowserOpenURL: system };
    for (const url of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
      'vbscript:x',
      '//evil.example/',
      '/relative',
      'blob:x',
      'wails://wails/',
    ]) {
      openExternal(url);
    }
    expect(open).not.toHaveBeenCalled();
    expect(system).not.toHaveBeenCalled();
  });

  it('in the window hands the link to the system browser', () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const system = vi.fn();
    (window as WailsWindow).runtime = { BrowserOpenURL: system };
    openExternal('https://example.com/');
    expect(system).toHaveBeenCalledWith('https://example.com/');
    expect(open).not.toHaveBeenCalled();
  });
});

describe('interceptLinks', () => {
  it('a click on a link (or inside one) never navigates the console', () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const box = document.createElement('div');
    box.innerHTML = '<a href="https://example.com/"><span>in</span></a><a href="javascript:void 0">js</a><p>text</p>';
    const click = (el: Element | null) => {
      const ev = { target: el, preventDefault: vi.fn() };
      interceptLinks(ev);
      return ev.preventDefault.mock.calls.length > 0;
    };
    expect(click(box.querySelector('span'))).toBe(true);
    expect(click(box.querySelectorAll('a')[1] ?? null)).toBe(true);
    expect(click(box.querySelector('p'))).toBe(false);
    expect(open.mock.calls).toEqual([['https://example.com/', '_blank', 'noopener,noreferrer']]);
  });
});
