// The model shown is the model running: the effective model and the context gauge's window come only from what the
// CLI reports (model.resolved; context.updated or a turn's usage), never from the picker's label, and a switch
// clears both until the next report.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LiveSession } from '../src/protocol/api';
import type { ConsoleEvent, SessionEvent } from '../src/protocol/events';
import { foldEvents, newSession } from '../src/store/fold';
import { sessionFromSnapshot } from '../src/store/store';
import type { SessionState } from '../src/store/types';
import { renderConsole } from './render';

const S = '6e6e6e6e-0000-4000-8000-000000000001';
const T = '2026-01-01T00:00:00.000Z';
const LIVE = { live: true, answeredHere: new Set<string>() };

const started: SessionEvent = { kind: 'session.started', session: S, time: T, cwd: '/p', model: 'sonnet', permissionMode: 'default', resumed: false };
// The CLI's list names the id behind each alias: the console still must not take the effective model from it.
const models: SessionEvent = {
  kind: 'models.updated',
  session: S,
  time: T,
  models: [
    { value: 'default', displayName: 'Default (recommended)', description: '', resolvedModel: 'claude-opus-5-5' },
    { value: 'sonnet', displayName: 'Sonnet', description: '', resolvedModel: 'claude-sonnet-5-5' },
    { value: 'haiku', displayName: 'Haiku', description: '', resolvedModel: 'claude-haiku-5-5' },
  ],
};
const resolved = (model: string): SessionEvent => ({ kind: 'model.resolved', session: S, time: T, model });
const switched = (model: string): SessionEvent => ({ kind: 'session.updated', session: S, time: T, model });
const context = (maxTokens: number): SessionEvent => ({
  kind: 'context.updated',
  session: S,
  time: T,
  totalTokens: 50_000,
  maxTokens,
  percentage: (50_000 / maxTokens) * 100,
});
const turnUsage = (contextWindow: number): SessionEvent => ({
  kind: 'usage.updated',
  session: S,
  turn: 't1',
  time: T,
  turnOutputTokens: 10,
  contextWindow,
  contextTokens: 40_000,
});

const fold = (s: SessionState, ...events: ConsoleEvent[]) => foldEvents(s, events, LIVE);
/** The gauge's window, as UsageMeter reads it. */
const window = (s: SessionState) => s.context?.maxTokens ?? s.usage.contextWindow;

describe('the effective model in the store', () => {
  it('is only what the CLI reports, cleared by a switch (back to Default too) until the next report', () => {
    let s = fold(newSession({ id: S, cwd: '/p' }), started, models);
    expect(s.requestedModel).toBe('sonnet');
    expect(s.effectiveModel, 'not the requested label, nor the list’s id for it').toBeUndefined();
    s = fold(s, resolved('claude-sonnet-5-5'));
    expect(s.effectiveModel).toBe('claude-sonnet-5-5');
    s = fold(s, switched('haiku'));
    expect(s.requestedModel).toBe('haiku');
    expect(s.effectiveModel, 'the old model no longer runs').toBeUndefined();
    s = fold(s, resolved('claude-haiku-5-5'));
    expect(s.effectiveModel).toBe('claude-haiku-5-5');
    s = fold(s, switched('default'));
    expect(s.effectiveModel, 'not the list’s id for "default"').toBeUndefined();
    s = fold(s, resolved('claude-opus-5-5'));
    expect(s.effectiveModel).toBe('claude-opus-5-5');
    // Picking a label that runs the model already shown: still unknown until the CLI says so.
    s = fold(s, switched('opus'));
    expect(s.effectiveModel).toBeUndefined();
  });

  it('after a reload, is the host’s word: none while the host waits for the report after a switch', () => {
    const live: LiveSession = {
      session: S,
      cwd: '/p',
      requestedModel: 'haiku',
      effectiveModel: '',
      permissionMode: 'default',
      state: 'awake',
      events: [
        { ...started, seq: 1 },
        { ...resolved('claude-sonnet-5-5'), seq: 2 },
        { ...switched('haiku'), seq: 3 },
      ],
    };
    expect(sessionFromSnapshot(live, undefined).effectiveModel).toBeUndefined();
    expect(sessionFromSnapshot({ ...live, effectiveModel: 'claude-haiku-5-5' }, undefined).effectiveModel).toBe('claude-haiku-5-5');
  });
});

describe('the context gauge’s window', () => {
  it('changes with the model only when the CLI reports a window', () => {
    let s = fold(newSession({ id: S, cwd: '/p' }), started, models, resolved('claude-sonnet-5-5'), context(1_000_000));
    expect(window(s)).toBe(1_000_000);
    s = fold(s, switched('haiku'));
    expect(window(s), 'the old model’s window is not the new one’s, and no table guesses it').toBeUndefined();
    s = fold(s, resolved('claude-haiku-5-5'));
    expect(window(s), 'a model report alone says no window').toBeUndefined();
    s = fold(s, turnUsage(200_000));
    expect(window(s), 'the turn’s usage (the result’s modelUsage) says it').toBe(200_000);
    s = fold(s, context(400_000));
    expect(window(s)).toBe(400_000);
  });

  it('the console shows no stale model and no stale gauge after a switch, and the reported ones after', async () => {
    const { push, select } = await renderConsole((t) => {
      t.snapshot = {
        ...t.snapshot,
        sessions: [
          {
            session: S,
            cwd: '/p',
            requestedModel: 'sonnet',
            effectiveModel: 'claude-sonnet-5-5',
            permissionMode: 'default',
            state: 'awake',
            events: [
              { ...started, seq: 1 },
              { ...models, seq: 2 },
              { ...resolved('claude-sonnet-5-5'), seq: 3 },
              { ...context(1_000_000), seq: 4 },
            ],
          },
        ],
      };
    });
    await select(S);
    expect(screen.getByTestId('effective-model').textContent).toBe('runs claude-sonnet-5-5');
    expect(screen.getByTestId('context-gauge').getAttribute('title')).toContain(`of ${(1_000_000).toLocaleString()} tokens`);
    await push({ ...switched('haiku'), seq: 5 });
    expect(screen.queryByTestId('effective-model')).toBeNull();
    expect(screen.queryByTestId('context-gauge')).toBeNull();
    await push({ ...resolved('claude-haiku-5-5'), seq: 6 }, { ...context(200_000), seq: 7 });
    expect(screen.getByTestId('effective-model').textContent).toBe('runs claude-haiku-5-5');
    expect(screen.getByTestId('context-gauge').getAttribute('title')).toContain(`of ${(200_000).toLocaleString()} tokens`);
  });
});
