// The transcript corpus (testdata/corpus, written by scripts/record-corpus.ts) stays what its manifest says:
// every file listed, nobody's home path or secret in it, every line JSON unless listed as corrupt, and the shapes
// the history tests rely on still present after a re-recording.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findHomePaths, findSecrets, scrubText } from '../../scripts/corpus/scrub.js';

const CORPUS = resolve(dirname(fileURLToPath(import.meta.url)), '../../testdata/corpus');
const DOCS = new Set(['manifest.json', 'PROVENANCE.md', 'README.md', 'recorded/README.md']);

interface Manifest {
  knownCorruptLines: Array<{ file: string; line: number; why: string }>;
  files: Array<{ file: string; cliVersion: string; scenario: string; covers: string[]; source: string; rewritten: string[] }>;
}

const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as Manifest;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [relative(CORPUS, path)];
  });
}

const files = walk(CORPUS).filter((f) => !DOCS.has(f));
const jsonl = files.filter((f) => f.endsWith('.jsonl'));

/** Every parsed line of the corpus, with its file. */
function entries(): Array<{ file: string; line: Record<string, unknown> }> {
  return jsonl.flatMap((file) =>
    readFileSync(join(CORPUS, file), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .flatMap((l) => {
        try {
          return [{ file, line: JSON.parse(l) as Record<string, unknown> }];
        } catch {
          return [];
        }
      }),
  );
}

describe('transcript corpus', () => {
  it('lists every file in the manifest, and only files that exist', () => {
    expect(files.length).toBeGreaterThan(0);
    const listed = manifest.files.map((e) => e.file);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...files].sort()).toEqual([...listed].sort());
    for (const e of manifest.files) {
      expect(e.cliVersion, e.file).toMatch(/^\d+\.\d+\.\d+$/);
      expect(e.source, e.file).not.toBe('');
      expect(e.covers.length, e.file).toBeGreaterThan(0);
    }
  });

  it('holds no home path of a named person and no secret, in names or contents', () => {
    for (const file of files) {
      const text = readFileSync(join(CORPUS, file), 'utf8');
      expect(findHomePaths(file), file).toEqual([]);
      expect(findHomePaths(text), file).toEqual([]);
      expect(findSecrets(text), file).toEqual([]);
    }
  });

  it('has a JSON object on every line, except the lines listed as corrupt', () => {
    const corrupt = new Set(manifest.knownCorruptLines.map((c) => `${c.file}:${c.line}`));
    for (const c of manifest.knownCorruptLines) expect(existsSync(join(CORPUS, c.file)), c.file).toBe(true);
    for (const file of jsonl) {
      const lines = readFileSync(join(CORPUS, file), 'utf8').split('\n');
      lines.forEach((text, i) => {
        if (text === '' && i === lines.length - 1) return;
        const where = `${file}:${i + 1}`;
        let ok = false;
        try {
          const value: unknown = JSON.parse(text);
          ok = typeof value === 'object' && value !== null && !Array.isArray(value);
        } catch {
          ok = false;
        }
        expect(ok || corrupt.has(where), where).toBe(true);
      });
    }
  });

  it('keeps the shapes the history tests need, across the three CLI generations', () => {
    const all = entries();
    const versions = new Set(all.map((e) => e.line['version']).filter((v): v is string => typeof v === 'string'));
    const has = (pred: (line: Record<string, unknown>, file: string) => boolean): boolean => all.some((e) => pred(e.line, e.file));
    const text = (line: Record<string, unknown>): string => JSON.stringify(line['message'] ?? line['content'] ?? '');
    expect([...versions].map((v) => v.split('.').slice(0, 2).join('.'))).toEqual(expect.arrayContaining(['1.0', '2.0', '2.1']));
    expect(has((l) => l['subtype'] === 'compact_boundary' && l['parentUuid'] === null && typeof l['logicalParentUuid'] === 'string')).toBe(true);
    expect(has((l) => l['isCompactSummary'] === true)).toBe(true);
    // Subagents: inline (1.0.x), beside the session (2.0.x), in <session>/subagents/ (2.1.x).
    expect(has((l, f) => l['isSidechain'] === true && /^[^/]+\/[^/]+\/[0-9a-f-]{36}\.jsonl$/.test(f.replace(/^recorded\//, '')))).toBe(true);
    expect(jsonl.some((f) => /\/-[^/]+\/agent-[^/]+\.jsonl$/.test(f) && !f.includes('/subagents/'))).toBe(true);
    expect(jsonl.some((f) => /\/[0-9a-f-]{36}\/subagents\/agent-[^/]+\.jsonl$/.test(f))).toBe(true);
    expect(has((l) => l['type'] === 'user' && text(l).includes('"type":"image"'))).toBe(true);
    expect(has((l) => l['isApiErrorMessage'] === true)).toBe(true);
    expect(has((l) => text(l).includes('<local-command-stdout>'))).toBe(true);
    expect(has((l) => text(l).includes('<command-name>'))).toBe(true);
    expect(has((l) => l['toolUseResult'] !== undefined && JSON.stringify(l['toolUseResult']).includes('structuredPatch'))).toBe(true);
    expect(has((l) => text(l).includes('\\u001b['))).toBe(true);
    // A reply stored twice under one message.id (Claude Code writes a line per content block).
    const ids = all.flatMap((e) => {
      const m = e.line['message'] as { id?: unknown } | undefined;
      return e.line['type'] === 'assistant' && typeof m?.id === 'string' ? [`${e.file} ${m.id}`] : [];
    });
    expect(new Set(ids).size).toBeLessThan(ids.length);
    // A session ending mid-tool: a tool_use in the file with no tool_result for it.
    const uses = new Set<string>();
    const results = new Set<string>();
    for (const e of all) {
      const content = (e.line['message'] as { content?: unknown } | undefined)?.content;
      if (!Array.isArray(content)) continue;
      for (const b of content as Array<{ type?: string; id?: string; tool_use_id?: string }>) {
        if (b.type === 'tool_use' && b.id !== undefined) uses.add(`${e.file} ${b.id}`);
        if (b.type === 'tool_result' && b.tool_use_id !== undefined) results.add(`${e.file} ${b.tool_use_id}`);
      }
    }
    expect([...uses].some((u) => !results.has(u))).toBe(true);
  });
});

describe('corpus scrubbing', () => {
  it('finds and rewrites the home paths of named people in every spelling', () => {
    const text = String.raw`{"cwd":"/Users/alice/src/app","p":"/home/bob/x","w":"C:\Users\carol\repo","k":"-Users-alice-src-app"}`;
    expect(findHomePaths(text)).toHaveLength(4);
    const clean = scrubText(text, []);
    expect(findHomePaths(clean)).toEqual([]);
    expect(clean).toContain('"cwd":"/home/user/src/app"');
    expect(clean).toContain('"k":"-home-user-src-app"');
    expect(scrubText('/tmp/x1/y and -tmp-x1-y', [{ from: '/tmp/x1', to: '/home/user' }])).toBe('/home/user/y and -home-user-y');
  });

  it('finds secret shapes but not Claude Code attribution address', () => {
    const key = ['sk', 'ant', 'api03', 'abcdefghijklmnop'].join('-');
    expect(findSecrets(`token ${key} and someone@example.org`)).toHaveLength(2);
    expect(findSecrets('Co-Authored-By: Claude <noreply@anthropic.com>')).toEqual([]);
  });
});
