// The host's own state, pushed whole (provisioning, sign-in): read by the console API's snapshot and by the host's
// push events alike, so it lives apart from both.

/**
 * Provisioning and sign-in states are defined by their own issues; until then the host sends
 * `{state: "unknown"}`. The console reads the fields below when present and shows the rest as is.
 */
export interface ProvisionState {
  state: string;
  bytes?: number;
  total?: number;
  rate?: number;
  source?: string;
  message?: string;
  hints?: string[];
  version?: string;
}

/** Claude Code's sign-in state: app/auth's State (`status`, `summary`, `reason`, …). */
export interface AuthState {
  status?: string;
  method?: string;
  summary?: string;
  reason?: string;
  plan?: string;
  provider?: string;
  keySource?: string;
  email?: string;
  organization?: string;
  warnings?: Array<{ code: string; message: string }>;
  signInCommand?: string;
  message?: string;
}

/** signed_in | signed_out | unknown */
export function authStatus(auth: AuthState): string {
  return auth.status ?? 'unknown';
}
