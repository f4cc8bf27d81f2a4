// Rewrites home paths in transcript text and finds secrets in it, for the transcript corpus
// (testdata/corpus). Works on raw text, not parsed JSON, so a line stays byte for byte what the CLI wrote
// except for the rewritten paths. The corpus test (test/corpus/integrity.test.ts) checks with the same patterns.

/** Where every home directory ends up. */
export const SCRUBBED_HOME = '/home/user';

/** Claude Code's project directory name for a cwd: every non-alphanumeric character becomes '-'. */
export function projectKey(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * Home paths of a named person, in every spelling a transcript holds: POSIX and Windows (raw and JSON-escaped
 * backslashes) and the project-key spelling of each. `user` itself is the scrubbed name, so it never matches.
 */
export const HOME_PATH_PATTERNS: readonly RegExp[] = [
  /\/Users\/(?!user\/)[^/\s"'\\]+\//g,
  /\/home\/(?!user\/)[^/\s"'\\]+\//g,
  /[A-Za-z]:(?:\\\\|\\)Users(?:\\\\|\\)(?!user\\)[^\\\s"'/]+(?:\\\\|\\)/g,
  /-Users-(?!user-)[A-Za-z0-9_.]+-/g,
  /-home-(?!user-)[A-Za-z0-9_.]+-/g,
  /\b[A-Za-z]--Users-(?!user-)[A-Za-z0-9_.]+-/g,
];

/** Secret shapes a corpus file must not hold. */
export const SECRET_PATTERNS: readonly { name: string; re: RegExp }[] = [
  { name: 'anthropic key', re: /sk-ant-[A-Za-z0-9_-]{8,}/ },
  { name: 'github token', re: /\bgh[pousr]_[A-Za-z0-9]{20,}/ },
  { name: 'aws access key', re: /\bAKIA[0-9A-Z]{16}\b/ },
  { name: 'private key', re: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  { name: 'email', re: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/ },
];

/** Addresses that are nobody's: Claude Code's own commit attribution. */
export const ALLOWED_EMAILS: readonly string[] = ['noreply@anthropic.com'];

/** Replaces each `from` (and its project-key spelling) by `to`, then any other person's home by SCRUBBED_HOME. */
export function scrubText(text: string, roots: ReadonlyArray<{ from: string; to: string }>): string {
  let out = text;
  for (const { from, to } of roots) {
    out = out.split(from).join(to).split(projectKey(from)).join(projectKey(to));
  }
  return out
    .replace(/\/Users\/[^/\s"'\\]+\//g, `${SCRUBBED_HOME}/`)
    .replace(/\/home\/[^/\s"'\\]+\//g, `${SCRUBBED_HOME}/`)
    .replace(/[A-Za-z]:(?:\\\\|\\)Users(?:\\\\|\\)[^\\\s"'/]+(?:\\\\|\\)/g, `${SCRUBBED_HOME}/`)
    .replace(/-Users-[A-Za-z0-9_.]+-/g, `${projectKey(SCRUBBED_HOME)}-`)
    .replace(/\b[A-Za-z]--Users-[A-Za-z0-9_.]+-/g, `${projectKey(SCRUBBED_HOME)}-`);
}

/** The home paths of a named person left in text (empty when clean). */
export function findHomePaths(text: string): string[] {
  return HOME_PATH_PATTERNS.flatMap((re) => [...text.matchAll(re)].map((m) => m[0]));
}

/** The secret kinds found in text (empty when clean). */
export function findSecrets(text: string): string[] {
  const found: string[] = [];
  for (const { name, re } of SECRET_PATTERNS) {
    const global = new RegExp(re.source, 'g');
    for (const m of text.matchAll(global)) {
      if (name === 'email' && ALLOWED_EMAILS.includes(m[0].toLowerCase())) continue;
      found.push(`${name}: ${m[0].slice(0, 12)}…`);
    }
  }
  return found;
}
