// A scripted stand-in for Baton's host, for unit and component tests (the real host runs in the end-to-end
// test). It records every call, answers from handlers the test sets, and pushes events on demand.
import { ApiError, type Capabilities, type Method, type Params, type Result, type Snapshot } from '../src/protocol/api';
import type { TerminalOutput } from '../src/protocol/api.gen';
import type { ConsoleEvent } from '../src/protocol/events';
import type { ConnectionState, Transport } from '../src/transport/transport';

type Handler<M extends Method> = (params: Params<M>) => Result<M> | Promise<Result<M>>;

export interface Call {
  method: Method;
  params: unknown;
}

export class FakeTransport implements Transport {
  connection: ConnectionState = 'connecting';
  readonly calls: Call[] = [];
  private readonly handlers = new Map<Method, (params: unknown) => unknown>();
  private readonly eventListeners = new Set<(ev: ConsoleEvent) => void>();
  private readonly stateListeners = new Set<(s: ConnectionState) => void>();
  readonly terminalListeners = new Set<(o: TerminalOutput) => void>();
  snapshot: Snapshot = {
    sessions: [],
    provisioning: { state: 'ready' },
    auth: { status: 'signed_in', summary: '' },
    index: { state: 'ready', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 },
    sessionIdleSeconds: 0,
  };
  caps: Capabilities = { transport: 'websocket', folderPicker: false, notifications: false, version: 'test' };

  constructor() {
    this.on('snapshot', () => this.snapshot);
    this.on('capabilities', () => this.caps);
    this.on('listSessions', () => ({ sessions: [] }));
  }

  subscribeTerminal(onOutput: (o: TerminalOutput) => void): () => void {
    this.terminalListeners.add(onOutput);
    return () => this.terminalListeners.delete(onOutput);
  }

  on<M extends Method>(method: M, handler: Handler<M>): this {
    this.handlers.set(method, handler as (params: unknown) => unknown);
    return this;
  }

  async call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
    this.calls.push({ method, params });
    const handler = this.handlers.get(method);
    if (handler === undefined) throw new ApiError('unavailable', `no handler for ${method}`, method);
    return (await handler(params)) as Result<M>;
  }

  callsOf(method: Method): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.params);
  }

  subscribe(onEvent: (ev: ConsoleEvent) => void): () => void {
    this.eventListeners.add(onEvent);
    return () => this.eventListeners.delete(onEvent);
  }

  onConnectionChange(listener: (s: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  capabilities(): Promise<Capabilities> {
    return this.call('capabilities', {});
  }

  close(): void {
    this.setConnection('closed');
  }

  setConnection(state: ConnectionState): void {
    this.connection = state;
    for (const l of [...this.stateListeners]) l(state);
  }

  push(...events: ConsoleEvent[]): void {
    for (const ev of events) for (const l of [...this.eventListeners]) l(ev);
  }
}

/** Lets pending promise callbacks (the store's awaits) run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}
