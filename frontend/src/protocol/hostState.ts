// The host's own state, pushed whole (provisioning, sign-in, the index): read by the console API's snapshot and by the host's
// push events alike, so it lives apart from both. The shapes are the contract's (api.gen.ts).
import { assertNever } from '../lib/assertNever';
import type { AuthState, AuthStatus, IndexState } from './api.gen';

export type { AuthState, AuthWarning, IndexState, IndexStatus, ProvisionState, ProvisionStatus } from './api.gen';

/** signed_in | signed_out | unknown */
export function authStatus(auth: AuthState): AuthStatus {
  return auth.status ?? 'unknown';
}

/** The index before the host said anything of it (an older host, or none kept). */
export const UNKNOWN_INDEX: IndexState = { state: 'unknown', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };

/** Whether the index is mapping transcripts now (what the sidebar's indicator shows). */
export function indexBusy(index: IndexState): boolean {
  switch (index.state) {
    case 'building':
    case 'rebuilding':
      return true;
    case 'unknown':
    case 'ready':
    case 'failed':
      return false;
    default:
      return assertNever(index.state);
  }
}
