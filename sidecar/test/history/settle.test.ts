import { describe, expect, it } from 'vitest';
import { isInterruptLine, isUnfinishedReply, settleTools } from '../../src/history/settleHistory.js';
import { interruptedCause } from '../../src/mapper/interruptedTool.js';
import type { Event } from '../../src/protocol/events.js';

const S = '5e551011-0000-4000-8000-000000000025';
const T = '2026-12-02T01:00:00.000Z';
const started = (turn: string): Event => ({ kind: 'turn.started', session: S, turn, time: T, prompt: turn, uuid: turn });
const tool = (turn: string, id: string): Event => ({
  kind: 'tool.started',
  session: S,
  turn,
  time: T,
  toolUseId: id,
  name: 'Bash',
  input: {},
  toolKind: 'shell',
  title: 'Bash',
});
const kinds = (events: Event[]) => events.map((e) => (e.kind === 'tool.interrupted' ? `${e.kind}:${e.toolUseId}:${e.cause}` : e.kind));

describe('history settles open calls', () => {
  it('closes a call before the next turn, and before a receipt end with its cause', () => {
    const out = settleTools([
      started('u1'),
      tool('u1', 'a'),
      started('u2'),
      tool('u2', 'b'),
      { kind: 'turn.failed', session: S, turn: 'u2', time: T, code: 'host_exited', message: 'cut off' },
    ]);
    expect(kinds(out)).toEqual([
      'turn.started',
      'tool.started',
      'tool.interrupted:a:turn_ended',
      'turn.started',
      'tool.started',
      'tool.interrupted:b:host_exited',
      'turn.failed',
    ]);
  });

  it('leaves the last turn open when nothing says it ended, and names a stand-in result by the receipt', () => {
    expect(kinds(settleTools([started('u1'), tool('u1', 'a')]))).toEqual(['turn.started', 'tool.started']);
    const out = settleTools([
      started('u1'),
      tool('u1', 'a'),
      { kind: 'tool.interrupted', session: S, turn: 'u1', time: T, toolUseId: 'a', name: 'Bash', cause: 'turn_ended' },
      { kind: 'turn.canceled', session: S, turn: 'u1', time: T, disposition: 'provider_active', forced: true },
    ]);
    expect(kinds(out)).toEqual(['turn.started', 'tool.started', 'tool.interrupted:a:cancel', 'turn.canceled']);
  });

  it("reads Claude Code's interrupted results and the cut-off reply", () => {
    expect(interruptedCause("[Tool call interrupted: the session ended before this call's result was recorded]")).toBe('turn_ended');
    expect(interruptedCause("The user doesn't want to proceed… Correction to the text above: this call was stopped while running, not refused")).toBe('cancel');
    expect(interruptedCause('Exit code 1')).toBeUndefined();
    expect(isInterruptLine({ type: 'user', message: { content: [{ type: 'text', text: '[Request interrupted by user]' }] } })).toBe(true);
    expect(isInterruptLine({ type: 'user', message: { content: '[Request interrupted by user for tool use]' } })).toBe(false);
    expect(isUnfinishedReply({ type: 'assistant', message: { stop_reason: null } })).toBe(true);
    expect(isUnfinishedReply({ type: 'assistant', message: { stop_reason: 'end_turn' } })).toBe(false);
  });
});
