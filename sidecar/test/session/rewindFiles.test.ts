// Which files a real rewind restored: Claude Code's real rewind lists none, so they are what a dry run would change
// before it less what one still would after. (test/e2e/sdkSession.test.ts rewinds through the real SDK and CLI.)
import type { RewindFilesResult } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { type Rewinder, rewindFiles } from '../../src/session/rewindFiles.js';

const MESSAGE = 'a1b2c3d4-0000-4000-8000-000000000001';

/** A query whose dry runs answer from the files that differ from the checkpoint; the real rewind restores them. */
function checkpoint(differ: string[], { skipped = [] as string[], real = { canRewind: true } as RewindFilesResult } = {}) {
  let now = [...differ];
  const calls: boolean[] = [];
  const query: Rewinder = {
    rewindFiles: (message, options) => {
      expect(message).toBe(MESSAGE);
      const dry = options?.dryRun === true;
      calls.push(dry);
      if (dry) return Promise.resolve({ canRewind: true, filesChanged: [...now], insertions: now.length, deletions: 0 });
      if (real.canRewind) now = now.filter((f) => skipped.includes(f));
      return Promise.resolve(real);
    },
  };
  return { query, calls };
}

describe('rewindFiles', () => {
  it('a dry run is passed on as it is', async () => {
    const { query, calls } = checkpoint(['/p/a.txt']);
    expect(await rewindFiles(query, MESSAGE, true)).toEqual({ canRewind: true, filesChanged: ['/p/a.txt'], insertions: 1, deletions: 0 });
    expect(calls).toEqual([true]);
  });

  it('a real rewind lists the files it restored', async () => {
    const { query, calls } = checkpoint(['/p/a.txt', '/p/b.txt']);
    expect(await rewindFiles(query, MESSAGE, false)).toEqual({ canRewind: true, filesChanged: ['/p/a.txt', '/p/b.txt'] });
    expect(calls).toEqual([true, false, true]);
  });

  it('a file the rewind left as it was (skipped for link safety) is not counted as restored', async () => {
    const { query } = checkpoint(['/p/a.txt', '/p/link.txt'], { skipped: ['/p/link.txt'] });
    expect(await rewindFiles(query, MESSAGE, false)).toEqual({ canRewind: true, filesChanged: ['/p/a.txt'] });
  });

  it('a refused rewind says why and measures nothing after it', async () => {
    const { query, calls } = checkpoint(['/p/a.txt'], { real: { canRewind: false, error: 'No file checkpoint found for this message.' } });
    expect(await rewindFiles(query, MESSAGE, false)).toEqual({ canRewind: false, error: 'No file checkpoint found for this message.' });
    expect(calls).toEqual([true, false]);
  });
});
