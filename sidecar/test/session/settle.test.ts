import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/protocol/events.js';
import { settler } from '../../src/session/settle.js';

const S = '5e551011-0000-4000-8000-000000000024';
const T = '2026-12-02T01:00:00.000Z';
const ev = (body: Record<string, unknown>): Event => ({ session: S, time: T, turn: 't1', ...body }) as Event;

/** Sends `events` through a settler; a 'revoke' between them says the query generation was revoked. */
function run(events: (Event | 'revoke')[]): Event[] {
  const out: Event[] = [];
  const settling = settler((e) => out.push(e));
  for (const e of events) {
    if (e === 'revoke') settling.revoked();
    else settling.emit(e);
  }
  return out;
}

describe('settling a turn that ends early', () => {
  it('closes each open call of a canceled turn once, before the end, and leaves ended calls alone', () => {
    const out = run([
      ev({ kind: 'tool.started', toolUseId: 'a', name: 'Bash', input: {} }),
      ev({ kind: 'tool.started', toolUseId: 'b', name: 'Read', input: {} }),
      ev({ kind: 'tool.completed', toolUseId: 'b', name: 'Read', output: 'ok' }),
      ev({ kind: 'tool.started', toolUseId: 'c', name: 'Bash', input: {}, turn: 't2' }),
      ev({ kind: 'turn.canceled', disposition: 'provider_active', forced: true }),
    ]);
    expect(out.slice(4).map((e) => [e.kind, 'toolUseId' in e ? e.toolUseId : '', 'cause' in e ? e.cause : ''])).toEqual([
      ['tool.interrupted', 'a', 'cancel'],
      ['turn.canceled', '', ''],
    ]);
  });

  it('closes every open call, each on its own turn, when the generation of the canceled turn was revoked', () => {
    // A background agent's call stays on its launching turn t1; the revoked generation will never report it.
    const out = run([
      ev({ kind: 'tool.started', toolUseId: 'agent-bash', name: 'Bash', input: {} }),
      ev({ kind: 'turn.completed', durationMs: 1, numTurns: 1, costUsd: 0 }),
      ev({ kind: 'tool.started', toolUseId: 'b', name: 'Bash', input: {}, turn: 't2' }),
      'revoke',
      ev({ kind: 'turn.canceled', disposition: 'provider_active', forced: false, turn: 't2' }),
      ev({ kind: 'turn.canceled', disposition: 'pre_accept', turn: 't3' }),
    ]);
    expect(out.slice(3).map((e) => [e.kind, e.turn, 'toolUseId' in e ? e.toolUseId : ''])).toEqual([
      ['tool.interrupted', 't1', 'agent-bash'],
      ['tool.interrupted', 't2', 'b'],
      ['turn.canceled', 't2', ''],
      ['turn.canceled', 't3', ''],
    ]);
  });

  it('keeps what a failed turn had streamed as stopped messages, per unfinished block', () => {
    const out = run([
      ev({ kind: 'message.delta', ephemeral: true, messageId: 'm', index: 0, block: 'thinking', text: 'Hm' }),
      ev({ kind: 'message.delta', ephemeral: true, messageId: 'm', index: 0, block: 'thinking', text: 'm.' }),
      ev({ kind: 'message.completed', role: 'thinking', messageId: 'm', text: 'Hmm.' }),
      ev({ kind: 'message.delta', ephemeral: true, messageId: 'm', index: 1, block: 'text', text: 'Half ' }),
      ev({ kind: 'message.delta', ephemeral: true, messageId: 'm', index: 1, block: 'text', text: 'of it' }),
      ev({ kind: 'turn.failed', code: 'sdk_error', message: 'gone' }),
    ]);
    const kept = out.filter((e) => e.kind === 'message.completed' && e.stopped === true);
    expect(kept).toEqual([
      { kind: 'message.completed', session: S, time: T, turn: 't1', role: 'assistant', messageId: 'm', text: 'Half of it', stopped: true },
    ]);
    expect(out.at(-1)?.kind).toBe('turn.failed');
  });

  it('adds nothing to a turn that completed', () => {
    const events = [
      ev({ kind: 'message.delta', ephemeral: true, messageId: 'm', index: 0, block: 'text', text: 'All' }),
      ev({ kind: 'message.completed', role: 'assistant', messageId: 'm', text: 'All' }),
      ev({ kind: 'turn.completed', durationMs: 1, numTurns: 1, costUsd: 0 }),
    ];
    expect(run(events)).toEqual(events);
  });
});
