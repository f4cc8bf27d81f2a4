// The host's own state, pushed whole (provisioning, sign-in): read by the console API's snapshot and by the host's
// push events alike, so it lives apart from both. The shapes are the contract's (api.gen.ts).
import type { AuthState, AuthStatus } from './api.gen';

export type { AuthState, AuthWarning, ProvisionState, ProvisionStatus } from './api.gen';

/** signed_in | signed_out | unknown */
export function authStatus(auth: AuthState): AuthStatus {
  return auth.status ?? 'unknown';
}
