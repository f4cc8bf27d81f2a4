// A streamed piece's stamp is written out field by field (events.ts stampDelta): the same event, keys in the same
// order, as the copy every other kind gets.
import { describe, expect, it } from 'vitest';
import { type EventBody, eventSchema, stampEventAt } from '../../src/protocol/events.js';

const SESSION = '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b';
const TIME = '2026-12-06T09:50:00.123456Z';

/** The generic stamp, as events.ts writes it for every kind but message.delta. */
function copied(body: EventBody, turn?: string): unknown {
  const own = 'turn' in body ? body.turn : undefined;
  if (turn === undefined && own === undefined) return Object.assign({ kind: body.kind, session: SESSION, time: TIME }, body);
  const event = Object.assign({ kind: body.kind, session: SESSION, turn: turn ?? own, time: TIME }, body);
  if (turn !== undefined) event.turn = turn;
  return event;
}

const delta = (over: Partial<EventBody<'message.delta'>> = {}): EventBody<'message.delta'> => ({
  kind: 'message.delta',
  ephemeral: true,
  messageId: 'msg_1',
  index: 2,
  block: 'text',
  text: 'Hel',
  ...over,
});

describe('stampEventAt on a streamed piece', () => {
  it.each<[string, EventBody<'message.delta'>, string | undefined]>([
    ['with the turn given', delta(), 't1'],
    ['with no turn', delta({ block: 'thinking' }), undefined],
    ['with its own turn', delta({ turn: 't-own' }), undefined],
    ['with its own turn and another given', delta({ turn: 't-own' }), 't1'],
  ])('is the generic copy, key for key, %s', (_name, body, turn) => {
    const event = stampEventAt(body, SESSION, TIME, turn);
    expect(JSON.stringify(event)).toBe(JSON.stringify(copied(body, turn)));
    expect(eventSchema.safeParse(event).success).toBe(true);
  });
});
