// The sidecar's wall clock. An event's time is when the sidecar mapped it; to the millisecond, a stamp reads
// 0–1 ms early, which is most of what a streamed piece's latency is made of (the host stamps in nanoseconds).
// So stamps carry microseconds: the monotonic clock, anchored to the wall clock at the instant a millisecond
// begins, and anchored again when the two drift apart (the system time was set).

/** A Date that writes its ISO time with microseconds. */
export class MicroDate extends Date {
  private readonly micros: number;

  constructor(micros: number) {
    super(Math.floor(micros / 1000));
    this.micros = Math.round(micros);
  }

  override toISOString(): string {
    // Every streamed piece is stamped: the date and time up to the second are written once per second.
    const second = Math.floor(this.micros / 1_000_000);
    if (second !== cachedSecond) {
      cachedSecond = second;
      cachedPrefix = new Date(second * 1000).toISOString().slice(0, 20); // …T20:00:00.
    }
    const fraction = String(this.micros - second * 1_000_000);
    return `${cachedPrefix}${'000000'.slice(fraction.length)}${fraction}Z`;
  }
}

let cachedSecond = Number.NaN;
let cachedPrefix = '';

/** How far (ms) a reading may stray from the wall clock's current millisecond before the clock re-anchors. */
const SLACK_MS = 0.05;

/** Returns a clock of MicroDates; wall and mono are parameters for tests (Date.now, performance.now). */
export function wallClock(wall: () => number = Date.now, mono: () => number = () => performance.now()): () => Date {
  let anchor = anchorAt(wall, mono);
  return () => {
    let ms = anchor + mono();
    const w = wall();
    // In step, ms lies in [w, w + 1): wall() reads the millisecond that has begun.
    if (ms < w - SLACK_MS || ms >= w + 1 + SLACK_MS) {
      anchor = anchorAt(wall, mono);
      ms = anchor + mono();
    }
    return new MicroDate(Math.round(ms * 1000));
  };
}

/**
 * The wall clock's offset from the monotonic one, read as a millisecond begins (so within microseconds, not the
 * 0–1 ms a plain reading is off by). It waits about a millisecond at most.
 */
function anchorAt(wall: () => number, mono: () => number): number {
  const start = wall();
  const began = mono();
  for (let i = 0; i < 100_000 && mono() - began < 2; i++) {
    const w = wall();
    if (w !== start) return w - mono();
  }
  return start - mono(); // a clock that does not tick
}
