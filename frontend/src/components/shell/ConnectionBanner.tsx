// Says what to do when this tab cannot get back to Baton: `baton serve` picks a new port and a new token at each
// start, so after a restart an old tab would otherwise reconnect forever to an address nobody answers at, or be
// refused by a token that no longer matches (issue 28).
import { useConsole } from '../../store/hooks';

export function ConnectionBanner() {
  const connection = useConsole((s) => s.connection);
  if (connection !== 'lost' && connection !== 'refused') return null;
  return (
    <div className="connection-banner" role="alert" data-testid="connection-banner" data-state={connection}>
      {connection === 'lost' ? (
        <>
          <strong>Baton is not answering at this address.</strong> If <code>baton serve</code> was restarted, it printed a new address (with a new token): open
          that one. This tab keeps trying meanwhile.
        </>
      ) : (
        <>
          <strong>This tab’s access no longer matches this Baton</strong> (it was restarted, or the address is from another launch). Open the address{' '}
          <code>baton serve</code> printed when it started.
        </>
      )}
    </div>
  );
}
