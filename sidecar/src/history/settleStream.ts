// What history adds to a transcript's mapped events, as stages that take the events one at a time (a transcript
// is mapped as it is read, never held whole): goal statuses where they were written, each Baton-run turn's end
// from its receipt, and the settling of calls a transcript leaves open (PROTOCOL.md, "Settling"; settleHistory.ts).
import type { GoalObservation } from '../mapper/background.js';
import { Mapper } from '../mapper/mapper.js';
import type { Event, EventOf, ToolInterruptCause } from '../protocol/events.js';
import type { ReceiptEnd } from '../protocol/schemas.js';
import { assertNever } from '../util/assertNever.js';

/** One mapped event with the uuid of the transcript entry it came from (none for what history adds). */
export interface Item {
  uuid?: string;
  event: Event;
}

export interface Stage {
  push(item: Item): Item[];
  end(): Item[];
}

/** Runs items through stages in order. */
export function pipeline(stages: readonly Stage[]): Stage {
  const through = (items: Item[], from: number): Item[] => {
    let out = items;
    for (let i = from; i < stages.length; i++) {
      const stage = stages[i]!;
      // Mostly one item in, one out: no flatMap's callback and copy per item and stage.
      if (out.length === 1) {
        out = stage.push(out[0]!);
        continue;
      }
      const next: Item[] = [];
      for (const item of out) for (const pushed of stage.push(item)) next.push(pushed);
      out = next;
    }
    return out;
  };
  return {
    push: (item) => through([item], 0),
    end: () => {
      const out: Item[] = [];
      for (let i = 0; i < stages.length; i++) out.push(...through(stages[i]!.end(), i + 1));
      return out;
    },
  };
}

/** Runs a whole list through a stage (the array forms of history.ts and settleHistory.ts). */
export function runStage(stage: Stage, events: readonly Event[]): Event[] {
  return [...events.flatMap((event) => stage.push({ event })), ...stage.end()].map((item) => item.event);
}

/**
 * Puts each goal status where it was written (by time, in the turn of the event before it), and a goal's clear
 * after the `/goal clear` turn, as the live session reports them.
 */
export class GoalStage implements Stage {
  private readonly mapper: Mapper;
  private readonly pending: GoalObservation[];
  private turn: string | undefined;
  private clearing = false;

  constructor(goals: readonly GoalObservation[], session: string, now: () => Date) {
    this.mapper = new Mapper(session, now, { transcript: true });
    this.pending = [...goals].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  }

  push(item: Item): Item[] {
    // No goal left to place (nearly always): the item's time is not parsed.
    const out = this.pending.length > 0 ? this.flushUntil(Date.parse(item.event.time)) : [];
    if (item.event.kind === 'turn.started') {
      out.push(...this.endTurn());
      this.turn = item.event.turn;
      this.mapper.notePromptText(item.event.prompt);
      this.clearing = /^\/goal\s+clear\s*$/i.test(item.event.prompt.trim());
    }
    out.push(item);
    return out;
  }

  end(): Item[] {
    return [...this.flushUntil(Number.POSITIVE_INFINITY), ...this.endTurn()];
  }

  private flushUntil(time: number): Item[] {
    const out: Item[] = [];
    while (this.pending.length > 0 && Date.parse(this.pending[0]!.timestamp) <= time) {
      const goal = this.pending.shift()!;
      out.push(...this.mapper.goalObserved([goal], { turn: this.turn }).map((event) => ({ uuid: goal.uuid, event })));
    }
    return out;
  }

  private endTurn(): Item[] {
    const out = this.clearing ? this.mapper.goalTurnEnded({ turn: this.turn }).map((event) => ({ event })) : [];
    this.clearing = false;
    return out;
  }
}

/**
 * Puts each Baton-run turn's end, as its receipt says, after the turn's last event (a transcript has no results):
 * a turn that was running when Baton died reads turn.failed {code: host_exited}.
 */
export class ReceiptStage implements Stage {
  private readonly byMessage: Map<string, ReceiptEnd>;
  private open: ReceiptEnd | undefined;
  private openTurn: string | undefined;

  constructor(
    ends: readonly ReceiptEnd[],
    private readonly session: string,
  ) {
    this.byMessage = new Map(ends.map((e) => [e.providerMessage, e]));
  }

