// The live token count while a turn streams: thinking counts as Claude Code estimates it (usage.updated's
// thinkingTokens, from the SDK's estimated_tokens), never as a guess from the thinking text.
import { describe, expect, it } from 'vitest';
import { liveTokens } from '../src/components/composer/UsageMeter';
import type { ConsoleEvent } from '../src/protocol/events';
import { foldEvents, newSession } from '../src/store/fold';

const S = 's1';
const T = '2026-01-01T00:00:00.000Z';
const live = { live: true, answeredHere: new Set<string>() };
const base = { session: S, turn: 't1', time: T };

function fold(events: ConsoleEvent[]) {
  return events.reduce((s, ev, i) => foldEvents(s, [{ ...ev, seq: i + 1 } as ConsoleEvent], live), newSession({ id: S, cwd: '' }));
}

describe('the live token count', () => {
  const thinkingText = 'x'.repeat(400); // 100 tokens at 4 characters a token; Claude Code estimated 37
  const thinking: ConsoleEvent[] = [
    { kind: 'turn.started', ...base, prompt: 'think hard' },
    { kind: 'usage.updated', ...base, ephemeral: true, turnOutputTokens: 37, thinkingTokens: 37 },
    { kind: 'message.delta', ...base, ephemeral: true, messageId: 'm1', index: 0, block: 'thinking', text: thinkingText },
  ];

  it("shows Claude Code's thinking estimate, marked as an estimate", () => {
    expect(liveTokens(fold(thinking))).toEqual({ tokens: 37, estimated: true });
  });

  it("is exact again once the request's real count replaced the estimate", () => {
    const counted = fold([
      ...thinking,
      { kind: 'message.completed', ...base, role: 'thinking', messageId: 'm1', text: thinkingText },
      { kind: 'usage.updated', ...base, ephemeral: true, turnOutputTokens: 41 },
    ]);
    expect(liveTokens(counted)).toEqual({ tokens: 41, estimated: false });
  });

  it('starts the next turn at zero, with no estimate left from a turn canceled while it thought', () => {
    const next = fold([
      ...thinking,
      { kind: 'turn.canceled', ...base, disposition: 'provider_active', forced: false },
      { kind: 'turn.started', ...base, turn: 't2', prompt: 'next' },
    ]);
    expect(liveTokens(next)).toEqual({ tokens: 0, estimated: false });
  });
});
