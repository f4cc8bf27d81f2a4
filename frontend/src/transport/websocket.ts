// Browser mode's transport: one WebSocket to `baton serve` (/ws on the page's own origin; the token travels as
// a subprotocol, accessToken.ts). It reconnects with backoff; the store re-reads the snapshot after every
// (re)connect because deltas are not replayed. A socket that never opened asks the server whether it takes the
// token: a refused one stops retrying (it will not start working), anything else retries.
import { ApiError, type Capabilities, type Method, type Params, type Result, toApiError } from '../protocol/api';
import type { TerminalOutput } from '../protocol/api.gen';
import { type ConsoleEvent, hostStateEvent, isHostPush, readEvent } from '../protocol/events';
import type { Access } from './accessToken';
import { Backoff } from './backoff';
import { Listeners } from './listeners';
import type { ConnectionState, Transport, Unsubscribe } from './transport';

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface WebSocketTransportOptions {
  url: string;
  /** Offered on every handshake: "baton" and the token's. */
  protocols?: string[];
  /** Asked after a handshake failed; absent: always retry. */
  checkAccess?: () => Promise<Access>;
  /** Called once when the server refused the token. */
  onRefused?: () => void;
  /** Injected in tests; the browser's WebSocket otherwise. */
  createSocket?: (url: string, protocols: string[]) => SocketLike;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: ApiError) => void;
  method: string;
}

const OPEN = 1;

/** Tries in a row with nobody answering before the console says the address may be stale (about 2 s of backoff). */
export const LOST_AFTER = 3;

/** `/ws` on the page's origin, ws: or wss: to match. */
export function socketUrl(loc: { protocol: string; host: string }): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}/ws`;
}

export class WebSocketTransport implements Transport {
  private state: ConnectionState = 'connecting';
  private socket: SocketLike | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly events = new Listeners<ConsoleEvent>();
  private readonly terminals = new Listeners<TerminalOutput>();
  private readonly states = new Listeners<ConnectionState>();
  private readonly backoff: Backoff;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  /** Access checks in a row that found nobody at this address. */
  private unreachable = 0;

  constructor(private readonly opts: WebSocketTransportOptions) {
    this.backoff = new Backoff({ initialMs: opts.initialBackoffMs ?? 250, maxMs: opts.maxBackoffMs ?? 8000 });
    this.connect();
  }

  get connection(): ConnectionState {
    return this.state;
  }

  call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
    const socket = this.socket;
    if (socket === undefined || socket.readyState !== OPEN || this.state !== 'open') {
      return Promise.reject(new ApiError('disconnected', 'Baton is not connected right now; it is reconnecting.', method));
    }
    const id = this.nextId++;
    return new Promise<Result<M>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, method });
      try {
        socket.send(JSON.stringify({ id, method, params }));
      } catch (err) {
        this.pending.delete(id);
        reject(toApiError(err, method));
      }
    });
  }

  subscribe(onEvent: (event: ConsoleEvent) => void): Unsubscribe {
    return this.events.add(onEvent);
  }

  subscribeTerminal(onOutput: (output: TerminalOutput) => void): Unsubscribe {
    return this.terminals.add(onOutput);
  }

  onConnectionChange(listener: (state: ConnectionState) => void): Unsubscribe {
    return this.states.add(listener);
  }

  capabilities(): Promise<Capabilities> {
    return this.call('capabilities', {});
  }

  close(): void {
    this.stopped = true;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.socket?.close(1000, 'closed');
    this.failPending('The console was closed.');
    this.setState('closed');
    this.events.clear();
    this.terminals.clear();
    this.states.clear();
  }

  private connect(): void {
    if (this.stopped) return;
    const create = this.opts.createSocket ?? ((url: string, protocols: string[]) => new WebSocket(url, protocols) as unknown as SocketLike);
    let socket: SocketLike;
    try {
      socket = create(this.opts.url, this.opts.protocols ?? []);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      opened = true;
      this.unreachable = 0;
      this.backoff.reset();
      this.setState('open');
    };
    socket.onmessage = (ev) => {
      if (this.socket === socket) this.receive(ev.data);
    };
    socket.onerror = () => {
      // onclose follows; reconnecting is decided there.
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.failPending('The connection to Baton was lost before it answered.');
      if (opened || this.opts.checkAccess === undefined) this.scheduleReconnect();
      else this.checkThenReconnect(this.opts.checkAccess);
    };
  }

  private checkThenReconnect(check: () => Promise<Access>): void {
    this.setState(this.unreachable >= LOST_AFTER ? 'lost' : 'reconnecting');
    void check().then((access) => {
      if (this.stopped) return;
      if (access !== 'refused') {
        this.unreachable = access === 'unreachable' ? this.unreachable + 1 : 0;
        this.scheduleReconnect();
        return;
      }
      this.stopped = true;
      this.opts.onRefused?.();
      this.setState('refused');
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.setState(this.unreachable >= LOST_AFTER ? 'lost' : 'reconnecting');
    const delay = this.backoff.next();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, delay);
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let msg: unknown;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof msg !== 'object' || msg === null) return;
    const obj = msg as Record<string, unknown>;
    if (obj['type'] === 'event') {
      const event = readEvent(obj['event']);
      if (event !== undefined) this.events.emit(event);
      return;
    }
    if (obj['type'] === 'events' && Array.isArray(obj['events'])) {
      // Events that were waiting together on the host (a streaming reply), in order.
      for (const raw of obj['events'] as unknown[]) {
        const event = readEvent(raw);
        if (event !== undefined) this.events.emit(event);
      }
      return;
    }
    if (obj['type'] === 'terminal') {
      const out = obj['terminal'];
      if (typeof out === 'object' && out !== null) this.terminals.emit(out as TerminalOutput);
      return;
    }
    if (isHostPush(obj['type'])) {
      // The host's whole-state pushes (API.md, "Events"; console.json's pushes).
      const event = hostStateEvent(obj['type'], obj[obj['type']]);
      if (event !== undefined) this.events.emit(event);
      return;
    }
    if (typeof obj['id'] !== 'number') return;
    const pending = this.pending.get(obj['id']);
    if (pending === undefined) return;
    this.pending.delete(obj['id']);
    if (obj['error'] !== undefined) pending.reject(toApiError(obj['error'], pending.method));
    else pending.resolve(obj['result'] ?? {});
  }

  private failPending(message: string): void {
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.reject(new ApiError('disconnected', message, pending.method));
    }
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    this.states.emit(state);
  }
}
