/** A clock that advances 1 ms per reading from a fixed start, so snapshots are stable. */
export function fixedClock(start = '2026-01-01T00:00:00.000Z'): () => Date {
  let tick = 0;
  const base = Date.parse(start);
  return () => new Date(base + tick++);
}
