// The console's side of the console API's contract: api.gen.ts is current, and it names exactly console.json's
// calls and error codes (the Go host's dispatch table is generated from the same file).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_ERROR_CODES, CONSOLE_METHODS } from '../src/protocol/api.gen';

// Tests run from frontend/ (npm test); the contract lives beside it.
const root = `${resolve(process.cwd(), '..')}/`;

/** The console's own sources (src/), concatenated. */
function sources(dir = `${root}frontend/src`): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? sources(`${dir}/${e.name}`) : /\.tsx?$/.test(e.name) ? readFileSync(`${dir}/${e.name}`, 'utf8') : ''))
    .join('\n');
}

describe('api.gen.ts', () => {
  it('is what console.json generates (run scripts/gen-protocol after changing sidecar/src/protocol/console.ts)', () => {
    expect(() => execFileSync('node', [`${root}frontend/scripts/gen-protocol.mjs`, '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('names the contract’s calls and error codes', () => {
    const contract = JSON.parse(readFileSync(`${root}app/protocol/schema/console.json`, 'utf8')) as {
      'x-calls': Array<{ method: string }>;
      $defs: Record<string, { enum?: string[] }>;
    };
    expect([...CONSOLE_METHODS]).toEqual(contract['x-calls'].map((c) => c.method));
    expect([...CONSOLE_ERROR_CODES]).toEqual(contract.$defs['ErrorCode']?.enum);
  });

  // A call in the contract that the console never makes is a step of "Adding a call" (API.md) left out.
  it('has a caller in the console for every call', () => {
    const src = sources();
    const uncalled = CONSOLE_METHODS.filter((m) => !src.includes(`call('${m}'`));
    expect(uncalled).toEqual([]);
  });
});
