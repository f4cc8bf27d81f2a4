// The side reads' own logic: what each answer becomes, what is sent again, and what a failed read does.
// (test/e2e/sideReads.test.ts runs them through the real SDK and CLI.)
import type { SDKSessionInfo } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { type SideReadEvent, SideReader, type SideReadSource, titleOf, toCommands, toModels } from '../../src/session/sideReads.js';

const SESSION = '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b';

const commands = [
  { name: 'review', description: 'Review a pull request', argumentHint: '<pr>' },
  { name: 'compact', description: 'Summarize and clear', argumentHint: '' },
];
const models = [
  { value: 'default', resolvedModel: 'claude-opus-5-5', displayName: 'Default (recommended)', description: 'Opus 5.5', supportsEffort: true },
  { value: 'haiku', displayName: 'Haiku', description: 'Fastest' },
];
const usage = { totalTokens: 10580, maxTokens: 1_000_000, percentage: 1.06, categories: [], model: 'claude-opus-5-5' };

interface Rig {
  reader: SideReader;
  events: SideReadEvent[];
  /** The models the context usage named, in order. */
  reported: string[];
  logs: string[];
  open: { value: boolean };
  info: { value: Partial<SDKSessionInfo> | undefined };
}

function rig(source: Partial<SideReadSource> = {}): Rig {
  const events: SideReadEvent[] = [];
  const reported: string[] = [];
  const logs: string[] = [];
  const open = { value: true };
  const info: Rig['info'] = { value: undefined };
  const reader = new SideReader({
    session: SESSION,
    cwd: '/tmp/project',
    source: {
      supportedCommands: source.supportedCommands ?? (() => Promise.resolve(commands)),
      supportedModels: source.supportedModels ?? (() => Promise.resolve(models)),
      getContextUsage: source.getContextUsage ?? (() => Promise.resolve(usage)),
    },
    sessionInfo: () => Promise.resolve(info.value as SDKSessionInfo | undefined),
    emit: (body) => events.push(body),
    modelReported: (model) => reported.push(model),
    isOpen: () => open.value,
    log: (message) => logs.push(message),
  });
  return { reader, events, reported, logs, open, info };
}

const kinds = (events: SideReadEvent[]) => events.map((e) => e.kind).sort();

