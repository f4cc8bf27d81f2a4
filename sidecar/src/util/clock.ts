// The sidecar's wall clock. An event's time is when the sidecar mapped it; to the millisecond, a stamp reads
// 0–1 ms early, about half of a streamed piece's median latency (the host stamps in nanoseconds). So stamps
// carry microseconds: the monotonic clock, anchored to the wall clock at the instant a millisecond begins, and
// kept inside the wall clock's current millisecond as the two drift apart (or the system time is set).

/** A Date that writes its ISO time with microseconds. */
export class MicroDate extends Date {
  private readonly micros: number;

  constructor(micros: number) {
    super(Math.floor(micros / 1000));
    this.micros = Math.round(micros);
  }

  override toISOString(): string {
    return isoMicros(this.micros);
  }
}

let cachedSecond = Number.NaN;
let cachedPrefix = '';

/** The ISO time of a count of microseconds since the epoch, with all six digits of the fraction. */
export function isoMicros(micros: number): string {
  // Every streamed piece is stamped: the date and time up to the second are written once per second.
  const second = Math.floor(micros / 1_000_000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 20); // …T20:00:00.
  }
  const fraction = String(micros - second * 1_000_000);
  return `${cachedPrefix}${'000000'.slice(fraction.length)}${fraction}Z`;
}

/** A clock of MicroDates that also writes its reading's ISO time straight away: a streamed piece needs only that
 * string, and making a Date per piece to write it showed in the piece path's profile (issue 32, 0727811). */
export type Clock = (() => Date) & { readonly iso: () => string };

/** The ISO time now: straight from a Clock, else through the Date a plain clock gives. */
export function isoNow(now: () => Date): string {
  const iso = (now as Partial<Clock>).iso;
  return iso !== undefined ? iso() : now().toISOString();
}

/** Returns a clock of MicroDates; wall and mono are parameters for tests (Date.now, performance.now). */
export function wallClock(wall: () => number = Date.now, mono: () => number = () => performance.now()): Clock {
  let anchor = anchorAt(wall, mono);
  const micros = (): number => {
    let ms = anchor + mono();
    const w = wall();
    // In step, ms lies in [w, w + 1): wall() reads the millisecond that has begun. Out of it, the anchor moves
    // just enough, never waiting (this runs for every streamed piece): behind, up to the millisecond's start,
    // which is exact; ahead (the system time was set back, or the clocks drifted), back to that start, at most
    // 1 ms early (never a flattering stamp), and the next millisecond's start makes it exact again.
    if (ms < w || ms >= w + 1) {
      anchor += w - ms;
      ms = w;
    }
    return Math.floor(ms * 1000); // floor: within the millisecond, never late
  };
  return Object.assign(() => new MicroDate(micros()), { iso: () => isoMicros(micros()) });
}

/**
 * The wall clock's offset from the monotonic one, read as a millisecond begins (so within microseconds, not the
 * 0–1 ms a plain reading is off by). It waits about a millisecond at most, once, when the clock is made.
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
