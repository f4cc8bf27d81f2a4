// What each turn's reply has streamed and not yet completed (PROTOCOL.md, "Settling"): a turn stopped mid-reply
// keeps those words as a stopped message instead of losing them with the ephemeral deltas.
import type { Event, EventOf } from '../protocol/events.js';

interface OpenStream {
  messageId: string;
  index: number;
  block: 'text' | 'thinking';
  text: string;
}

export class OpenStreams {
  /** By turn, then by `<messageId>:<index>`. */
  private readonly byTurn = new Map<string, Map<string, OpenStream>>();

  observe(event: Event): void {
    if (event.turn === undefined) return;
    if (event.kind === 'message.delta') {
      // Every streamed piece comes here: the block's text grows in place (these records are this class's own).
      let streams = this.byTurn.get(event.turn);
      if (streams === undefined) {
        streams = new Map<string, OpenStream>();
        this.byTurn.set(event.turn, streams);
      }
      const id = `${event.messageId}:${event.index}`;
      const known = streams.get(id);
      if (known !== undefined) known.text += event.text;
      else streams.set(id, { messageId: event.messageId, index: event.index, block: event.block, text: event.text });
    } else if (event.kind === 'message.completed' && event.messageId !== undefined && event.role !== 'user') {
      // Claude Code sends one assistant message per finished block, in order: the lowest open index of its kind.
      const streams = this.byTurn.get(event.turn);
      const block = event.role === 'thinking' ? 'thinking' : 'text';
      const done = [...(streams?.entries() ?? [])]
        .filter(([, s]) => s.messageId === event.messageId && s.block === block)
        .sort(([, a], [, b]) => a.index - b.index)[0];
      if (done !== undefined) streams?.delete(done[0]);
    }
  }

  /** The turn's unfinished blocks as stopped messages, forgotten here. */
  take(end: EventOf<'turn.canceled'> | EventOf<'turn.failed'>): Array<EventOf<'message.completed'>> {
    if (end.turn === undefined) return [];
    const streams = this.byTurn.get(end.turn);
    this.byTurn.delete(end.turn);
    return [...(streams?.values() ?? [])]
      .filter((s) => s.text !== '')
      .map((s) => ({
        kind: 'message.completed',
        session: end.session,
        time: end.time,
        turn: end.turn,
        role: s.block === 'thinking' ? 'thinking' : 'assistant',
        messageId: s.messageId,
        text: s.text,
        stopped: true,
      }));
  }

  /** A turn that ended normally: whatever streamed is in its completed messages. */
  forget(turn: string): void {
    this.byTurn.delete(turn);
  }
}
