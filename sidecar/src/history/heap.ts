// Pass 1 parses every line of a transcript only to keep a few facts of each: JavaScriptCore grows its heap for
// that garbage and the process keeps the memory (a 120 MB transcript: ~300 MB RSS with ~30 MB live). One full
// collection once pass 1 is done keeps the peak near the live set (issue 26's bench: sidecar peak 305 -> ~205 MB
// RSS in the bun harness; the collection costs a few tens of ms). Under Node (the tests) there is no Bun: nothing.
import { trimPages } from '../runtime/pageTrim.js';

const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;

/**
 * Collects what a pass over a large file left behind (files under a few MB are not worth a collection), and lets
 * the executable's pages pass 1 touched go (runtime/pageTrim.ts): pass 2 faults back ~20 of ~35 MB. Only the
 * index's own sidecar maps files this large, and no idle trim runs there (it runs no session).
 */
export function collectAfterPass(bytes: number): void {
  if (bun === undefined || bytes < MIN_BYTES) return;
  bun.gc(true);
  void trimPages();
}

const MIN_BYTES = 8 << 20;

/**
 * A full collection each `every` bytes pass 2 reads of a large file: without it JavaScriptCore lets the garbage of
 * each line parsed and mapped pile up (the heap grew 21 -> 73 MB over pass 2 of a 120 MB transcript with ~29 MB
 * live) and the process keeps the pages. Not in pass 1: there every line's facts are live, each collection marks
 * them all, and the peak did not move (it is the chain's work after the scan). Returns what the pass calls with
 * how far it has read.
 */
export function collectWhileReading(bytes: number, every: number = PERIOD_BYTES): (read: number) => void {
  if (bun === undefined || bytes < MIN_BYTES) return () => undefined;
  let next = every;
  return (read) => {
    if (read < next) return;
    next = read + every;
    bun.gc(true);
  };
}

// 32 MB since the index's sidecar caps its heap's growth (app/index/mapper.go indexRuntime): at 16 MB the
// collections were ~7 % of the mapping's CPU for no lower peak (app/PERFORMANCE.md, "Pass 2's collections").
const PERIOD_BYTES = 32 << 20;
