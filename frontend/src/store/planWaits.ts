// Prompts that wait for a plan limit to reset ("Send when it resets" on a rejected request's card): each is sent
// to its session when the window resets, unless withdrawn first. The clock is injectable (a test fires the wait
// itself instead of sleeping until the reset).

/** Calls fire after ms; the function it returns withdraws the call. */
export type Timer = (ms: number, fire: () => void) => () => void;

export const realTimer: Timer = (ms, fire) => {
  const id = setTimeout(fire, Math.max(0, ms));
  return () => clearTimeout(id);
};

export interface PlanWait {
  session: string;
  prompt: string;
  /** When it is sent (RFC 3339: the reset). */
  at: string;
}

export class PlanWaits {
  private waits: PlanWait[] = [];
  private readonly cancels = new Map<PlanWait, () => void>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly send: (session: string, prompt: string) => Promise<boolean>,
    private readonly timer: Timer = realTimer,
    private readonly now: () => number = Date.now,
  ) {}

  /** Sends prompt to session at `at` (a prompt already waiting there for the same reset is not added twice). */
  add(session: string, prompt: string, at: string): void {
    if (this.waits.some((w) => w.session === session && w.prompt === prompt && w.at === at)) return;
    const wait: PlanWait = { session, prompt, at };
    this.cancels.set(
      wait,
      this.timer(Date.parse(at) - this.now(), () => {
        this.drop(wait);
        void this.send(session, prompt);
      }),
    );
    this.set([...this.waits, wait]);
  }

  /** Withdraws a wait before it is sent. */
  withdraw(wait: PlanWait): void {
    this.cancels.get(wait)?.();
    this.drop(wait);
  }

  list(): readonly PlanWait[] {
    return this.waits;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private drop(wait: PlanWait): void {
    this.cancels.delete(wait);
    this.set(this.waits.filter((w) => w !== wait));
  }

  private set(waits: PlanWait[]): void {
    this.waits = waits;
    for (const l of this.listeners) l();
  }
}
