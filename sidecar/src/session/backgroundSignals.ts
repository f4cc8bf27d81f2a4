// What an SDK message says about background work and follow-ups: the session reads these to hold turns open,
// reserve continuations and reject a late follow-up's output.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { partOf } from '../mapper/sdkRoutes.js';
import { resultOriginSchema } from '../mapper/sdkSchemas.js';

/**
 * Messages that are a response's output (what a follow-up shows, and what a rejected one must not); a result is
 * not (it ends the follow-up). The facts are the route table's `part` (mapper/sdkRoutes.ts).
 */
export function isOutput(message: SDKMessage): boolean {
  return partOf(message) === 'output';
}

/**
 * A non-ambient task ended on its own (completed or failed): Claude Code will run a follow-up about it. A stopped
 * task (stop_task, or Claude Code's own stop) gets none.
 */
export function isNotification(message: SDKMessage): boolean {
  return message.type === 'system' && message.subtype === 'task_notification' && message.ambient !== true && message.status !== 'stopped';
}

/** The live task set changed (the level signal). */
export function isLevel(message: SDKMessage): boolean {
  return message.type === 'system' && message.subtype === 'background_tasks_changed';
}

/** A result Claude Code produced on its own after a task notification. */
export function isFollowUpResult(message: SDKMessage): boolean {
  const parsed = resultOriginSchema.safeParse(message);
  return parsed.success && parsed.data.origin?.kind === 'task-notification';
}

/** Claude Code went idle (CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS makes it say so where the SDK passes it on). */
export function isIdle(message: SDKMessage): boolean {
  return message.type === 'system' && message.subtype === 'session_state_changed' && message.state === 'idle';
}
