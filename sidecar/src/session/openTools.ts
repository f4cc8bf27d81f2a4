// The tool calls of each turn that started and have not ended (PROTOCOL.md, "Settling"): what a turn that is
// canceled or fails must still close, since the revoked query's own results never arrive.
import type { Event, EventOf } from '../protocol/events.js';

interface OpenTool {
  turn: string;
  toolUseId: string;
  name: string;
}

export class OpenTools {
  /** By turn, in the order the calls started. */
  private readonly byTurn = new Map<string, Map<string, OpenTool>>();

  /** Notes a call that started or ended; events of no turn are left alone (nothing ends them but their result). */
  observe(event: Event): void {
    if (event.turn === undefined) return;
    switch (event.kind) {
      case 'tool.started': {
        const open = this.byTurn.get(event.turn) ?? new Map<string, OpenTool>();
        open.set(event.toolUseId, { turn: event.turn, toolUseId: event.toolUseId, name: event.name });
        this.byTurn.set(event.turn, open);
        return;
      }
      case 'tool.completed':
      case 'tool.failed':
      case 'tool.interrupted':
        this.byTurn.get(event.turn)?.delete(event.toolUseId);
        return;
      default:
        return;
    }
  }

  /** The turn's calls still open, forgotten here: each gets its one terminal event from the caller. */
  take(turn: string): OpenTool[] {
    const open = this.byTurn.get(turn);
    this.byTurn.delete(turn);
    return open === undefined ? [] : [...open.values()];
  }

  /** Every call still open, of any turn (a background agent's stay on its launching turn), forgotten here. */
  takeAll(): OpenTool[] {
    const all = [...this.byTurn.values()].flatMap((open) => [...open.values()]);
    this.byTurn.clear();
    return all;
  }
}

/** The event that ends an open call whose turn ended by `end`. */
export function interrupted(tool: OpenTool, end: EventOf<'turn.canceled'> | EventOf<'turn.failed'>): EventOf<'tool.interrupted'> {
  return {
    kind: 'tool.interrupted',
    session: end.session,
    time: end.time,
    turn: tool.turn,
    toolUseId: tool.toolUseId,
    name: tool.name,
    cause: end.kind === 'turn.canceled' ? 'cancel' : 'failure',
  };
}
