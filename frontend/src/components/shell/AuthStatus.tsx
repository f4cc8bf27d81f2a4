// Claude Code's sign-in state, as `claude auth status` reports it through the host; when signed out, how to
// sign in (a button where the host can open a terminal, and the exact command).
import { type AuthState, authStatus } from '../../protocol/hostState';
import { useCallback, useState } from 'react';
import { useConsole, useStore } from '../../store/hooks';
import { SignInTerminal } from '../terminal/SignInTerminal';

export function authSummary(auth: AuthState): string {
  if (auth.summary !== undefined && auth.summary !== '') return auth.summary;
  switch (authStatus(auth)) {
    case 'signed_in':
      return 'Signed in';
    case 'signed_out':
      return 'Not signed in';
    default:
      return 'Sign-in state not known yet';
  }
}

export function AuthStatus() {
  const store = useStore();
  const auth = useConsole((s) => s.auth);
  const status = authStatus(auth);
  const [signingIn, setSigningIn] = useState(false);
  // Where Baton cannot run a terminal of its own, an external one is the fallback.
  const external = useCallback(() => {
    setSigningIn(false);
    void store.signIn();
  }, [store]);
  return (
    <div className={`auth ${status}`} data-testid="auth-status" title="What `claude auth status` reports">
      <div>{authSummary(auth)}</div>
      {auth.reason !== undefined && auth.reason !== '' && <div className="muted">{auth.reason}</div>}
      {auth.warnings?.map((w) => (
        <div key={w.code} className="warn-text">
          {w.message}
        </div>
      ))}
      {status === 'signed_out' && (
        <div className="sign-in">
          <button type="button" className="primary" onClick={() => setSigningIn(true)}>
            Sign in…
          </button>
          {signingIn && <SignInTerminal onClose={() => setSigningIn(false)} onUnavailable={external} />}
          {auth.signInCommand !== undefined && auth.signInCommand !== '' && (
            <div>
              or run <code className="copyable">{auth.signInCommand}</code> in a terminal
            </div>
          )}
        </div>
      )}
    </div>
  );
}
