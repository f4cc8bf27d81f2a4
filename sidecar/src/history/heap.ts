// Pass 1 parses every line of a transcript only to keep a few facts of each: JavaScriptCore grows its heap for
// that garbage and the process keeps the memory (a 120 MB transcript: ~300 MB RSS with ~30 MB live). One full
// collection once pass 1 is done keeps the peak near the live set (issue 26's bench: sidecar peak 305 -> ~205 MB
// RSS in the bun harness; the collection costs a few tens of ms). Under Node (the tests) there is no Bun: nothing.
const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;

/** Collects what a pass over a large file left behind (files under a few MB are not worth a collection). */
export function collectAfterPass(bytes: number): void {
  if (bun !== undefined && bytes >= MIN_BYTES) bun.gc(true);
}

const MIN_BYTES = 8 << 20;
