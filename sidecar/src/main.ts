// Entry point: stdio wiring only. stdout carries protocol lines; everything else goes to stderr.
import { protocolWrite } from './stdio/guardStdout.js';
import { coalesce } from './protocol/coalesce.js';
import { LineWriter } from './protocol/lineWriter.js';
import type { Backend } from './runtime/backend.js';
import { IdleTrim } from './runtime/idleTrim.js';
import { dropFilePages } from './runtime/pageTrim.js';
import { Sidecar } from './runtime/sidecar.js';
import { wallClock } from './util/clock.js';
import { diag } from './util/diagnostics.js';

// Microsecond stamps (util/clock.ts): a streamed piece's latency is read off them.
const now = wallClock();

// Read-only pages go once the sidecar is idle (runtime/idleTrim.ts); BATON_SIDECAR_PAGE_TRIM=0 keeps them (for
// the runtime bench's A/B of its cost), =report says on stderr what each trim let go (for tests). Silent by
// default: the host reads a dead sidecar's stderr to tell why it died, and a routine line there would hide
// "no diagnostics".
const trimMode = process.env['BATON_SIDECAR_PAGE_TRIM'];
const trim = trimMode === '0' ? undefined : new IdleTrim(() => void dropFilePages().then(trimMode === 'report' ? reportTrim : undefined));

function reportTrim(bytes: number): void {
  if (bytes > 0) diag(`let ${(bytes / 1048576).toFixed(1)} MB of read-only file pages go`);
}

async function loadBackend(): Promise<Backend> {
  if (process.env['BATON_SIDECAR_TEST_DRIVER'] === '1') {
    const { TestDriverBackend } = await import('./driver/testDriver.js');
    diag('running the deterministic test driver (BATON_SIDECAR_TEST_DRIVER=1); the SDK is not loaded');
    return new TestDriverBackend(now);
  }
  // Loaded only here, so the test driver never evaluates the SDK.
  const { SdkBackend } = await import('./session/sdkBackend.js');
  return new SdkBackend(now, () => trim?.warmedUp());
}

const sidecar = new Sidecar({
  backend: await loadBackend(),
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
