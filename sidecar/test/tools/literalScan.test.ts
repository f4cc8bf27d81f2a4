// Claude Code's tool names are spelled in one file, the catalogue (sidecar/src/tools/catalogue.ts): everything
// else in the sidecar, the console and the Go host branches on the catalogue's toolKind and prints its title. This
// scans their production sources for a tool name as a whole string literal ('Bash', "Write", `Edit`) and fails
// with the file:line of each stray one. Comments are skipped (they may name a tool to say why).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BUILTIN_TOOL_NAMES, LEGACY_TOOL_NAME_ALIASES } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/tools/catalogue.js';
import { SIDECAR_ROOT } from '../helpers/fakeApi.js';

const REPO = join(SIDECAR_ROOT, '..');

/** The catalogue's names and every built-in name the SDK knows, with the legacy aliases (Task → Agent). */
const NAMES = new Set<string>([...TOOL_NAMES, ...BUILTIN_TOOL_NAMES, ...Object.keys(LEGACY_TOOL_NAME_ALIASES)]);

/** The files allowed to name tools, each for a reason of its own. */
const ALLOWED = new Set([
  // The catalogue itself.
  'sidecar/src/tools/catalogue.ts',
  // The fake Anthropic API plays the model, whose tool_use blocks must name the tools it calls; test support,
  // built only into tests (its package is internal), though its file name does not end in _test.go.
  'app/internal/fakeapi/script.go',
]);

interface Tree {
  dir: string;
  /** Which files of it are production sources. */
  take: (file: string) => boolean;
}

const TREES: Tree[] = [
  { dir: 'sidecar/src', take: (f) => f.endsWith('.ts') },
  { dir: 'frontend/src', take: (f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts') && !f.endsWith('.test.tsx') },
  { dir: 'app', take: (f) => f.endsWith('.go') && !f.endsWith('_test.go') },
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'testdata' ? [] : files(path);
    return [path];
  });
}

/**
 * A kinds file's metadata tables (from its first `*_META = {`) hold example events, the fixture lines of the wire:
 * data that names the tools a recorded call used, not code that branches on them. The schemas above stay scanned.
 */
function codeOf(rel: string, source: string): string {
  if (!rel.startsWith('sidecar/src/protocol/kinds/')) return source;
  const tables = source.search(/^export const [A-Z_]+_META = \{/m);
  return tables < 0 ? source : source.slice(0, tables);
}

const LITERAL = /(['"`])([A-Za-z_]+)\1/g;

/** Every tool name written as a whole string literal in a line of code (not a comment). */
function strayNames(source: string): { line: number; name: string }[] {
  const found: { line: number; name: string }[] = [];
  source.split('\n').forEach((text, index) => {
    const code = text.trimStart();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return;
    for (const match of code.matchAll(LITERAL)) {
      const name = match[2]!;
      if (NAMES.has(name)) found.push({ line: index + 1, name });
    }
  });
  return found;
}

describe('tool names live in the catalogue', () => {
  it('finds a name in a literal and skips it in a comment', () => {
    expect(strayNames("if (name === 'Bash') x();\n// the 'Bash' tool\nconst a = \"Edit\";\nconst b = 'Bashful';")).toEqual([
      { line: 1, name: 'Bash' },
      { line: 3, name: 'Edit' },
    ]);
  });

  it('no production source outside the catalogue spells a Claude Code tool name', () => {
    const stray: string[] = [];
    for (const tree of TREES) {
      const sources = files(join(REPO, tree.dir)).filter((path) => tree.take(relative(REPO, path).split('\\').join('/')));
      expect(sources.length, `${tree.dir} has sources to scan`).toBeGreaterThan(20);
      for (const path of sources) {
        const rel = relative(REPO, path).split('\\').join('/');
        if (ALLOWED.has(rel)) continue;
        for (const hit of strayNames(codeOf(rel, readFileSync(path, 'utf8')))) stray.push(`${rel}:${hit.line}: '${hit.name}'`);
      }
    }
    expect(stray, 'use the catalogue (sidecar/src/tools/catalogue.ts) and branch on toolKind instead').toEqual([]);
  });
});
