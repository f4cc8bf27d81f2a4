// PermissionBroker: one verdict per request, interrupts settle as deny, "always" passes the SDK's suggestions.
import type { PermissionUpdate } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import type { EventBody } from '../../src/protocol/events.js';
import type { PermissionMode } from '../../src/protocol/events.js';
import { KEEP_PLANNING_MESSAGE, PermissionBroker, PLAIN_DENY_MESSAGE, type PermissionAsk } from '../../src/session/permissions.js';

type PermissionEvent = EventBody<'permission.requested'> | EventBody<'permission.settled'>;

const suggestions: PermissionUpdate[] = [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }];

function setup(bound: () => boolean = () => true) {
  const events: PermissionEvent[] = [];
  const approvedModes: PermissionMode[] = [];
  const broker = new PermissionBroker(
    (e) => events.push(e),
    (mode) => approvedModes.push(mode),
    bound,
  );
  const controller = new AbortController();
  const ask = (requestId: string, extra: Partial<PermissionAsk> = {}): PermissionAsk => ({
    toolName: 'Write',
    input: { file_path: '/p/a.txt', content: 'hi' },
    signal: controller.signal,
    requestId,
    toolUseID: `toolu_${requestId}`,
    suggestions,
    ...extra,
  });
  return { events, broker, controller, ask, approvedModes };
}

