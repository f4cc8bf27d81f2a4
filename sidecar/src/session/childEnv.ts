// The environment claude runs with: everything the sidecar has, except what the host set for the sidecar alone.
// The host tunes the sidecar's own JavaScript runtime (app/sidecar/runtimeenv.go: e.g. BUN_JSC_useFTLJIT=0) and
// names those variables in BATON_SIDECAR_ONLY_ENV; claude is a Bun program too and must run exactly as it would
// without Baton, so they stop here. A variable the person set themselves is never named there and passes on.

/** Lists (comma-separated) the variables the host set for this process only. */
export const SIDECAR_ONLY_ENV = 'BATON_SIDECAR_ONLY_ENV';

export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = env[SIDECAR_ONLY_ENV];
  if (own === undefined) return { ...env };
  const out = { ...env };
  delete out[SIDECAR_ONLY_ENV];
  for (const name of own.split(',')) if (name !== '') delete out[name];
  return out;
}
