import { describe, expect, it } from 'vitest';
import { readEvent, readEvents } from '../src/protocol/events';

describe('reading events from the wire', () => {
  // The host writes every required field, empty ones included (app/protocol TestEventsRoundTripExactly), so the
  // console reads them as sent: no table of defaults to keep in step with the schema.
  it('reads empty values as they were sent', () => {
    const delta = { kind: 'message.delta', session: 's', time: 't', ephemeral: true, messageId: 'm', index: 0, block: 'text', text: '' };
    expect(readEvent(delta)).toEqual(delta);
    expect(readEvent({ kind: 'plan.updated', session: 's', time: 't', items: [] })).toMatchObject({ items: [] });
    expect(readEvent({ kind: 'provision.state', provisioning: { state: 'ready' } })).toMatchObject({ session: '', kind: 'provision.state' });
  });

  it('keeps a kind it does not know as a raw row, and skips what is not an event', () => {
    expect(readEvent({ kind: 'session.renamed', session: 's', time: 't', title: 'x' })).toMatchObject({
      kind: 'unrecognized:session.renamed',
      original: { title: 'x' },
    });
    expect(readEvents([null, 1, { no: 'kind' }, { kind: 'model.resolved', session: 's', time: 't', model: 'm' }]).map((e) => e.kind)).toEqual([
      'model.resolved',
    ]);
  });
});
