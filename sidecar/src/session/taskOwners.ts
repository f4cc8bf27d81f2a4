// Which turn a task's own work belongs to (runtime-lifecycle.md, "Ownership"): a background agent keeps running
// after its launching turn ended, and its messages (parent_tool_use_id: the call that launched it) and progress
// frames stay on the turn that made that call — the launching or continuation turn — never on the person's turn
// running when they arrive.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';

/** How many launching calls a session remembers (a long session launches few; this only bounds the map). */
const OWNERS_MEMORY = 1_000;

export class TaskOwners {
  /** Launching tool call id → the turn it ran in. */
  private readonly owners = new Map<string, string>();
  /** Task id → its launching call (task_updated names only the task). */
  private readonly calls = new Map<string, string>();

  /** A task_started names the call that launched the task: it belongs to the turn its output was on then. */
  note(message: SDKMessage, turn: string | undefined): void {
    if (turn === undefined || message.type !== 'system' || message.subtype !== 'task_started') return;
    const call = message.tool_use_id;
    if (call === undefined || this.owners.has(call)) return;
    remember(this.owners, call, turn);
    remember(this.calls, message.task_id, call);
  }

  /** The turn a task's own message belongs to, when that is not `current` (the turn output is stamped with now). */
  elsewhere(message: SDKMessage, current: string | undefined): string | undefined {
    const call = this.launchingCall(message);
    const owner = call !== undefined ? this.owners.get(call) : undefined;
    return owner !== undefined && owner !== current ? owner : undefined;
  }

  /** The launching call a message of a task names: its parent call, or the call a task frame is about. */
  private launchingCall(message: SDKMessage): string | undefined {
    switch (message.type) {
      case 'assistant':
      case 'user':
      case 'stream_event':
      case 'tool_progress':
        return message.parent_tool_use_id ?? undefined;
      case 'system':
        if (message.subtype === 'task_progress' || message.subtype === 'task_notification') return message.tool_use_id;
        return message.subtype === 'task_updated' ? this.calls.get(message.task_id) : undefined;
      default:
        return undefined;
    }
  }
}

/** Task edges drive the follow-up bookkeeping wherever their events go. */
export function isTaskEdge(message: SDKMessage): boolean {
  return message.type === 'system' && (message.subtype === 'task_notification' || message.subtype === 'task_updated');
}

function remember(map: Map<string, string>, key: string, value: string): void {
  map.set(key, value);
  if (map.size <= OWNERS_MEMORY) return;
  const oldest = map.keys().next().value;
  if (oldest !== undefined) map.delete(oldest);
}
