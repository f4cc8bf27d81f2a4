import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/protocol/api';
import type { ConsoleEvent } from '../src/protocol/events';
import { pickTransport } from '../src/transport/pick';
import type { ConnectionState } from '../src/transport/transport';
import {
  boundName,
  type WailsWindow,
  WailsTransport,
  WAILS_AUTH_EVENT,
  WAILS_EVENT,
  WAILS_INDEX_EVENT,
  WAILS_PROVISION_EVENT,
  WAILS_TERMINAL_EVENT,
} from '../src/transport/wails';
import { LOST_AFTER, type SocketLike, socketUrl, WebSocketTransport } from '../src/transport/websocket';

/** A socket whose other end the test plays: it sees what the client sends and answers by hand. */
class ScriptedSocket implements SocketLike {
  readyState = 0;
  sent: Array<{ id: number; method: string; params: unknown }> = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { id: number; method: string; params: unknown });
  }
  close(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(msg: unknown): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
}

describe('WebSocket transport', () => {
  let sockets: ScriptedSocket[];
  let transport: WebSocketTransport;
  let states: ConnectionState[];

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    states = [];
    transport = new WebSocketTransport({
      url: 'ws://127.0.0.1:9/ws',
      createSocket: (url) => {
        const s = new ScriptedSocket(url);
        sockets.push(s);
        return s;
      },
      initialBackoffMs: 100,
      maxBackoffMs: 1000,
    });
    transport.onConnectionChange((s) => states.push(s));
  });

  afterEach(() => {
    transport.close();
    vi.useRealTimers();
  });

  it('offers the token as a subprotocol and stops for good when the server refuses it', async () => {
    transport.close();
    const offered: string[][] = [];
    const refused = vi.fn();
    let access: 'refused' | 'unreachable' = 'unreachable';
    sockets = [];
    states = [];
    transport = new WebSocketTransport({
      url: 'ws://127.0.0.1:9/ws',
      protocols: ['baton', 'baton.token.abc'],
      checkAccess: async () => access,
      onRefused: refused,
      createSocket: (url, protocols) => {
        offered.push(protocols);
        const s = new ScriptedSocket(url);
        sockets.push(s);
        return s;
      },
      initialBackoffMs: 100,
      maxBackoffMs: 1000,
    });
    transport.onConnectionChange((s) => states.push(s));
    expect(offered).toEqual([['baton', 'baton.token.abc']]);
    sockets[0]?.drop(); // the server is down: the check cannot reach it either, so retry
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets).toHaveLength(2);
    access = 'refused';
    sockets[1]?.drop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(sockets).toHaveLength(2);
    expect(transport.connection).toBe('refused');
    expect(refused).toHaveBeenCalledOnce();
    expect(states.at(-1)).toBe('refused');
  });

  it('says the address is lost after several tries nobody answers, and reconnecting again once it does (issue 28)', async () => {
    transport.close();
    sockets = [];
    states = [];
    transport = new WebSocketTransport({
      url: 'ws://127.0.0.1:9/ws',
      checkAccess: async () => 'unreachable',
      createSocket: (url) => {
        const s = new ScriptedSocket(url);
        sockets.push(s);
        return s;
      },
      initialBackoffMs: 100,
      maxBackoffMs: 1000,
    });
    transport.onConnectionChange((s) => states.push(s));
    sockets[0]?.open();
    sockets[0]?.drop();
    for (let i = 1; i <= LOST_AFTER + 1; i++) {
      await vi.advanceTimersByTimeAsync(2000);
      expect(sockets).toHaveLength(i + 1);
      sockets[i]?.drop();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(transport.connection).toBe('lost');
    await vi.advanceTimersByTimeAsync(2000);
    sockets.at(-1)?.open();
    expect(transport.connection).toBe('open');
  });

  it('derives /ws on the page’s own origin', () => {
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:4321' })).toBe('ws://127.0.0.1:4321/ws');
    expect(socketUrl({ protocol: 'https:', host: 'example.test' })).toBe('wss://example.test/ws');
  });

  it('sends calls with ids and resolves each with its own answer', async () => {
    sockets[0]?.open();
    const a = transport.call('listSessions', { limit: 5 });
    const b = transport.call('capabilities', {});
    const [first, second] = sockets[0]?.sent ?? [];
    expect(first).toEqual({ id: 1, method: 'listSessions', params: { limit: 5 } });
    expect(second?.method).toBe('capabilities');
    sockets[0]?.receive({ id: 2, result: { transport: 'websocket', folderPicker: false, notifications: false, version: 'v' } });
    sockets[0]?.receive({ id: 1, result: { sessions: [] } });
    await expect(a).resolves.toEqual({ sessions: [] });
    await expect(b).resolves.toMatchObject({ transport: 'websocket' });
  });

  it('rejects with the host’s message and code', async () => {
    sockets[0]?.open();
    const call = transport.call('sendPrompt', { session: 's', prompt: 'hi' });
    sockets[0]?.receive({ id: 1, error: { code: 'not_found', message: 'Session s is not open; resume it first.' } });
    await expect(call).rejects.toMatchObject({ code: 'not_found', message: 'Session s is not open; resume it first.' });
  });

  it('delivers pushed events and turns unknown kinds into raw rows', () => {
    const got: ConsoleEvent[] = [];
    transport.subscribe((ev) => got.push(ev));
    sockets[0]?.open();
    sockets[0]?.receive({ type: 'event', event: { kind: 'turn.started', session: 's', turn: 't', time: 'x', prompt: 'hi', seq: 1 } });
    sockets[0]?.receive({ type: 'event', event: { kind: 'future.kind', session: 's', time: 'x' } });
    expect(got.map((e) => e.kind)).toEqual(['turn.started', 'unrecognized:future.kind']);
  });

  it('delivers a batch of events that waited together, in order', () => {
    const got: ConsoleEvent[] = [];
    transport.subscribe((ev) => got.push(ev));
    sockets[0]?.open();
    sockets[0]?.receive({
      type: 'events',
      events: [
        { kind: 'turn.started', session: 's', turn: 't', time: 'x', prompt: 'hi', seq: 1 },
        { kind: 'message.delta', session: 's', turn: 't', time: 'x', ephemeral: true, messageId: 'm', index: 0, block: 'text', text: 'a' },
        { kind: 'message.delta', session: 's', turn: 't', time: 'x', ephemeral: true, messageId: 'm', index: 0, block: 'text', text: 'b' },
      ],
    });
    expect(got.map((e) => (e.kind === 'message.delta' ? e.text : e.kind))).toEqual(['turn.started', 'a', 'b']);
  });

  it('turns the host’s whole-state pushes (sign-in, provisioning) into events', () => {
    const got: ConsoleEvent[] = [];
    transport.subscribe((ev) => got.push(ev));
    sockets[0]?.open();
    sockets[0]?.receive({ type: 'auth', auth: { status: 'signed_in', summary: 'Using an API key' } });
    sockets[0]?.receive({ type: 'provision', provision: { state: 'failed', message: 'no network', hints: ['retry'] } });
    expect(got).toMatchObject([
      { kind: 'auth.changed', auth: { status: 'signed_in' } },
      { kind: 'provision.state', provisioning: { state: 'failed', hints: ['retry'] } },
    ]);
  });

  it('hands terminal pushes to the terminal listeners, not the event stream', () => {
    const events: ConsoleEvent[] = [];
    const outs: unknown[] = [];
    transport.subscribe((ev) => events.push(ev));
    transport.subscribeTerminal((o) => outs.push(o));
    sockets[0]?.open();
    sockets[0]?.receive({ type: 'terminal', terminal: { terminal: 't1', offset: 0, data: 'aGk=', exited: false } });
    expect(outs).toEqual([{ terminal: 't1', offset: 0, data: 'aGk=', exited: false }]);
    expect(events).toEqual([]);
  });

  it('turns the host’s index push into an event', () => {
    const got: ConsoleEvent[] = [];
    transport.subscribe((ev) => got.push(ev));
    sockets[0]?.open();
    const index = { state: 'building', filesDone: 3, filesTotal: 9, bytesDone: 30, bytesTotal: 90, first: 's1' };
    sockets[0]?.receive({ type: 'index', index });
    expect(got).toMatchObject([{ kind: 'index.state', session: '', index }]);
  });

  it('fails calls in flight when the connection drops, then reconnects with backoff', async () => {
    sockets[0]?.open();
    const call = transport.call('snapshot', {});
    sockets[0]?.drop();
    await expect(call).rejects.toBeInstanceOf(ApiError);
    expect(states).toEqual(['open', 'reconnecting']);
    await expect(transport.call('snapshot', {})).rejects.toMatchObject({ code: 'disconnected' });
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(150);
    expect(sockets).toHaveLength(2);
    sockets[1]?.drop();
    vi.advanceTimersByTime(150);
    // The second wait is about twice the first.
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(150);
    expect(sockets).toHaveLength(3);
    sockets[2]?.open();
    expect(states.at(-1)).toBe('open');
  });

  it('stops for good when closed', () => {
    sockets[0]?.open();
    transport.close();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
    expect(transport.connection).toBe('closed');
  });
});

