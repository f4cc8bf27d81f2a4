// Issue 24, item 6: permission requests wait behind the turn's identity barrier, on the real SDK and claude CLI
// against the scripted Messages API. To make the request come before the turn is bound, the SDK's echo of the
// prompt is taken out of the message stream (the one stand-in here: with the echo the CLI binds at once, and
// nothing else makes a request outrun it deterministically), so the session must bind from the transcript, which
// the test hands over only once claude has asked for the permission.
import { getSessionMessages, type PermissionResult, query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Event, eventSchema } from '../../src/protocol/events.js';
import { type QueryFn, SdkSession } from '../../src/session/session.js';
import type { TranscriptFn } from '../../src/session/identity.js';
import { CLAUDE_BINARY, type ClaudeHome, type FakeApi, makeClaudeHome, startFakeApi } from '../helpers/fakeApi.js';

const BOUND = 'e6e6e6e6-0000-4000-8000-000000000061';
const UNBOUND = 'e6e6e6e6-0000-4000-8000-000000000062';

let api: FakeApi;
let home: ClaudeHome;

beforeAll(async () => {
  api = await startFakeApi();
  home = makeClaudeHome('baton-barrier-');
  // The SDK's session functions read the sidecar's own config dir: point it at the temp home.
  vi.stubEnv('CLAUDE_CONFIG_DIR', home.configDir);
  vi.stubEnv('HOME', home.home);
}, 120_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await api?.stop();
  home?.remove();
});

/** A promise with its resolver. */
function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((ok) => (resolve = ok));
  return { promise, resolve };
}

/**
 * The real query, with the prompt's echo dropped from its messages; `asked` resolves once claude asked for a
 * permission (the session's gate has been called), `answered` collects what the gate told the SDK.
 */
function echolessQuery(asked: () => void, answered: PermissionResult[]): QueryFn {
  return (params) => {
    const gate = params.options.canUseTool!;
    const q = query({
      ...params,
      options: {
        ...params.options,
        canUseTool: async (name, input, options) => {
          const pending = gate(name, input, options);
          asked();
          const result = await pending;
          if (result !== null) answered.push(result);
          return result;
        },
      },
    });
    // The consumer iterates the query (its iterator is the SDK's message stream, not the query object).
    const messages = q[Symbol.asyncIterator].bind(q);
    q[Symbol.asyncIterator] = () => withoutEcho(messages());
    return q;
  };
}

async function* withoutEcho(messages: AsyncIterator<SDKMessage>): AsyncGenerator<SDKMessage, void> {
  for (;;) {
    const item = await messages.next();
    if (item.done === true) return;
    if (item.value.type === 'user' && 'isReplay' in item.value && item.value.isReplay) continue;
    yield item.value;
  }
}

async function open(session: string, emitted: Event[], query: QueryFn, transcript: TranscriptFn): Promise<SdkSession> {
  const opened = await SdkSession.open({
    start: { session, cwd: home.project, permissionMode: 'default' },
    executable: CLAUDE_BINARY,
    emit: (e) => emitted.push(eventSchema.parse(e)),
    now: () => new Date(),
    query,
    env: home.env(api.url),
    stderr: () => undefined,
    onEnded: () => undefined,
    sessionInfo: () => Promise.resolve(undefined),
    transcript,
  });
  return opened;
}

const kinds = (emitted: Event[], turn: string) => emitted.filter((e) => e.turn === turn).map((e) => e.kind);

describe('permission requests behind the identity barrier', () => {
  it('a request made before the turn is bound goes out after turn.accepted', async () => {
    const emitted: Event[] = [];
    const answered: PermissionResult[] = [];
    const asked = signal();
    // The transcript binds the turn only after claude asked: the request was made while the turn was unbound.
    const transcript: TranscriptFn = async (id, options) => {
      await asked.promise;
      return getSessionMessages(id, options);
    };
    const session = await open(BOUND, emitted, echolessQuery(asked.resolve, answered), transcript);
    session.exec('t1', '[write held.txt held]');
    await vi.waitFor(() => expect(emitted.find((e) => e.kind === 'permission.requested')).toBeDefined(), { timeout: 60_000 });
    const order = kinds(emitted, 't1');
    expect(order.indexOf('turn.started')).toBeLessThan(order.indexOf('turn.accepted'));
    expect(order.indexOf('turn.accepted')).toBeGreaterThan(-1);
    expect(order.indexOf('permission.requested')).toBeGreaterThan(order.indexOf('turn.accepted'));
    // The tool call it asks about was held with the turn's output and comes before the request, as it does live.
    expect(order.indexOf('permission.requested')).toBeGreaterThan(order.indexOf('tool.started'));
    const ask = emitted.find((e) => e.kind === 'permission.requested');
    if (ask?.kind !== 'permission.requested') throw new Error('no permission request');
    expect(session.permission(ask.requestId, 'allow', 'user')).toMatchObject({ settled: true });
    await vi.waitFor(() => expect(kinds(emitted, 't1')).toContain('turn.completed'), { timeout: 60_000 });
    expect(answered).toMatchObject([{ behavior: 'allow' }]);
    expect(existsSync(join(home.project, 'held.txt'))).toBe(true);
    await session.close();
  });

  it('a turn that fails binding denies its held request without showing it', async () => {
    const emitted: Event[] = [];
    const answered: PermissionResult[] = [];
    const asked = signal();
    // The prompt is never found: the barrier fails the turn at its deadline (5 s).
    const transcript: TranscriptFn = () => Promise.resolve([]);
    const session = await open(UNBOUND, emitted, echolessQuery(asked.resolve, answered), transcript);
    session.exec('t1', '[write never.txt never]');
    await asked.promise;
    await vi.waitFor(() => expect(emitted.find((e) => e.kind === 'turn.failed')).toBeDefined(), { timeout: 30_000 });
    expect(emitted.find((e) => e.kind === 'turn.failed')).toMatchObject({ turn: 't1', code: 'identity' });
    // The SDK was told no; nobody outside was asked, so there is nothing to settle on the wire.
    await vi.waitFor(() => expect(answered).toMatchObject([{ behavior: 'deny' }]), { timeout: 30_000 });
    expect(kinds(emitted, 't1').filter((k) => k.startsWith('permission.'))).toEqual([]);
    expect(kinds(emitted, 't1')).not.toContain('turn.accepted');
    expect(existsSync(join(home.project, 'never.txt'))).toBe(false);
    await session.close();
    expect(emitted.at(-1)).toMatchObject({ kind: 'session.closed' });
  });
});
