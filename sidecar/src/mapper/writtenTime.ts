// A transcript message's time as its events carry it: the ISO form (toISOString) of the timestamp it was written
// with. Claude Code writes them in that form already, so the common case is the string itself, without a Date
// parsed and written again for every message (~70 ms of the 120 MB bench's transcript job).

/** toISOString's own form: four-digit year, milliseconds, UTC. */
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * `timestamp` must have passed checkTimestamp, whose pattern admits only real dates and times (no 30 February,
 * no hour 24): in toISOString's form such a string is what toISOString writes for it. Any other form (an offset,
 * seconds without a fraction) is parsed and written as before.
 */
export function isoTime(timestamp: string): string {
  return ISO_UTC.test(timestamp) ? timestamp : new Date(timestamp).toISOString();
}
