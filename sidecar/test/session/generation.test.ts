// A revoked query generation is fenced: its messages never reach the session, its permission requests are denied
// and its PreToolUse hook blocks every tool (bypass mode asks no canUseTool, so the hook is what stops a tool there).
import type { HookCallbackMatcher, Options, Query, SDKMessage, SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { Generation, REVOKED_MESSAGE } from '../../src/session/generation.js';
import { InputQueue } from '../../src/session/inputQueue.js';

function fakeQuery() {
  const out = new InputQueue<SDKMessage>();
  let options: Options | undefined;
  const query = (params: { prompt: AsyncIterable<SDKUserMessage>; options: Options }): Query => {
    options = params.options;
    return Object.assign(out[Symbol.asyncIterator](), {
      [Symbol.asyncIterator]() {
        return this;
      },
      close: () => out.close(),
      interrupt: () => Promise.resolve(),
    }) as unknown as Query;
  };
  return { query, out, options: () => options! };
}

const message = (n: number) => ({ type: 'assistant', uuid: `m${n}` }) as unknown as SDKMessage;

describe('Generation', () => {
  it('routes nothing, asks nothing and runs no tool once revoked', async () => {
    const fake = fakeQuery();
    const seen: string[] = [];
    let asked = 0;
    let ended = false;
    const generation = new Generation({
      number: 1,
      query: fake.query,
      options: {},
      canUseTool: () => {
        asked += 1;
        return Promise.resolve({ behavior: 'allow', updatedInput: {} });
      },
      stderr: () => undefined,
      onMessage: (_g, m) => seen.push(m.uuid ?? ''),
      onEnded: () => {
        ended = true;
      },
    });
    const options = fake.options();
    const hook = (options.hooks!.PreToolUse as HookCallbackMatcher[])[0]!.hooks[0]!;
    const ask = { signal: new AbortController().signal, toolUseID: 'toolu_1', suggestions: [] } as never;
    const hookInput = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: {} } as never;

    fake.out.push(message(1));
    await new Promise((r) => setTimeout(r, 0));
    await expect(hook(hookInput, 'toolu_1', { signal: new AbortController().signal })).resolves.toEqual({});
    await options.canUseTool!('Bash', {}, ask);
    expect(asked).toBe(1);

    generation.revoke();
    fake.out.push(message(2));
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(['m1']);
    await expect(options.canUseTool!('Bash', {}, ask)).resolves.toMatchObject({ behavior: 'deny', message: REVOKED_MESSAGE });
    expect(asked).toBe(1);
    await expect(hook(hookInput, 'toolu_1', { signal: new AbortController().signal })).resolves.toMatchObject({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
    });
    generation.close();
    await generation.settled;
    expect(ended).toBe(true);
  });
});
