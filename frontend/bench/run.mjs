// `npm run bench`: how fast a long transcript opens and how smoothly it scrolls, in headless Debian Chromium.
// It builds bench/page (the real console over an in-memory host holding one session of N messages) into a
// temp dir, serves it on loopback, and for a 100-message baseline and a 10,000-message session measures:
//   open → tail   ms from selecting the session to its last message being on screen (median of 3 loads)
//   load → tail   ms from navigation start to the same moment
//   scrolling     frames while scrolling up ~30,000 px (150 px a frame), how many took over 50 ms, p95 and max
// Figures are printed (and one JSON line for scripts). It exits non-zero only when it could not measure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { serve } from './serve.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const CHROMIUM = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
const SIZES = [100, 10_000];
const LOADS = 3;
const OPEN_BUDGET_MS = 1000;
const SLOW_FRAME_MS = 50;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

async function openTimes(page, origin, n) {
  const opens = [];
  const loads = [];
  let rows = 0;
  for (let i = 0; i < LOADS; i++) {
    await page.goto(`${origin}/?n=${n}`);
    await page.waitForFunction(() => /** @type {any} */ (window).__bench?.tailAt !== undefined, undefined, { timeout: 60_000 });
    const r = await page.evaluate(() => /** @type {any} */ (window).__bench);
    opens.push(r.tailAt - r.selectedAt);
    loads.push(r.tailAt);
    rows = r.rows;
  }
  return { open: median(opens), load: median(loads), rows };
}

/** Scrolls the transcript up a frame at a time and returns each frame's duration. */
async function scrollFrames(page) {
  return page.evaluate(
    ({ step, maxFrames }) =>
      new Promise((resolve) => {
        const scroller = document.querySelector('[data-testid="virtuoso-scroller"]');
        if (scroller === null) {
          resolve([]);
          return;
        }
        const frames = [];
        let last = performance.now();
        const tick = (now) => {
          frames.push(now - last);
          last = now;
          scroller.scrollTop -= step;
          if (frames.length < maxFrames && scroller.scrollTop > 0) requestAnimationFrame(tick);
          else resolve(frames.slice(1));
        };
        requestAnimationFrame(tick);
      }),
    { step: 150, maxFrames: 200 },
  );
}

function frameStats(frames) {
  const sorted = [...frames].sort((a, b) => a - b);
  return {
    frames: frames.length,
    slow: frames.filter((f) => f > SLOW_FRAME_MS).length,
    p95: round(sorted[Math.floor(sorted.length * 0.95)] ?? 0),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
}

async function main() {
  const out = mkdtempSync(join(tmpdir(), 'baton-bench-'));
  let server;
  let browser;
  try {
    await build({ configFile: join(HERE, 'vite.config.ts'), build: { outDir: out } });
    server = await serve(out);
    const origin = `http://127.0.0.1:${server.address().port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const results = [];
    for (const n of SIZES) {
      const { open, load, rows } = await openTimes(page, origin, n);
      const scroll = frameStats(await scrollFrames(page));
      results.push({ messages: rows, openToTailMs: round(open), loadToTailMs: round(load), ...scroll });
    }
    if (errors.length > 0) throw new Error(`the page raised errors: ${errors.join('; ')}`);
    console.log('\nBaton console: opening and scrolling a long transcript (headless Chromium, virtualized)\n');
    console.log('messages  open→tail ms  load→tail ms  scroll frames  >50 ms  p95 ms  max ms');
    for (const r of results) {
      console.log(
        `${String(r.messages).padStart(8)}  ${String(r.openToTailMs).padStart(12)}  ${String(r.loadToTailMs).padStart(12)}  ${String(r.frames).padStart(13)}  ${String(r.slow).padStart(6)}  ${String(r.p95).padStart(6)}  ${String(r.max).padStart(6)}`,
      );
    }
    const big = results[results.length - 1];
    const base = results[0];
    console.log(
      `\n${big.messages} messages: tail shown ${big.openToTailMs} ms after opening (budget ${OPEN_BUDGET_MS} ms: ${big.openToTailMs < OPEN_BUDGET_MS ? 'within' : 'OVER'}); ` +
        `${big.slow} of ${big.frames} scroll frames over ${SLOW_FRAME_MS} ms (baseline ${base.messages} messages: ${base.slow} of ${base.frames}).`,
    );
    console.log(`BENCH_JSON ${JSON.stringify({ openBudgetMs: OPEN_BUDGET_MS, slowFrameMs: SLOW_FRAME_MS, results })}`);
  } finally {
    await browser?.close();
    server?.close();
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
