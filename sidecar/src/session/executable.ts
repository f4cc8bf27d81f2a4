// Which claude binary a session runs. Always resolved here and passed explicitly: a compiled sidecar has no
// node_modules next to the SDK code, so the SDK's own lookup would fail there.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ProtocolFailure } from '../protocol/errors.js';

export type ExecutableSource = 'env' | 'sdk_package' | 'host';

export interface ExecutableChoice {
  path: string;
  source: ExecutableSource;
}

export interface ExecutableLookup {
  env: NodeJS.ProcessEnv;
  /** The host's fallback (start's `executable`). */
  hostPath: string | undefined;
  /** The SDK's native platform package binary, when it resolves (a dev tree). */
  resolveSdkBinary: () => string | undefined;
  isFile?: (path: string) => boolean;
}

export function selectExecutable(lookup: ExecutableLookup): ExecutableChoice {
  const isFile = lookup.isFile ?? fileExists;
  const fromEnv = lookup.env['CLAUDE_CODE_EXECUTABLE'];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!isFile(fromEnv)) {
      throw new ProtocolFailure('sdk_error', `CLAUDE_CODE_EXECUTABLE points to ${fromEnv}, which does not exist; fix or unset that variable`);
    }
    return { path: fromEnv, source: 'env' };
  }
  // The host's path wins: the host checked it against the pinned sha256. The SDK's own lookup would resolve from
  // wherever the sidecar runs (a compiled sidecar has no node_modules: from the working directory), so it runs a
  // claude planted in any folder above it; it is only for a sidecar started without a host path (its own tests).
  if (lookup.hostPath !== undefined && lookup.hostPath !== '') {
    if (isFile(lookup.hostPath)) return { path: lookup.hostPath, source: 'host' };
  } else {
    const fromSdk = lookup.resolveSdkBinary();
    if (fromSdk !== undefined && isFile(fromSdk)) return { path: fromSdk, source: 'sdk_package' };
  }
  const tried = lookup.hostPath !== undefined ? ` (the host's path ${lookup.hostPath} does not exist)` : '';
  throw new ProtocolFailure(
    'sdk_error',
    `no claude executable found${tried}: let Baton download Claude Code again, install it, or set CLAUDE_CODE_EXECUTABLE to its path`,
  );
}

/** The SDK's platform package candidates, in the order the SDK itself tries them. */
export function sdkBinaryCandidates(platform: NodeJS.Platform, arch: string, glibc: boolean): string[] {
  const binary = platform === 'win32' ? 'claude.exe' : 'claude';
  const base = `@anthropic-ai/claude-agent-sdk-${platform}-${arch}`;
  if (platform !== 'linux') return [`${base}/${binary}`];
  return glibc ? [`${base}/${binary}`, `${base}-musl/${binary}`] : [`${base}-musl/${binary}`, `${base}/${binary}`];
}

/** Resolves the native binary from the SDK package's own location, as the SDK would. */
export function resolveSdkBinary(): string | undefined {
  let sdkEntry: string;
  try {
    // Built at run time so a bundler cannot mistake the name for a file to embed.
    sdkEntry = createRequire(import.meta.url).resolve(['@anthropic-ai', 'claude-agent-sdk'].join('/'));
  } catch {
    return undefined;
  }
  const fromSdk = createRequire(sdkEntry);
  for (const candidate of sdkBinaryCandidates(process.platform, process.arch, hasGlibc())) {
    try {
      const path = fromSdk.resolve(candidate);
      if (fileExists(path)) return path;
    } catch {
      // Not installed for this platform: try the next candidate.
    }
  }
  return undefined;
}

function hasGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return typeof report?.header?.glibcVersionRuntime === 'string';
}

function fileExists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