describe('PermissionBroker', () => {
  it("announces the request with the SDK's request id and waits for the verdict", async () => {
    const { events, broker, ask } = setup();
    const pending = broker.request(ask('r1', { title: 'Claude wants to write a.txt', decisionReason: 'workingDir' }));
    expect(events).toEqual([
      {
        kind: 'permission.requested',
        requestId: 'r1',
        toolUseId: 'toolu_r1',
        toolName: 'Write',
        input: { file_path: '/p/a.txt', content: 'hi' },
        toolKind: 'write',
        toolTitle: 'Write /p/a.txt',
        title: 'Claude wants to write a.txt',
        decisionReason: 'workingDir',
        suggestions,
      },
    ]);
    expect(broker.settle('r1', 'allow', 'user').outcome).toBe('settled');
    await expect(pending).resolves.toEqual({ behavior: 'allow', updatedInput: { file_path: '/p/a.txt', content: 'hi' }, toolUseID: 'toolu_r1' });
    expect(events.at(-1)).toEqual({ kind: 'permission.settled', requestId: 'r1', verdict: 'allow', by: 'user' });
  });

  it('settles exactly once: a second verdict changes nothing', async () => {
    const { events, broker, ask } = setup();
    const pending = broker.request(ask('r1'));
    expect(broker.settle('r1', 'deny', 'user', { message: 'Not that file' }).outcome).toBe('settled');
    expect(broker.settle('r1', 'allow', 'user')).toEqual({ outcome: 'already_settled', recorded: { verdict: 'deny' } });
    await expect(pending).resolves.toEqual({ behavior: 'deny', message: 'Not that file', toolUseID: 'toolu_r1' });
    expect(events.filter((e) => e.kind === 'permission.settled')).toHaveLength(1);
    expect(broker.settle('never-asked', 'allow', 'user')).toEqual({ outcome: 'unknown' });
  });

  it('passes the SDK suggestions back as updatedPermissions for allow_always', async () => {
    const { broker, ask } = setup();
    const pending = broker.request(ask('r1'));
    broker.settle('r1', 'allow_always', 'user');
    await expect(pending).resolves.toMatchObject({ behavior: 'allow', updatedPermissions: suggestions });
  });

  it('echoes a policy decision', async () => {
    const { broker, ask, events } = setup();
    const pending = broker.request(ask('r1'));
    broker.settle('r1', 'allow', 'policy');
    await expect(pending).resolves.toMatchObject({ behavior: 'allow' });
    expect(events.at(-1)).toEqual({ kind: 'permission.settled', requestId: 'r1', verdict: 'allow', by: 'policy' });
  });

  // Issue 24 changed this on purpose: a plain deny is the terminal's "No" (Claude stops), in Claude Code's words.
  it("a plain deny stops Claude with Claude Code's words; a message goes back without a stop", async () => {
    const { broker, ask, events } = setup();
    const plain = broker.request(ask('r1'));
    broker.settle('r1', 'deny', 'user');
    await expect(plain).resolves.toEqual({ behavior: 'deny', message: PLAIN_DENY_MESSAGE, interrupt: true, toolUseID: 'toolu_r1' });
    expect(events.at(-1)).toEqual({ kind: 'permission.settled', requestId: 'r1', verdict: 'deny', by: 'user' });
    const blank = broker.request(ask('r2'));
    broker.settle('r2', 'deny', 'policy', { message: '  ' });
    await expect(blank).resolves.toMatchObject({ message: PLAIN_DENY_MESSAGE, interrupt: true });
    const told = broker.request(ask('r3'));
    broker.settle('r3', 'deny', 'user', { message: 'Use b.txt' });
    await expect(told).resolves.toEqual({ behavior: 'deny', message: 'Use b.txt', toolUseID: 'toolu_r3' });
  });

  it('holds a request until the turn is bound, and denies a held one unseen on an interrupt', async () => {
    let bound = false;
    const { broker, ask, events } = setup(() => bound);
    const held = broker.request(ask('r1'));
    expect(events).toEqual([]);
    // Nobody was told of it: an answer naming it is for an unknown request.
    expect(broker.settle('r1', 'allow', 'user')).toEqual({ outcome: 'unknown' });
    bound = true;
    broker.release();
    expect(events.map((e) => [e.kind, e.requestId])).toEqual([['permission.requested', 'r1']]);
    broker.release();
    expect(events).toHaveLength(1);
    broker.settle('r1', 'allow', 'user');
    await expect(held).resolves.toMatchObject({ behavior: 'allow' });
    bound = false;
    const dropped = broker.request(ask('r2'));
    broker.settleAll('interrupt');
    await expect(dropped).resolves.toMatchObject({ behavior: 'deny' });
    expect(events.map((e) => [e.kind, e.requestId])).toEqual([
      ['permission.requested', 'r1'],
      ['permission.settled', 'r1'],
    ]);
    expect(broker.openCount).toBe(0);
  });

  it('settles as deny by interrupt when the SDK aborts the request, and only once', async () => {
    const { broker, ask, controller, events } = setup();
    const pending = broker.request(ask('r1'));
    controller.abort();
    await expect(pending).resolves.toMatchObject({ behavior: 'deny' });
    expect(events.at(-1)).toMatchObject({ kind: 'permission.settled', requestId: 'r1', verdict: 'deny', by: 'interrupt' });
    expect(broker.settle('r1', 'allow', 'user').outcome).toBe('already_settled');
    expect(events.filter((e) => e.kind === 'permission.settled')).toHaveLength(1);
  });

  it('hands AskUserQuestion the answers in its input, records them, and returns them to a repeated answer', async () => {
    const { broker, ask, events } = setup();
    const input = {
      questions: [
        {
          question: 'Which color?',
          header: 'Color',
          options: [
            { label: 'Red', description: '' },
            { label: 'Blue', description: '' },
          ],
          multiSelect: false,
        },
      ],
    };
    const pending = broker.request(ask('q1', { toolName: 'AskUserQuestion', input, suggestions: [] }));
    const answers = [{ question: 'Which color?', answer: 'Blue' }];
    expect(broker.settle('q1', 'allow', 'user', { answers })).toEqual({ outcome: 'settled', recorded: { verdict: 'allow', answers } });
    await expect(pending).resolves.toEqual({ behavior: 'allow', updatedInput: { ...input, answers: { 'Which color?': 'Blue' } }, toolUseID: 'toolu_q1' });
    expect(events.at(-1)).toEqual({ kind: 'permission.settled', requestId: 'q1', verdict: 'allow', by: 'user', answers });
    // A late answer from another window changes nothing and learns what was answered.
    expect(broker.settle('q1', 'allow', 'user', { answers: [{ question: 'Which color?', answer: 'Red' }] })).toEqual({
      outcome: 'already_settled',
      recorded: { verdict: 'allow', answers },
    });
    expect(events.filter((e) => e.kind === 'permission.settled')).toHaveLength(1);
  });

  it('ignores answers for a tool that asks no questions', async () => {
    const { broker, ask } = setup();
    const pending = broker.request(ask('w1'));
    broker.settle('w1', 'allow', 'user', { answers: [{ question: 'x', answer: 'y' }], mode: 'acceptEdits' });
    await expect(pending).resolves.toEqual({ behavior: 'allow', updatedInput: { file_path: '/p/a.txt', content: 'hi' }, toolUseID: 'toolu_w1' });
  });

  it('approves a plan with the mode to continue in, and keeps planning on deny', async () => {
    const { broker, ask, events, approvedModes } = setup();
    const approved = broker.request(ask('p1', { toolName: 'ExitPlanMode', input: { plan: '# Plan' }, suggestions: [] }));
    broker.settle('p1', 'allow', 'user', { mode: 'acceptEdits' });
    await expect(approved).resolves.toEqual({
      behavior: 'allow',
      updatedInput: { plan: '# Plan' },
      updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
      toolUseID: 'toolu_p1',
    });
    expect(approvedModes).toEqual(['acceptEdits']);
    expect(events.at(-1)).toMatchObject({ kind: 'permission.settled', requestId: 'p1', mode: 'acceptEdits' });
    const kept = broker.request(ask('p2', { toolName: 'ExitPlanMode', input: { plan: '# Plan' }, suggestions: [] }));
    broker.settle('p2', 'deny', 'user');
    await expect(kept).resolves.toEqual({ behavior: 'deny', message: KEEP_PLANNING_MESSAGE, toolUseID: 'toolu_p2' });
    expect(approvedModes).toEqual(['acceptEdits']);
  });

  it('settles a request whose signal was already aborted at once', async () => {
    const { broker, ask, controller } = setup();
    controller.abort();
    await expect(broker.request(ask('r1'))).resolves.toMatchObject({ behavior: 'deny' });
    expect(broker.openCount).toBe(0);
  });

  it('settles every open request on settleAll', async () => {
    const { broker, ask, events } = setup();
    const a = broker.request(ask('a'));
    const b = broker.request(ask('b'));
    broker.settle('a', 'allow', 'user');
    broker.settleAll('interrupt');
    await expect(a).resolves.toMatchObject({ behavior: 'allow' });
    await expect(b).resolves.toMatchObject({ behavior: 'deny' });
    expect(events.filter((e) => e.kind === 'permission.settled').map((e) => [e.requestId, e.by])).toEqual([
      ['a', 'user'],
      ['b', 'interrupt'],
    ]);
  });
});
