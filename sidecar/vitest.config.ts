import { defineConfig } from 'vitest/config';

// Tests spawn real processes (bun, claude) on a shared 2-core machine: run files one at a time.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
