import { describe, expect, it } from 'vitest';
import { readEvent, readEvents } from '../src/protocol/events';

describe('reading events from the wire', () => {
  it('reads the empty values the Go host leaves out (omitempty)', () => {
    expect(readEvent({ kind: 'message.delta', session: 's', time: 't', ephemeral: true, messageId: 'm' })).toMatchObject({ text: '', index: 0, block: 'text' });
    expect(readEvent({ kind: 'plan.updated', session: 's', time: 't' })).toMatchObject({ items: [] });
    expect(readEvent({ kind: 'message.completed', session: 's', time: 't', role: 'assistant' })).toMatchObject({ text: '' });
    expect(readEvent({ kind: 'permission.requested', session: 's', time: 't', requestId: 'r' })).toMatchObject({ input: {}, suggestions: [] });
    expect(readEvent({ kind: 'provision.done' })).toMatchObject({ session: '', kind: 'provision.done' });
  });

  it('keeps a kind it does not know as a raw row, and skips what is not an event', () => {
    expect(readEvent({ kind: 'session.renamed', session: 's', time: 't', title: 'x' })).toMatchObject({ kind: 'unrecognized:session.renamed', original: { title: 'x' } });
    expect(readEvents([null, 1, { no: 'kind' }, { kind: 'model.resolved', session: 's', time: 't', model: 'm' }]).map((e) => e.kind)).toEqual(['model.resolved']);
  });
});
