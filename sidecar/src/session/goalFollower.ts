// The goal `/goal` set, followed in the transcript (PROTOCOL.md, "Goals"): Claude Code files `goal_status`
// attachments there, and a headless CLI sends no `active_goal`. At a result while a goal is in play the transcript
// is read before the turn's end goes out (statuses filed during the turn reach the panel first); after it, while
// the goal is still active, the transcript is followed — re-read whenever the file changes — because the final
// status may be written after the result, at any time. Following stops once the goal is met, cleared or failed.
import type { Event } from '../protocol/events.js';
import type { GoalObservation } from '../mapper/background.js';
import { shortError } from '../util/diagnostics.js';

/** Where goal statuses come from: the transcript's, and a signal that it changed. */
export interface GoalSource {
  read(session: string): Promise<GoalObservation[]>;
  /** Calls onChange whenever the session's transcript changes; returns how to stop. Undefined: no transcript yet. */
  watch?(session: string, onChange: () => void): Promise<(() => void) | undefined>;
}

/** What the follower asks of the session's mapper and output. */
export interface GoalSink {
  /** A goal command was sent or a goal is active. */
  inPlay(): boolean;
  /** A goal is active and not met yet. */
  active(): boolean;
  /** New statuses → goal.updated events (each status once). */
  observed(statuses: readonly GoalObservation[]): Event[];
  /** A goal command's turn ended (a `/goal clear` takes the goal away). */
  turnEnded(): Event[];
  emit(event: Event): void;
  isOpen(): boolean;
  log(message: string): void;
}

export class GoalFollower {
  private stopWatch: (() => void) | undefined;
  private watching = false;
  private reading: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly session: string,
    private readonly source: GoalSource | undefined,
    private readonly sink: GoalSink,
  ) {}

  /** Whether a result must wait for a read of the transcript before its turn's end goes out. */
  get wanted(): boolean {
    return this.source !== undefined && this.sink.inPlay();
  }

  /** At a result: the statuses filed so far go out (before the turn's end). */
  async beforeEnd(): Promise<void> {
    await this.read();
  }

  /** After the turn's end went out: a clear takes the goal away; an active goal is followed from here on. */
  afterEnd(): void {
    for (const event of this.sink.turnEnded()) this.sink.emit(event);
    if (this.sink.active()) void this.follow();
  }

  close(): void {
    this.stopWatch?.();
    this.stopWatch = undefined;
  }

  private async follow(): Promise<void> {
    const watch = this.source?.watch;
    if (watch === undefined || this.watching) return;
    this.watching = true;
    try {
      const stop = await watch(this.session, () => void this.read());
      if (stop === undefined || !this.sink.isOpen() || !this.sink.active()) {
        stop?.();
        this.watching = false;
        return;
      }
      this.stopWatch = () => {
        stop();
        this.watching = false;
      };
      // A status written between the result's read and the watch's start is read now.
      await this.read();
    } catch (error) {
      this.watching = false;
      this.sink.log(`following the goal of session ${this.session} failed: ${shortError(error)}`);
    }
  }

  /** One read at a time; a change during a read makes one more after it. */
  private read(): Promise<void> {
    if (this.reading !== undefined) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        await this.readOnce();
      } while (this.again);
      this.reading = undefined;
    })();
    return this.reading;
  }

  private async readOnce(): Promise<void> {
    const source = this.source;
    if (source === undefined || !this.sink.isOpen()) return;
    try {
      const observed = this.sink.observed(await source.read(this.session));
      if (!this.sink.isOpen()) return;
      for (const event of observed) this.sink.emit(event);
    } catch (error) {
      this.sink.log(`reading the goal of session ${this.session} failed: ${shortError(error)}`);
    }
    if (!this.sink.active()) this.close();
  }
}