describe('SideReader', () => {
  it('sends the palette, the models, the context usage and the title', async () => {
    const r = rig();
    r.info.value = { sessionId: SESSION, summary: 'Fix the build', lastModified: 1 };
    await r.reader.refresh();
    expect(kinds(r.events)).toEqual(['commands.updated', 'context.updated', 'models.updated', 'session.updated']);
    expect(r.events.find((e) => e.kind === 'commands.updated')).toEqual({
      kind: 'commands.updated',
      commands: [
        { name: 'review', description: 'Review a pull request', argumentHint: '<pr>' },
        { name: 'compact', description: 'Summarize and clear' },
      ],
    });
    expect(r.events.find((e) => e.kind === 'models.updated')).toEqual({
      kind: 'models.updated',
      models: [
        { value: 'default', displayName: 'Default (recommended)', description: 'Opus 5.5', resolvedModel: 'claude-opus-5-5' },
        { value: 'haiku', displayName: 'Haiku', description: 'Fastest' },
      ],
    });
    expect(r.events.find((e) => e.kind === 'context.updated')).toEqual({
      kind: 'context.updated',
      totalTokens: 10580,
      maxTokens: 1_000_000,
      percentage: 1.06,
    });
    expect(r.events.find((e) => e.kind === 'session.updated')).toEqual({ kind: 'session.updated', title: 'Fix the build' });
    expect(r.reported, 'the model the context usage names').toEqual(['claude-opus-5-5']);
    expect(r.logs).toEqual([]);
  });

  it('after a model switch, reads again and drops the answer of a read begun before it', async () => {
    const answers: Array<(value: unknown) => void> = [];
    const r = rig({ getContextUsage: () => new Promise((resolve) => answers.push(resolve)) });
    const round = r.reader.refresh();
    await new Promise((resolve) => setImmediate(resolve));
    const switched = r.reader.modelSwitched(true);
    // The read begun before the switch answers for the model that ran then: neither its model nor its window goes out.
    answers[0]?.({ ...usage, model: 'claude-opus-5-5' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.reported).toEqual([]);
    expect(r.events.map((e) => e.kind)).not.toContain('context.updated');
    // The round the switch asked for reports the model the CLI runs now.
    await new Promise((resolve) => setImmediate(resolve));
    expect(answers).toHaveLength(2);
    answers[1]?.({ ...usage, maxTokens: 200_000, model: 'claude-sonnet-5-5' });
    await Promise.all([round, switched]);
    expect(r.reported).toEqual(['claude-sonnet-5-5']);
    expect(r.events.filter((e) => e.kind === 'context.updated')).toEqual([
      { kind: 'context.updated', totalTokens: 10580, maxTokens: 200_000, percentage: 1.06 },
    ]);
  });

  it('a switch with no query to ask reads nothing; the next round reports again', async () => {
    let calls = 0;
    const r = rig({ getContextUsage: () => Promise.resolve({ ...usage, model: `m${++calls}` }) });
    await r.reader.modelSwitched(false);
    expect(calls).toBe(0);
    await r.reader.refresh();
    expect(r.reported).toEqual(['m1']);
  });

  it('sends lists and the title again only when they changed; context usage every time', async () => {
    const r = rig();
    r.info.value = { sessionId: SESSION, summary: 'First prompt', lastModified: 1 };
    await r.reader.refresh();
    r.events.length = 0;
    await r.reader.refresh();
    expect(kinds(r.events)).toEqual(['context.updated']);
    r.events.length = 0;
    r.info.value = { sessionId: SESSION, summary: 'First prompt', customTitle: 'My title', lastModified: 2 };
    await r.reader.refresh();
    expect(r.events.filter((e) => e.kind === 'session.updated')).toEqual([{ kind: 'session.updated', title: 'My title' }]);
  });

  it('logs a read that throws, sends the others, and keeps working', async () => {
    let fail = true;
    const r = rig({
      supportedCommands: () => (fail ? Promise.reject(new Error('Query closed before response')) : Promise.resolve(commands)),
    });
    await expect(r.reader.refresh()).resolves.toBeUndefined();
    expect(kinds(r.events)).toEqual(['context.updated', 'models.updated']);
    expect(r.logs).toEqual([`side read of the commands for session ${SESSION} failed: Query closed before response`]);
    fail = false;
    await r.reader.refresh();
    expect(r.events.map((e) => e.kind)).toContain('commands.updated');
  });

  it('logs an answer of an unexpected shape instead of sending a malformed event', async () => {
    const r = rig({ getContextUsage: () => Promise.resolve({ totalTokens: 'many' }) });
    await r.reader.refresh();
    expect(r.events.map((e) => e.kind)).not.toContain('context.updated');
    expect(r.logs).toEqual([`side read of the context usage for session ${SESSION} failed: the answer had an unexpected shape`]);
  });

  it('drops answers that arrive once the session is closing', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const r = rig({ supportedModels: () => new Promise((resolve) => (answer = resolve)) });
    const done = r.reader.refresh();
    await new Promise((resolve) => setImmediate(resolve));
    r.open.value = false;
    answer(models);
    await done;
    expect(r.events.map((e) => e.kind)).not.toContain('models.updated');
  });

  it('runs one more round when asked while a round is under way, not one per ask', async () => {
    let calls = 0;
    let release: () => void = () => undefined;
    const r = rig({
      getContextUsage: () => {
        calls++;
        return calls === 1 ? new Promise((resolve) => (release = () => resolve(usage))) : Promise.resolve(usage);
      },
    });
    const first = r.reader.refresh();
    const second = r.reader.refresh();
    const third = r.reader.refresh();
    release();
    await Promise.all([first, second, third]);
    expect(calls).toBe(2);
  });
});

describe('answers', () => {
  it('skips malformed entries and fills what a newer CLI might leave out', () => {
    expect(toCommands([{ name: '' }, { name: 'init' }, 'junk'])).toEqual([{ name: 'init', description: '' }]);
    expect(toModels([{ value: 'opus' }, { displayName: 'no value' }])).toEqual([{ value: 'opus', displayName: 'opus', description: '' }]);
    expect(() => toModels({ not: 'a list' })).toThrow();
  });

  it('takes the custom title over the summary, and nothing over a blank', () => {
    const base = { sessionId: SESSION, lastModified: 1 };
    expect(titleOf({ ...base, summary: 'Summary', customTitle: 'Custom' })).toBe('Custom');
    expect(titleOf({ ...base, summary: 'Summary', customTitle: '  ' })).toBe('Summary');
    expect(titleOf({ ...base, summary: ' ' })).toBeUndefined();
    expect(titleOf(undefined)).toBeUndefined();
  });
});
