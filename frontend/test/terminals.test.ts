// The console's terminals over a scripted transport: typed input keeps its order although the host answers calls
// concurrently, and a screen draws the scrollback, then only what follows it, redrawing after a gap.
import { describe, expect, it } from 'vitest';
import type { TerminalOutput } from '../src/protocol/api.gen';
import { type TerminalScreen, Terminals } from '../src/store/terminals';
import { FakeTransport } from './fakeTransport';

const b64 = (s: string) => btoa(s);
const text = (d: Uint8Array) => new TextDecoder().decode(d);

function screen() {
  const drawn: string[] = [];
  const exits: Array<[number, boolean]> = [];
  const s: TerminalScreen = {
    reset: () => drawn.splice(0),
    write: (d) => drawn.push(text(d)),
    exited: (code, now) => exits.push([code, now]),
  };
  return { s, drawn, exits };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('Terminals', () => {
  it('sends typed input one call at a time, in order, what was typed meanwhile together', async () => {
    const t = new FakeTransport();
    const replies: Array<() => void> = [];
    t.on('terminalInput', () => new Promise((r) => replies.push(() => r({}))));
    const terms = new Terminals(t);
    terms.input('t1', 'e');
    terms.input('t1', 'c');
    terms.input('t1', 'ho');
    expect(t.callsOf('terminalInput')).toEqual([{ terminal: 't1', data: 'e' }]);
    replies.shift()?.();
    await flush();
    expect(t.callsOf('terminalInput').map((p) => (p as { data: string }).data)).toEqual(['e', 'cho']);
    replies.shift()?.();
    await flush();
    expect(t.callsOf('terminalInput')).toHaveLength(2);
  });

  it('draws the scrollback, then what follows it, and redraws after a gap', async () => {
    const t = new FakeTransport();
    let kept = 'hello ';
    t.on('terminalScrollback', () => ({ terminal: 't1', data: b64(kept), end: kept.length, exited: false }));
    const terms = new Terminals(t);
    terms.start();
    const push = (o: TerminalOutput) => {
      for (const l of t.terminalListeners) l(o);
    };
    const { s, drawn, exits } = screen();
    terms.attach('t1', s);
    await flush();
    expect(drawn).toEqual(['hello ']);
    push({ terminal: 't1', offset: 3, data: b64('lo world'), exited: false }); // overlaps what was drawn
    expect(drawn.join('')).toBe('hello world');
    kept = 'hello world, and more';
    push({ terminal: 't1', offset: 20, data: b64('e'), exited: false }); // a gap: the host dropped some
    await flush();
    expect(drawn.join('')).toBe('hello world, and more');
    push({ terminal: 't1', offset: kept.length, data: '', exited: true, exitCode: 3 });
    expect(exits).toEqual([[3, true]]);
  });

  it('tells an exit found in the scrollback from one that just happened', async () => {
    const t = new FakeTransport();
    t.on('terminalScrollback', () => ({ terminal: 't1', data: b64('bye'), end: 3, exited: true, exitCode: 0 }));
    const terms = new Terminals(t);
    const { s, exits } = screen();
    terms.attach('t1', s);
    await flush();
    expect(exits).toEqual([[0, false]]);
  });
});
