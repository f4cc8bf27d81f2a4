// `npm run bench:changes`: how fast the Changes panel paints, in headless Debian Chromium. It builds
// bench/changes (the real panel over an in-memory host) into a temp dir, serves it on loopback, and measures, for
// a 10-file / 500-line baseline and a 1,000-file / 50,000-line change whose first file's diff has 5,000 lines:
//   list   ms from the page's start to the file list painted      (goal ≤ 500 ms for 1,000 files)
//   diff   ms from clicking the first file to its diff painted    (goal ≤ 300 ms for 5,000 lines)
// each the median of 5 loads, with the ratio to the baseline measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { serve } from './serve.mjs';

const CHROMIUM = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
const LOADS = 5;
const CASES = [
  { name: 'baseline', files: 10, lines: 500, diff: 50 },
  { name: 'big', files: 1000, lines: 50_000, diff: 5000 },
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

const out = mkdtempSync(join(tmpdir(), 'baton-changes-bench-'));
let browser;
let server;
try {
  await build({
    configFile: false,
    root: fileURLToPath(new URL('./changes', import.meta.url)),
    base: './',
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir: out, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4000 },
  });
  server = await serve(out);
  const origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const results = {};
  for (const c of CASES) {
    const list = [];
    const diff = [];
    for (let i = 0; i < LOADS; i++) {
      await page.goto(`${origin}/?files=${c.files}&lines=${c.lines}&diff=${c.diff}`);
      await page.waitForFunction(() => /** @type {any} */ (window).__changesBench?.diffAt !== undefined, undefined, { timeout: 60_000 });
      const r = await page.evaluate(() => /** @type {any} */ (window).__changesBench);
      list.push(r.listAt - r.startAt);
      diff.push(r.diffAt - r.openAt);
    }
    results[c.name] = { ...c, listMs: round(median(list)), diffMs: round(median(diff)) };
  }
  const { baseline, big } = results;
  const verdict = (ms, goal) => (ms <= goal ? 'meets' : 'MISSES');
  console.log(`Changes panel, median of ${LOADS} loads:`);
  console.log(
    `  file list: ${big.files} files / ${big.lines} lines ${big.listMs} ms (baseline ${baseline.files} files ${baseline.listMs} ms, ${round(big.listMs / baseline.listMs)}×); goal ≤ 500 ms: ${verdict(big.listMs, 500)}`,
  );
  console.log(
    `  diff:      ${big.diff}-line file ${big.diffMs} ms (baseline ${baseline.diff} lines ${baseline.diffMs} ms, ${round(big.diffMs / baseline.diffMs)}×); goal ≤ 300 ms: ${verdict(big.diffMs, 300)}`,
  );
  console.log(JSON.stringify({ bench: 'changes-panel', ...results }));
} finally {
  await browser?.close();
  server?.close();
  rmSync(out, { recursive: true, force: true });
}
