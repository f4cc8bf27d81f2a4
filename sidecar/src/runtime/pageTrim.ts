// Lets the kernel take back the sidecar's read-only file pages (issue 32): an idle session's sidecar held ≈ 43 MB
// of its executable's pages, faulted in by loading the SDK and warming its paths, most of which it does not touch
// again until the next reply. Only file mappings that cannot be written and hold no written (anonymous) page are
// dropped (madvise MADV_DONTNEED), so nothing is lost: a page touched again is read back from the page cache. The
// same trim as the reaper's (app/sidecar/reapertrim_linux.go). Linux under Bun only (madvise through bun:ffi);
// anywhere else (node running the tests, macOS, Windows) it does nothing.
import { readFileSync } from 'node:fs';
import { diag, shortError } from '../util/diagnostics.js';

// BATON_SIDECAR_PAGE_TRIM=0 keeps the pages (for the benches' A/B of a trim's cost), =report says on stderr what
// each trim let go (for tests). Silent by default: the host reads a dead sidecar's stderr to tell why it died, and
// a routine line there would hide "no diagnostics".
const mode = process.env['BATON_SIDECAR_PAGE_TRIM'];

/** No trim runs (BATON_SIDECAR_PAGE_TRIM=0). */
export const pageTrimOff = mode === '0';

/** Drops the read-only file pages unless trims are off, and says what went when asked to. */
export async function trimPages(): Promise<void> {
  if (pageTrimOff) return;
  const bytes = await dropFilePages();
  if (mode === 'report' && bytes > 0) diag(`let ${(bytes / 1048576).toFixed(1)} MB of read-only file pages go`);
}

/** A mapping's address range, [start, end). */
export interface Range {
  start: bigint;
  end: bigint;
}

/** Linux's MADV_DONTNEED. */
const MADV_DONTNEED = 4;

/** The madvise(2) of libc, loaded once. */
type Madvise = (start: bigint, length: bigint, advice: number) => number;

/** The part of bun:ffi used here (the module's own types are Bun's, not in this package's). */
interface BunFfi {
  dlopen(library: string, symbols: Record<string, { args: string[]; returns: string }>): { symbols: Record<string, unknown> };
}

let loaded: Promise<Madvise | undefined> | undefined;

/**
 * Drops the read-only file pages of this process and resolves with the bytes that were resident in them (0 where
 * the trim does not run, or when it failed: the pages merely stay).
 */
export async function dropFilePages(): Promise<number> {
  loaded ??= loadMadvise();
  const madvise = await loaded;
  if (madvise === undefined) return 0;
  let smaps: string;
  try {
    smaps = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return 0;
  }
  let dropped = 0;
  for (const { range, residentBytes } of readOnlyFileMappings(smaps)) {
    if (madvise(range.start, range.end - range.start, MADV_DONTNEED) === 0) dropped += residentBytes;
  }
  return dropped;
}

/**
 * The mappings of /proc/self/smaps the trim may drop: backed by a file (a path, not [vdso] and the like), without
 * write permission, and with no anonymous page — a read-only mapping can still hold pages written before it was
 * made read-only (relocations, RELRO), which dropping would lose.
 */
export function readOnlyFileMappings(smaps: string): Array<{ range: Range; residentBytes: number }> {
  const found: Array<{ range: Range; residentBytes: number }> = [];
  let range: Range | undefined;
  let resident = 0;
  for (const line of smaps.split('\n')) {
    const header = mappingHeader(line);
    if (header !== undefined) {
      range = header ?? undefined;
      resident = 0;
      continue;
    }
    if (range === undefined) continue;
    if (line.startsWith('Rss:')) resident = kilobytes(line) * 1024;
    else if (line.startsWith('Anonymous:')) {
      if (kilobytes(line) === 0) found.push({ range, residentBytes: resident });
      range = undefined;
    }
  }
  return found;
}

/** A mapping's line ("start-end perms offset dev inode path"): its range when it is a read-only file mapping,
 * null for any other mapping's line, undefined for a "Key: value" line. */
function mappingHeader(line: string): Range | null | undefined {
  const fields = line.split(/\s+/);
  const first = fields[0] ?? '';
  const dash = first.indexOf('-');
  if (dash <= 0 || first.endsWith(':')) return undefined;
  const perms = fields[1] ?? '';
  const path = fields[5] ?? '';
  if (!path.startsWith('/') || perms.includes('w')) return null;
  const start = hexAddress(first.slice(0, dash));
  const end = hexAddress(first.slice(dash + 1));
  return start !== undefined && end !== undefined && end > start ? { start, end } : null;
}

function hexAddress(text: string): bigint | undefined {
  return /^[0-9a-f]+$/i.test(text) ? BigInt(`0x${text}`) : undefined;
}

function kilobytes(line: string): number {
  const value = Number.parseInt(line.slice(line.indexOf(':') + 1), 10);
  return Number.isFinite(value) ? value : 0;
}

/** libc's madvise through bun:ffi, or undefined where there is none to call (not Linux, not Bun). */
async function loadMadvise(): Promise<Madvise | undefined> {
  if (process.platform !== 'linux' || !('Bun' in globalThis)) return undefined;
  // A specifier in a variable: node's loader and vitest's transform never see bun:ffi.
  const specifier = 'bun:ffi';
  try {
    const ffi = (await import(/* @vite-ignore */ specifier)) as BunFfi;
    const libc = ffi.dlopen('libc.so.6', { madvise: { args: ['u64', 'u64', 'i32'], returns: 'i32' } });
    return libc.symbols['madvise'] as Madvise;
  } catch (error) {
    diag(`cannot let read-only pages go (bun:ffi, libc madvise): ${shortError(error)}`);
    return undefined;
  }
}
