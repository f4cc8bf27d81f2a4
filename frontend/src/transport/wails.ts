// The window's transport: the Go `console.API` bound by Wails (window.go.console.API.<Method>) and its
// events on the Wails runtime ("baton:event"). In-process, so the connection is always open.
import { type Capabilities, type Method, type Params, type Result, toApiError } from '../protocol/api';
import type { TerminalOutput } from '../protocol/api.gen';
import { type ConsoleEvent, hostStateEvent, readEvent } from '../protocol/events';
import { Listeners } from './listeners';
import type { ConnectionState, Transport, Unsubscribe } from './transport';

type BoundMethod = (params: unknown) => Promise<unknown>;

export interface WailsWindow {
  go?: { console?: { API?: Record<string, BoundMethod | undefined> } };
  runtime?: { EventsOn?: (name: string, callback: (...data: unknown[]) => void) => (() => void) | undefined };
}

export const WAILS_EVENT = 'baton:event';
/** Whole-state pushes of sign-in and provisioning (API.md, "Events"). */
export const WAILS_AUTH_EVENT = 'baton:auth';
export const WAILS_PROVISION_EVENT = 'baton:provision';
/** The session index's whole state (building, ready, failed). */
export const WAILS_INDEX_EVENT = 'baton:index';
/** Stored sessions changed outside this Baton. */
export const WAILS_SESSIONS_EVENT = 'baton:sessions';
/** An open session's change counts. */
export const WAILS_CHANGES_EVENT = 'baton:changes';
/** A terminal's output. */
export const WAILS_TERMINAL_EVENT = 'baton:terminal';

/** Go exports methods capitalized: startSession → StartSession. */
export function boundName(method: string): string {
  return method.charAt(0).toUpperCase() + method.slice(1);
}

export class WailsTransport implements Transport {
  readonly connection: ConnectionState = 'open';
  private readonly events = new Listeners<ConsoleEvent>();
  private readonly stops: Array<() => void> = [];
  private readonly terminals = new Listeners<TerminalOutput>();

  constructor(private readonly win: WailsWindow) {
    this.listen(WAILS_EVENT, readEvent);
    this.listen(WAILS_AUTH_EVENT, (data) => hostStateEvent('auth', data));
    this.listen(WAILS_PROVISION_EVENT, (data) => hostStateEvent('provision', data));
    this.listen(WAILS_INDEX_EVENT, (data) => hostStateEvent('index', data));
    this.listen(WAILS_SESSIONS_EVENT, (data) => hostStateEvent('sessions', data ?? {}));
    this.listen(WAILS_CHANGES_EVENT, (data) => hostStateEvent('changes', data));
    const off = this.win.runtime?.EventsOn?.(WAILS_TERMINAL_EVENT, (data: unknown) => {
      if (typeof data === 'object' && data !== null) this.terminals.emit(data as TerminalOutput);
    });
    if (typeof off === 'function') this.stops.push(off);
  }

  subscribeTerminal(onOutput: (output: TerminalOutput) => void): Unsubscribe {
    return this.terminals.add(onOutput);
  }

  private listen(name: string, read: (data: unknown) => ConsoleEvent | undefined): void {
    const off = this.win.runtime?.EventsOn?.(name, (data: unknown) => {
      const event = read(data);
      if (event !== undefined) this.events.emit(event);
    });
    if (typeof off === 'function') this.stops.push(off);
  }

  async call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
    const fn = this.win.go?.console?.API?.[boundName(method)];
    if (fn === undefined) throw toApiError({ code: 'unavailable', message: `This Baton build has no ${method} yet.` }, method);
    try {
      return (await fn(params)) as Result<M>;
    } catch (err) {
      throw toApiError(err, method);
    }
  }

  subscribe(onEvent: (event: ConsoleEvent) => void): Unsubscribe {
    return this.events.add(onEvent);
  }

  onConnectionChange(_listener: (state: ConnectionState) => void): Unsubscribe {
    // In-process: open from the start and never changes (the store reads `connection` when it starts).
    return () => undefined;
  }

  capabilities(): Promise<Capabilities> {
    return this.call('capabilities', {});
  }

  close(): void {
    for (const stop of this.stops.splice(0)) stop();
    this.events.clear();
    this.terminals.clear();
  }
}
