import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dropFilePages, readOnlyFileMappings } from '../../src/runtime/pageTrim.js';
import { SIDECAR_ROOT } from '../helpers/fakeApi.js';
import { BUN } from '../helpers/sidecarProcess.js';

const mapping = (header: string, rss: number, anonymous: number): string =>
  [header, `Size:               1024 kB`, `Rss:                ${rss} kB`, `Anonymous:          ${anonymous} kB`, 'VmFlags: rd mr mw me'].join('\n');

describe('readOnlyFileMappings', () => {
  it('picks only file mappings that cannot be written and hold no written page', () => {
    const smaps = [
      mapping('00400000-00ab2000 r-xp 00000000 fd:01 123 /opt/baton/baton-sidecar', 300, 0),
      mapping('00ab2000-01246000 r--p 006b2000 fd:01 123 /opt/baton/baton-sidecar', 200, 0),
      mapping('01246000-012be000 rw-p 00e46000 fd:01 123 /opt/baton/baton-sidecar', 100, 40), // written data
      mapping('012be000-012c0000 r--p 00e46000 fd:01 123 /usr/lib/libc.so.6', 8, 8), // relocated (RELRO)
      mapping('012c0000-0330e000 rw-p 00000000 00:00 0', 500, 500),
      mapping('7ffd1000-7ffd3000 r-xp 00000000 00:00 0                          [vdso]', 4, 0),
      mapping('7f00deadb000-7f00deadc000 r--s 00000000 fd:01 9 /tmp/a file with spaces', 4, 0),
    ].join('\n');
    expect(readOnlyFileMappings(smaps)).toEqual([
      { range: { start: 0x400000n, end: 0xab2000n }, residentBytes: 300 * 1024 },
      { range: { start: 0xab2000n, end: 0x1246000n }, residentBytes: 200 * 1024 },
      { range: { start: 0x7f00deadb000n, end: 0x7f00deadc000n }, residentBytes: 4 * 1024 },
    ]);
  });
});

describe('dropFilePages', () => {
  it('does nothing under node (no bun:ffi)', async () => {
    expect(await dropFilePages()).toBe(0);
  });

  it.runIf(process.platform === 'linux')('lets a Bun process’s read-only file pages go', () => {
    const run = spawnSync(BUN, [join(SIDECAR_ROOT, 'test/fixtures/pageTrimMain.ts')], { cwd: SIDECAR_ROOT, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const { before, dropped, after } = JSON.parse(run.stdout) as { before: number; dropped: number; after: number };
    expect(before).toBeGreaterThan(4 << 20); // bun's executable and the SDK's code, faulted in
    expect(dropped).toBeGreaterThan(0);
    expect(after).toBeLessThan(before / 2);
  });
});
