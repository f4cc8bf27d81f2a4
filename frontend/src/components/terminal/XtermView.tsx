// One terminal on screen: xterm.js fit to its box, its keys sent to the host, its output drawn from the store's
// Terminals (scrollback first, so a reload redraws it). Copy is the selection (Ctrl+Shift+C, or the browser's
// own copy), paste is the browser's; links open in a new window.
import '@xterm/xterm/css/xterm.css';
import { FitAddon } from '@xterm/addon-fit';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef } from 'react';
import { openExternal } from '../../lib/openLink';
import type { Terminals } from '../../store/terminals';
import { adoptInlineStyles } from './cspStyles';

// What the screen may have waiting to be drawn; past it, output is dropped and the screen redraws from the
// scrollback once it caught up, so a burst (yes, a huge log) never queues without end in the page.
const MAX_UNDRAWN = 4 << 20;

const THEME = { background: '#18181b', foreground: '#e4e4e7', cursor: '#e4e4e7', selectionBackground: '#3f3f46' };

/** For the end-to-end test: each mounted terminal's xterm by its id (its buffer is what the person sees). */
export const mountedTerminals = new Map<string, Terminal>();
declare global {
  interface Window {
    batonTerminals?: Map<string, Terminal>;
  }
}

export function XtermView({ terminals, id, onExit }: { terminals: Terminals; id: string; onExit?: ((code: number) => void) | undefined }) {
  const box = useRef<HTMLDivElement>(null);
  const exitRef = useRef(onExit);
  exitRef.current = onExit;
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const stopStyles = adoptInlineStyles(el);
    const term = new Terminal({ theme: THEME, fontFamily: 'ui-monospace, Menlo, Consolas, monospace', fontSize: 13, scrollback: 5000, cursorBlink: true });
    const fit = new FitAddon();
    term.loadAddon(fit);
    // Links leave the console (the system browser in the window), as the transcript's do; only http(s) and mailto.
    term.loadAddon(new WebLinksAddon((_e, uri) => openExternal(uri)));
    term.open(el);
    mountedTerminals.set(id, term);
    window.batonTerminals = mountedTerminals;
    term.attachCustomKeyEventHandler((e) => {
      // Ctrl+Shift+C copies the selection; the rest goes to the program (Ctrl+C is its interrupt).
      if (e.type === 'keydown' && e.ctrlKey && e.shiftKey && e.key.toLowerCase() === 'c') {
        const text = term.getSelection();
        if (text !== '') void navigator.clipboard?.writeText(text);
        return false;
      }
      return true;
    });
    const input = term.onData((data) => terminals.input(id, data));
    const sized = term.onResize(({ cols, rows }) => void terminals.resize(id, cols, rows).catch(() => undefined));
    let undrawn = 0;
    let dropped = false;
    const drawn = (n: number) => () => {
      undrawn -= n;
      if (undrawn === 0 && dropped) {
        dropped = false;
        terminals.redrawScreen(id);
      }
    };
    const detach = terminals.attach(id, {
      reset: () => term.reset(),
      write: (data) => {
        if (undrawn > MAX_UNDRAWN) {
          dropped = true;
          return;
        }
        undrawn += data.length;
        term.write(data, drawn(data.length));
      },
      exited: (code, now) => {
        term.write(`\r\n\x1b[2m[exited with code ${code}]\x1b[0m\r\n`);
        if (now) exitRef.current?.(code);
      },
    });
    const refit = () => {
      if (el.clientWidth > 0 && el.clientHeight > 0) fit.fit();
    };
    const observer = new ResizeObserver(refit);
    observer.observe(el);
    refit();
    void terminals.resize(id, term.cols, term.rows).catch(() => undefined);
    term.focus();
    return () => {
      observer.disconnect();
      detach();
      input.dispose();
      sized.dispose();
      mountedTerminals.delete(id);
      term.dispose();
      stopStyles();
    };
  }, [terminals, id]);
  return <div className="xterm-box" ref={box} data-testid="terminal-screen" data-terminal={id} />;
}