describe('Wails transport', () => {
  it('calls the capitalized Go method with the params object', async () => {
    const StartSession = vi.fn(async (p: unknown) => ({ session: 'new', echo: p }));
    const win: WailsWindow = { go: { console: { API: { StartSession } } }, runtime: { EventsOn: () => () => undefined } };
    const t = new WailsTransport(win);
    await expect(t.call('startSession', { cwd: '/tmp/x' })).resolves.toEqual({ session: 'new', echo: { cwd: '/tmp/x' } });
    expect(boundName('answerPermission')).toBe('AnswerPermission');
  });

  it('turns a Go error into an ApiError whose message is shown as is', async () => {
    const win: WailsWindow = { go: { console: { API: { SendPrompt: () => Promise.reject('The prompt is empty.') } } } };
    const t = new WailsTransport(win);
    await expect(t.call('sendPrompt', { session: 's', prompt: '' })).rejects.toMatchObject({ message: 'The prompt is empty.' });
    await expect(t.call('history', { session: 's' })).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('forwards baton:event pushes and the host’s state pushes, and is open from the start', () => {
    const handlers = new Map<string, (...data: unknown[]) => void>();
    const win: WailsWindow = {
      go: { console: { API: {} } },
      runtime: {
        EventsOn: (n, cb) => {
          handlers.set(n, cb);
          return () => undefined;
        },
      },
    };
    const t = new WailsTransport(win);
    const got: ConsoleEvent[] = [];
    t.subscribe((ev) => got.push(ev));
    handlers.get(WAILS_EVENT)?.({ kind: 'model.resolved', session: 's', time: 'x', model: 'm' });
    handlers.get(WAILS_AUTH_EVENT)?.({ status: 'signed_out', summary: 'Not signed in' });
    handlers.get(WAILS_PROVISION_EVENT)?.({ state: 'downloading', bytes: 10, total: 100 });
    handlers.get(WAILS_INDEX_EVENT)?.({ state: 'ready', filesDone: 1, filesTotal: 1, bytesDone: 5, bytesTotal: 5 });
    expect(got.map((e) => e.kind)).toEqual(['model.resolved', 'auth.changed', 'provision.state', 'index.state']);
    expect(t.connection).toBe('open');
    const outs: unknown[] = [];
    t.subscribeTerminal((o) => outs.push(o));
    handlers.get(WAILS_TERMINAL_EVENT)?.({ terminal: 't1', offset: 2, data: '', exited: true, exitCode: 0 });
    expect(outs).toEqual([{ terminal: 't1', offset: 2, data: '', exited: true, exitCode: 0 }]);
  });

  it('is picked when window.go exists, the WebSocket otherwise', () => {
    const wails = pickTransport({ go: {}, runtime: {}, location: { protocol: 'http:', host: 'h' } } as unknown as Window & WailsWindow);
    expect(wails).toBeInstanceOf(WailsTransport);
    const replaceState = vi.fn();
    const ws = pickTransport({
      location: { protocol: 'http:', host: '127.0.0.1:1', hash: `#token=${'c'.repeat(64)}`, pathname: '/', search: '' },
      history: { state: null, replaceState },
    } as unknown as Window & WailsWindow);
    expect(replaceState).toHaveBeenCalledWith(null, '', '/');
    expect(ws).toBeInstanceOf(WebSocketTransport);
    ws.close();
  });
});
