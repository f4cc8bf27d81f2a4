// The one classification of the SDK's message union (mapper/sdkRoutes.ts) and the two session gates derived from
// it: the identity barrier's isTurnOutput and the continuation bookkeeping's isOutput. The type-level checks here
// run under `npm run typecheck` (tsc includes test/); the rest under vitest.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type Part, type RouteFacts, SDK_ROUTES, type SdkMessageKey, factsOf, partOf } from '../../src/mapper/sdkRoutes.js';
import { isOutput } from '../../src/session/backgroundSignals.js';
import { isTurnOutput } from '../../src/session/identity.js';

const message = (type: string, extra: object = {}) => ({ type, ...extra }) as unknown as SDKMessage;
const system = (subtype: string) => message('system', { subtype });

describe('the SDK union classification', () => {
  it('names every member of the union, and nothing else', () => {
    expectTypeOf<keyof typeof SDK_ROUTES>().toEqualTypeOf<SdkMessageKey>();
    const { tool_use_summary: _dropped, ...missing } = SDK_ROUTES;
    // @ts-expect-error a table that leaves out one member of the union is refused (as an SDK upgrade's new one is)
    void (missing satisfies { [K in SdkMessageKey]: RouteFacts });
    const parts: readonly Part[] = ['output', 'end', 'aside'];
    for (const [key, facts] of Object.entries(SDK_ROUTES)) expect(parts, key).toContain(facts.part);
  });

  it('has a response made of output and one end; everything else is an aside', () => {
    const byPart = (part: Part) =>
      Object.entries(SDK_ROUTES)
        .filter(([, facts]) => facts.part === part)
        .map(([key]) => key)
        .sort();
    expect(byPart('output')).toEqual(['assistant', 'stream_event', 'tool_progress', 'tool_use_summary', 'user']);
    expect(byPart('end')).toEqual(['result']);
    for (const key of Object.keys(SDK_ROUTES)) {
      if (key.startsWith('system/')) expect(SDK_ROUTES[key as SdkMessageKey].part, key).toBe('aside');
    }
  });

  it('treats messages outside the union as asides (undeclared ones keep their route)', () => {
    expect(factsOf('command_lifecycle', undefined)).toEqual({ route: 'ignore', part: 'aside' });
    expect(factsOf('system', 'session_title_changed')).toEqual({ route: 'title', part: 'aside' });
    expect(factsOf('brand_new', undefined)).toEqual({ route: 'unknown', part: 'aside' });
    expect(partOf(system('no_such_subtype'))).toBe('aside');
  });
});

describe('the two gates over the union', () => {
  const output = ['assistant', 'user', 'stream_event', 'tool_progress', 'tool_use_summary'].map((type) => message(type));
  const asides = [
    system('init'),
    system('task_notification'),
    system('session_state_changed'),
    message('rate_limit_event'),
    message('prompt_suggestion'),
    message('auth_status'),
    message('command_lifecycle'),
    message('brand_new'),
  ];

  it('agree on a response output: the barrier holds it, and it is a follow-up output', () => {
    for (const m of output) {
      expect(isTurnOutput(m), m.type).toBe(true);
      expect(isOutput(m), m.type).toBe(true);
    }
  });

  it('differ on the result only: the barrier holds it, but it ends a follow-up rather than being its output', () => {
    const result = message('result', { subtype: 'success' });
    expect(isTurnOutput(result)).toBe(true);
    expect(isOutput(result)).toBe(false);
  });

  it('let session bookkeeping through both', () => {
    for (const m of asides) {
      expect(isTurnOutput(m), m.type).toBe(false);
      expect(isOutput(m), m.type).toBe(false);
    }
  });
});
