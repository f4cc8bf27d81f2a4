// Which tool results are the permission gate's refusals. Claude Code marks them: live, the user message's
// `tool_result_meta` names each call's `non_execution_kind`; a transcript entry carries `toolDenialKind`. A refusal
// ("user-rejected" for the plain "No" that stops Claude, "permission-rule" for a deny with a message, auto mode's
// blocks) reads "denied" live and in history alike; "interrupted" / "cancelled" are stops, not refusals.
import { z } from 'zod';

/** The kinds Claude Code stamps on a call that was cut off rather than refused. */
const ABORT_KINDS = new Set(['interrupted', 'cancelled']);
/** The kind of the plain deny that stops Claude (canUseTool's `interrupt: true`). */
const STOPPING_KIND = 'user-rejected';

const deniedMetaSchema = z.looseObject({
  tool_result_meta: z.array(z.looseObject({ id: z.string(), non_execution_kind: z.string().optional() })).optional(),
  toolDenialKind: z.string().optional(),
});

/** How one tool result was refused, if it was. */
export interface Refusal {
  /** The refusal stopped Claude (the turn ends, waiting for the person). */
  stops: boolean;
}

/** The refusal of call `toolUseId` that `message` reports, or undefined when the call was not refused. */
export function refusalOf(message: unknown, toolUseId: string): Refusal | undefined {
  // Most results carry neither mark: then the schema passes with nothing to read, without copying the message.
  const marks = message as { tool_result_meta?: unknown; toolDenialKind?: unknown } | null;
  if (typeof marks === 'object' && marks !== null && marks.tool_result_meta === undefined && marks.toolDenialKind === undefined) return undefined;
  const parsed = deniedMetaSchema.safeParse(message);
  if (!parsed.success) return undefined;
  const live = parsed.data.tool_result_meta?.find((m) => m.id === toolUseId)?.non_execution_kind;
  const kind = live ?? parsed.data.toolDenialKind;
  if (kind === undefined || ABORT_KINDS.has(kind)) return undefined;
  return { stops: kind === STOPPING_KIND };
}

/** Claude Code's mark after a stop: the turn's end says how it ended, so the mark is not shown. */
export function isStopMark(text: string): boolean {
  return text.trim() === '[Request interrupted by user for tool use]';
}
