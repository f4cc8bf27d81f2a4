// The one way the console talks to Baton's host. Two implementations (Wails bindings in the window, a
// WebSocket under `baton serve`); the store is their only user, components never see which one runs.
import type { Capabilities, Method, Params, Result } from '../protocol/api';
import type { TerminalOutput } from '../protocol/api.gen';
import type { ConsoleEvent } from '../protocol/events';

/** `refused`: the server does not take this page's access token (another launch's, or none); it stays so.
 * `lost`: still reconnecting, but nothing has answered at this address for several tries in a row: `baton serve`
 * stopped, or started again at another address (its port is picked anew at each start). */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'lost' | 'closed' | 'refused';

export type Unsubscribe = () => void;

export interface Transport {
  /** Calls one API method; rejects with an ApiError whose message is written for a person. */
  call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>>;
  /** Every pushed event, in order per session. */
  subscribe(onEvent: (event: ConsoleEvent) => void): Unsubscribe;
  /** Every terminal's output (the `terminal` push), coalesced per terminal by the host. */
  subscribeTerminal(onOutput: (output: TerminalOutput) => void): Unsubscribe;
  /** Connection changes. A transport that reconnects reports `open` again; the store then re-reads the snapshot. */
  onConnectionChange(listener: (state: ConnectionState) => void): Unsubscribe;
  /** What this host can do (folder picker, native notifications, …). */
  capabilities(): Promise<Capabilities>;
  /** The state right now. */
  readonly connection: ConnectionState;
  /** Stops the transport for good (tests, page unload). */
  close(): void;
}
