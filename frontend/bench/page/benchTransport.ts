// The benchmark's host: answers the console's calls from memory with one live session of N messages, so the
// figures measure the console (store fold, virtualized transcript) and nothing else.
import type { Capabilities, Method, Params, Result, Snapshot } from '../../src/protocol/api';
import type { ConsoleEvent } from '../../src/protocol/events';
import type { ConnectionState, Transport } from '../../src/transport/transport';
import { BENCH_SESSION } from './synthetic';

export class BenchTransport implements Transport {
  readonly connection: ConnectionState = 'open';

  constructor(private readonly events: ConsoleEvent[]) {}

  async call<M extends Method>(method: M, _params: Params<M>): Promise<Result<M>> {
    return this.answer(method) as Result<M>;
  }

  private answer(method: Method): unknown {
    switch (method) {
      case 'capabilities':
        return { transport: 'websocket', folderPicker: false, notifications: false, version: 'bench' } satisfies Capabilities;
      case 'snapshot':
        return {
          sessions: [
            {
              session: BENCH_SESSION,
              cwd: '/home/user/project',
              requestedModel: 'default',
              effectiveModel: 'claude-opus-5-5',
              permissionMode: 'default',
              state: 'awake',
              events: this.events,
            },
          ],
          provisioning: { state: 'ready' },
          auth: { status: 'signed_in', summary: 'Benchmark' },
          index: { state: 'ready', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 },
          sessionIdleSeconds: 0,
        } satisfies Snapshot;
      case 'listSessions':
        return { sessions: [{ session: BENCH_SESSION, title: 'Benchmark session', cwd: '/home/user/project', lastModified: Date.now(), live: true }] };
      default:
        return {};
    }
  }

  subscribe(): () => void {
    return () => undefined;
  }

  subscribeTerminal(): () => void {
    return () => undefined;
  }

  onConnectionChange(_listener: (state: ConnectionState) => void): () => void {
    // Open from the start and never changes, like the window's transport (the store reads `connection` when it
    // starts). Announcing 'open' again made the store load and fold the snapshot twice, the second time after
    // the session was selected, which the real transports never do.
    return () => undefined;
  }

  capabilities(): Promise<Capabilities> {
    return this.call('capabilities', {});
  }

  close(): void {}
}
