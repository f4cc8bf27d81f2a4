// The sidebar's footer: the connection to Baton (browser mode reconnects on its own) and the sign-in state.
import { useConsole } from '../../store/hooks';
import type { ConnectionState } from '../../transport/transport';
import { AuthStatus } from './AuthStatus';

const CONNECTION_TEXT: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  open: 'Connected',
  reconnecting: 'Connection lost — reconnecting…',
  lost: 'Baton is not answering here — still trying',
  closed: 'Disconnected',
  refused: 'No access: open the address `baton serve` printed',
};

export function ConnectionStatus() {
  const connection = useConsole((s) => s.connection);
  const transport = useConsole((s) => s.capabilities?.transport);
  const version = useConsole((s) => s.capabilities?.version);
  return (
    <footer className="sidebar-footer small">
      <div className={`conn ${connection}`} data-testid="connection" role="status">
        <span className={`dot ${connection === 'open' ? 'live' : 'off'}`} /> {CONNECTION_TEXT[connection]}
        {transport !== undefined && <span className="muted"> · {transport === 'wails' ? 'window' : 'browser'}</span>}
        {version !== undefined && <span className="muted"> · {version}</span>}
      </div>
      <AuthStatus />
    </footer>
  );
}