  push(item: Item): Item[] {
    const out: Item[] = [];
    if (item.event.kind === 'turn.started') {
      out.push(...this.close());
      this.open = item.event.uuid !== undefined ? this.byMessage.get(item.event.uuid) : undefined;
      this.openTurn = item.event.turn;
    }
    out.push(item);
    return out;
  }

  end(): Item[] {
    return this.close();
  }

  private close(): Item[] {
    const out = this.open !== undefined && this.openTurn !== undefined ? [{ event: receiptEvent(this.open, this.openTurn, this.session) }] : [];
    this.open = undefined;
    return out;
  }
}

export function receiptEvent(end: ReceiptEnd, turn: string, session: string): Event {
  const common = { session, turn, time: end.endedAt };
  switch (end.outcome) {
    case 'completed':
      return { kind: 'turn.completed', ...common, durationMs: end.durationMs ?? 0, numTurns: 0, costUsd: end.costUsd ?? 0 };
    case 'canceled':
      return { kind: 'turn.canceled', ...common, disposition: 'provider_active', ...(end.forced !== undefined ? { forced: end.forced } : {}) };
    case 'failed': {
      const code = end.code ?? 'sdk_error';
      return { kind: 'turn.failed', ...common, code, message: code === 'host_exited' ? HOST_EXITED_MESSAGE : `The turn failed (${code})` };
    }
    default:
      return assertNever(end.outcome);
  }
}

const HOST_EXITED_MESSAGE = 'Baton stopped while this turn ran; it was cut off';

export type TurnEnd = EventOf<'turn.canceled'> | EventOf<'turn.failed'>;

function causeOf(end: TurnEnd | undefined): ToolInterruptCause {
  if (end === undefined) return 'turn_ended';
  if (end.kind === 'turn.canceled') return 'cancel';
  return end.code === 'host_exited' ? 'host_exited' : 'failure';
}

/** The canceled / failed turn ends the receipts give, by turn. */
export function receiptTurnEnds(ends: readonly ReceiptEnd[], session: string): Map<string, TurnEnd> {
  const out = new Map<string, TurnEnd>();
  for (const end of ends) {
    const event = receiptEvent(end, end.providerMessage, session);
    if (event.kind === 'turn.canceled' || event.kind === 'turn.failed') out.set(end.providerMessage, event);
  }
  return out;
}

/**
 * Closes the calls each ended turn left open and names each interruption's cause. `ends`: the canceled / failed
 * turn ends known beforehand (from receipts). `atEnd`: what the calls still open when the transcript ends become —
 * left open (it may still run), or interrupted by `session_ended` (Claude Code stopped mid-tool).
 */
export class ToolStage implements Stage {
  private open = new Map<string, EventOf<'tool.started'>>();
  private turn: string | undefined;

  constructor(
    private readonly ends: ReadonlyMap<string, TurnEnd>,
    private readonly atEnd: 'open' | 'session_ended',
  ) {}

  push(item: Item): Item[] {
    const e = item.event;
    const out: Item[] = [];
    if (e.kind === 'turn.started' && e.turn !== this.turn) {
      out.push(...this.close(e, causeOf(this.turn !== undefined ? this.ends.get(this.turn) : undefined)));
      this.turn = e.turn;
    } else if ((e.kind === 'turn.canceled' || e.kind === 'turn.failed') && e.turn === this.turn) {
      out.push(...this.close(e, causeOf(e)));
    } else if (e.kind === 'tool.started') {
      this.open.set(e.toolUseId, e);
    } else if (e.kind === 'tool.completed' || e.kind === 'tool.failed' || e.kind === 'tool.interrupted') {
      this.open.delete(e.toolUseId);
    }
    if (e.kind === 'tool.interrupted' && e.cause === 'turn_ended' && e.turn !== undefined && this.ends.has(e.turn)) {
      out.push({ ...item, event: { ...e, cause: causeOf(this.ends.get(e.turn)) } });
      return out;
    }
    out.push(item);
    return out;
  }

  end(): Item[] {
    const last = [...this.open.values()].at(-1);
    return this.atEnd === 'session_ended' && last !== undefined ? this.close(last, 'session_ended') : [];
  }

  private close(at: Event, cause: ToolInterruptCause): Item[] {
    const out: Item[] = [...this.open.values()].map((start) => ({
      event: {
        kind: 'tool.interrupted',
        session: start.session,
        time: at.time,
        ...(start.turn !== undefined ? { turn: start.turn } : {}),
        toolUseId: start.toolUseId,
        name: start.name,
        cause,
      },
    }));
    this.open = new Map();
    return out;
  }
}
