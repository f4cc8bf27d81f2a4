// stdout carries protocol lines only: console.* and process.stdout.write land on stderr once the guard ran.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIDECAR_ROOT } from '../helpers/fakeApi.js';
import { BUN } from '../helpers/sidecarProcess.js';

describe('the stdout guard', () => {
  it('routes every other writer to stderr', () => {
    const run = spawnSync(BUN, [join(SIDECAR_ROOT, 'test/fixtures/noisyMain.ts')], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('{"protocol":true}\n');
    for (const noise of ['console.log', 'console.info', 'console.warn', 'console.debug', 'process.stdout.write']) {
      expect(run.stderr).toContain(`${noise} noise`);
    }
  });
});
