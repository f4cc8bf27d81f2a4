// The order of a sidecar's warm-up (mapper/warmUp.ts), run once at its first session while claude starts. The
// pages loading touched go first (runtime/pageTrim.ts), then the warm-up faults back those a reply touches. So the
// first reply re-faults none of them, and a session prompted at once, whose running turn keeps the idle trim
// away, holds ~8 MB less through it (issue 32: runtime bench `many`, 74 → 66 MB).
import { diag, shortError } from '../util/diagnostics.js';

export interface WarmUpSteps {
  /** Lets loading's pages go; a failure costs only its gain. */
  before(): Promise<void>;
  /** Warms the streaming path; it never throws (sdkBackend.ts says why it failed). */
  warm(): void;
  /** The warm-up ran: the sidecar may let its pages go once idle (runtime/idleTrim.ts). */
  after(): void;
}

/** Runs the steps in order; a failing before is said on stderr and the warm-up runs anyway. */
export async function runWarmUp(steps: WarmUpSteps): Promise<void> {
  try {
    await steps.before();
  } catch (error) {
    diag(`letting the loaded pages go before the warm-up failed: ${shortError(error)}`);
  }
  steps.warm();
  steps.after();
}
