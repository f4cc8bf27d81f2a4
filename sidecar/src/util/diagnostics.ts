// Diagnostics for people reading the sidecar's stderr. Never pass prompts, file contents or tokens here.
export function diag(message: string): void {
  process.stderr.write(`baton-sidecar: ${message}\n`);
}

/** A short, single-line description of a thrown value, without stack or attached stderr dumps. */
export function shortError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const firstLine = text.split('\n', 1)[0] ?? '';
  // The SDK appends the CLI's stderr ("… stderr: <dump>"); that belongs on stderr, not in user-visible errors.
  const withoutDump = firstLine.replace(/\s*stderr:.*$/s, '').trim();
  return withoutDump.length > 300 ? `${withoutDump.slice(0, 300)}…` : withoutDump || 'unknown error';
}
