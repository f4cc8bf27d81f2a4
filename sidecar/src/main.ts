// Entry point: stdio wiring only. stdout carries protocol lines; everything else goes to stderr.
import { protocolWrite } from './stdio/guardStdout.js';
import { coalesce } from './protocol/coalesce.js';
import { LineWriter } from './protocol/lineWriter.js';
import type { Backend } from './runtime/backend.js';
import { IdleTrim } from './runtime/idleTrim.js';
import { pageTrimOff, trimPages } from './runtime/pageTrim.js';
import { Sidecar } from './runtime/sidecar.js';
import { wallClock } from './util/clock.js';
import { diag } from './util/diagnostics.js';

// Microsecond stamps (util/clock.ts): a streamed piece's latency is read off them.
const now = wallClock();

// Read-only pages go once the sidecar is idle (runtime/idleTrim.ts; BATON_SIDECAR_PAGE_TRIM: runtime/pageTrim.ts).
const trim = pageTrimOff ? undefined : new IdleTrim(() => void trimPages());

async function loadBackend(): Promise<Backend> {
  if (process.env['BATON_SIDECAR_TEST_DRIVER'] === '1') {
    const { TestDriverBackend } = await import('./driver/testDriver.js');
    diag('running the deterministic test driver (BATON_SIDECAR_TEST_DRIVER=1); the SDK is not loaded');
    return new TestDriverBackend(now);
  }
  // Loaded only here, so the test driver never evaluates the SDK.
  const { SdkBackend } = await import('./session/sdkBackend.js');
  return new SdkBackend(now, { before: trimPages, after: () => trim?.warmedUp() });
}

const backend = await loadBackend();
// The index's own sidecar (app/index/mapper.go) runs no session, so no idle trim comes: the pages loading touched
// go before its first job (a large transcript's pass 1 needs ~12 of their ~45 MB; issue 26's RSS bound).
if (process.env['BATON_SIDECAR_INDEX'] === '1') await trimPages();

const sidecar = new Sidecar({
  backend,
  writer: new LineWriter(protocolWrite, { merge: coalesce }),
  now,
  ...(trim ? { watch: trim } : {}),
});

let exiting = false;
const exit = (reason: string): void => {
  if (exiting) return;
  exiting = true;
  diag(`${reason}: closing all sessions`);
  void sidecar.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      diag(`shutdown failed: ${String(error)}`);
      process.exit(1);
    },
  );
};

// A stray rejection (an SDK promise nobody awaited after its session ended) must not take the other sessions
// down with it; it is reported on stderr instead.
process.on('unhandledRejection', (reason: unknown) => {
  diag(`unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`);
});

process.stdin.on('data', (chunk: Buffer) => sidecar.push(chunk));
process.stdin.on('end', () => exit('stdin closed'));
process.stdin.on('error', () => exit('stdin failed'));
process.on('SIGTERM', () => exit('SIGTERM'));
process.on('SIGINT', () => exit('SIGINT'));
// A host that went away makes stdout fail with EPIPE; that must not crash the shutdown.
process.stdout.on('error', () => exit('stdout closed'));
