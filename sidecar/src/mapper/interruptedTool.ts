// Claude Code's own words for a tool call that was stopped instead of answered (PROTOCOL.md, "Settling"): such a
// tool_result is the call's interruption, not a failure of the tool. The wording is Claude Code's (2.1.x): a call
// stopped while it ran by an interrupt, and the stand-in a resumed process files for a call whose process died.
import type { ToolInterruptCause } from '../protocol/events.js';

const STOPPED_WHILE_RUNNING = 'this call was stopped while running';
const RESUMED_STAND_IN = '[Tool call interrupted';
const OLD_INTERRUPT = '[Request interrupted by user for tool use]';

/** The cause when an error result says the call was interrupted; undefined for a real failure. */
export function interruptedCause(errorText: string): ToolInterruptCause | undefined {
  const text = errorText.trim();
  if (text.startsWith(RESUMED_STAND_IN)) return 'turn_ended';
  if (text.includes(STOPPED_WHILE_RUNNING) || text === OLD_INTERRUPT) return 'cancel';
  return undefined;
}
