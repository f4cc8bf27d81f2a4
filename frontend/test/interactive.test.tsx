// Claude's questions and plans in the console: the question card answers with the person's choices in the form
// AskUserQuestion expects (one click for one single-choice question; several choices and "Other" with Answer),
// the plan card approves with the mode to continue in, and a request waiting for permission answers to keys.
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { LiveSession } from '../src/protocol/api';
import type { ConsoleEvent } from '../src/protocol/events';
import { settle } from './fakeTransport';
import { renderConsole } from './render';

const S = '5e551011-0000-4000-8000-0000000000aa';
const T = '2026-01-01T00:00:00.000Z';

function live(events: ConsoleEvent[]): LiveSession {
  return { session: S, cwd: '/home/user/project', requestedModel: 'default', effectiveModel: '', permissionMode: 'plan', state: 'awake', events };
}

const started: ConsoleEvent = { kind: 'turn.started', session: S, turn: 't1', time: T, prompt: 'go', seq: 1 };
const question = (input: unknown): ConsoleEvent => ({
  kind: 'permission.requested',
  session: S,
  turn: 't1',
  time: T,
  requestId: 'q1',
  toolUseId: 'tq',
  toolName: 'AskUserQuestion',
  toolKind: 'question',
  toolTitle: 'AskUserQuestion',
  input: input as never,
  suggestions: [],
  seq: 2,
});

async function open(events: ConsoleEvent[]) {
  const r = await renderConsole((t) => {
    t.snapshot = { ...t.snapshot, sessions: [live(events)] };
    t.on('answerPermission', () => ({ settled: true }));
  });
  await r.select(S);
  return r;
}

describe('questions', () => {
  it('answers one single-choice question with the option clicked', async () => {
    const { transport } = await open([
      started,
      question({
        questions: [
          {
            question: 'Which color?',
            header: 'Color',
            options: [
              { label: 'Red', description: 'warm' },
              { label: 'Blue', description: 'cool' },
            ],
            multiSelect: false,
          },
        ],
      }),
    ]);
    const card = screen.getByTestId('question-card');
    expect(card.textContent).toContain('Color');
    expect(card.textContent).toContain('cool');
    expect(screen.getByTestId('permission-row').textContent).toContain('Claude asks you a question');
    await userEvent.click(within(card).getByRole('button', { name: /^Blue/ }));
    await act(() => settle());
    expect(transport.callsOf('answerPermission')).toEqual([
      { session: S, requestId: 'q1', verdict: 'allow', answers: [{ question: 'Which color?', answer: 'Blue' }] },
    ]);
  });

  it('collects several choices, "Other" text, and answers every question at once', async () => {
    const { transport } = await open([
      started,
      question({
        questions: [
          {
            question: 'Which parts?',
            header: 'Parts',
            options: [
              { label: 'API', description: '' },
              { label: 'UI', description: '' },
            ],
            multiSelect: true,
          },
          {
            question: 'Which name?',
            header: 'Name',
            options: [
              { label: 'Ada', description: '' },
              { label: 'Bob', description: '' },
            ],
            multiSelect: false,
          },
        ],
      }),
    ]);
    const card = screen.getByTestId('question-card');
    const submit = within(card).getByTestId('question-submit') as HTMLButtonElement;
    await userEvent.click(within(card).getByRole('button', { name: /^API/ }));
    await userEvent.click(within(card).getByRole('button', { name: /^UI/ }));
    expect(submit.disabled).toBe(true);
    const others = within(card).getAllByRole('button', { name: 'Other…' });
    await userEvent.click(others[1] as HTMLElement);
    await userEvent.type(within(card).getByLabelText('Your own answer: Which name?'), 'Cleo');
    expect(submit.disabled).toBe(false);
    await userEvent.click(submit);
    await act(() => settle());
    expect(transport.callsOf('answerPermission')).toEqual([
      {
        session: S,
        requestId: 'q1',
        verdict: 'allow',
        answers: [
          { question: 'Which parts?', answer: 'API, UI' },
          { question: 'Which name?', answer: 'Cleo' },
        ],
      },
    ]);
  });

  it('shows the recorded answer once settled, also after a reconnect', async () => {
    await open([
      started,
      question({
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
      }),
      {
        kind: 'permission.settled',
        session: S,
        turn: 't1',
        time: T,
        requestId: 'q1',
        verdict: 'allow',
        by: 'user',
        answers: [{ question: 'Which color?', answer: 'Red' }],
        seq: 3,
      },
    ]);
    expect(screen.queryByTestId('question-card')).toBeNull();
    expect(screen.getByTestId('permission-row').textContent).toBe('Question: Which color? → Red');
  });
});

describe('plans', () => {
  it('shows the plan as Markdown and approves it with the mode to continue in', async () => {
    const { transport } = await open([
      started,
      {
        kind: 'permission.requested',
        session: S,
        turn: 't1',
        time: T,
        requestId: 'p1',
        toolUseId: 'tp',
        toolName: 'ExitPlanMode',
        toolKind: 'plan_exit',
        toolTitle: 'ExitPlanMode',
        input: { plan: '# The plan\n\n- one' },
        suggestions: [],
        seq: 2,
      },
    ]);
    const card = screen.getByTestId('plan-card');
    expect(card.textContent).toContain('The plan');
    expect(card.textContent).not.toContain('# The plan');
    await userEvent.selectOptions(within(card).getByTestId('plan-mode'), 'default');
    await userEvent.click(within(card).getByTestId('plan-approve'));
    await act(() => settle());
    expect(transport.callsOf('answerPermission')).toEqual([{ session: S, requestId: 'p1', verdict: 'allow', mode: 'default' }]);
  });

  it('keeps planning with the person’s feedback', async () => {
    const { transport } = await open([
      started,
      {
        kind: 'permission.requested',
        session: S,
        turn: 't1',
        time: T,
        requestId: 'p1',
        toolUseId: 'tp',
        toolName: 'ExitPlanMode',
        toolKind: 'plan_exit',
        toolTitle: 'ExitPlanMode',
        input: { plan: 'x' },
        suggestions: [],
        seq: 2,
      },
    ]);
    const card = screen.getByTestId('plan-card');
    await userEvent.type(within(card).getByLabelText('Feedback on the plan'), 'add tests');
    await userEvent.click(within(card).getByTestId('plan-keep'));
    await act(() => settle());
    expect(transport.callsOf('answerPermission')).toEqual([{ session: S, requestId: 'p1', verdict: 'deny', message: 'Keep planning: add tests' }]);
  });
});

describe('permission keys', () => {
  const write: ConsoleEvent = {
    kind: 'permission.requested',
    session: S,
    turn: 't1',
    time: T,
    requestId: 'w1',
    toolUseId: 'tw',
    toolName: 'Write',
    toolKind: 'write',
    toolTitle: 'Write',
    input: { file_path: '/p/a.txt', content: 'hi' },
    suggestions: [{ type: 'addRules', rules: [{ toolName: 'Write' }], behavior: 'allow', destination: 'session' }],
    seq: 2,
  };

  it('ignores every key typed in the composer, empty or not (issue 28: Enter there approved the tool)', async () => {
    const { transport } = await open([started, write]);
    const composer = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    for (const k of ['Enter', '1', '2', '3']) fireEvent.keyDown(composer, { key: k });
    await userEvent.type(composer, 'x');
    fireEvent.keyDown(composer, { key: '1' });
    await act(() => settle());
    expect(transport.callsOf('answerPermission')).toEqual([]);
  });

  it('Tab in the composer focuses the card, where 2 answers always allow', async () => {
    const { transport } = await open([started, write]);
    const composer = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    composer.focus();
    await userEvent.tab();
    const card = screen.getByTestId('permission-card');
    expect(card.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document.activeElement as Element, { key: '2' });
    await act(() => settle());
    expect(transport.callsOf('answerPermission')).toEqual([{ session: S, requestId: 'w1', verdict: 'allow_always' }]);
  });

  it('opens the denial with 3 in the card', async () => {
    const { transport } = await open([started, write]);
    fireEvent.keyDown(screen.getByTestId('permission-card'), { key: '3' });
    expect(await screen.findByLabelText('Message with the denial')).toBeTruthy();
    expect(transport.callsOf('answerPermission')).toEqual([]);
  });

  it('allows with Enter on the card', async () => {
    const { transport } = await open([started, write]);
    fireEvent.keyDown(screen.getByTestId('permission-card'), { key: 'Enter' });
    await act(() => settle());
    expect(transport.callsOf('answerPermission')).toEqual([{ session: S, requestId: 'w1', verdict: 'allow' }]);
  });
});

describe('denies', () => {
  const write: ConsoleEvent = {
    kind: 'permission.requested',
    session: S,
    turn: 't1',
    time: T,
    requestId: 'w1',
    toolUseId: 'tw',
    toolName: 'Write',
    toolKind: 'write',
    toolTitle: 'Write',
    input: { file_path: '/p/a.txt', content: 'hi' },
    suggestions: [],
    seq: 2,
  };

  it('offers a plain Deny (Claude stops) and a deny with a message (Claude carries on)', async () => {
    const { transport } = await open([started, write]);
    const card = screen.getByTestId('permission-card');
    expect(card.textContent).toContain('Deny stops Claude until you write again; with a message, Claude reads it and carries on.');
    await userEvent.click(within(card).getByRole('button', { name: 'Deny with a message…' }));
    const send = within(card).getByRole('button', { name: 'Deny and tell Claude' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    await userEvent.type(within(card).getByLabelText('Message with the denial'), '   ');
    expect(send.disabled).toBe(true);
    await userEvent.click(within(card).getByRole('button', { name: 'Back' }));
    await userEvent.click(within(card).getByRole('button', { name: 'Deny' }));
    await act(() => settle());
    expect(transport.callsOf('answerPermission')).toEqual([{ session: S, requestId: 'w1', verdict: 'deny' }]);
  });

  it('reads a refused call as denied with no permission request in sight (history), and says the deny stopped Claude', async () => {
    const tool = (kind: 'tool.started' | 'tool.failed', seq: number): ConsoleEvent =>
      kind === 'tool.started'
        ? {
            kind,
            session: S,
            turn: 't1',
            time: T,
            toolUseId: 'tw',
            name: 'Write',
            toolKind: 'write',
            title: 'Write',
            input: { file_path: '/p/a.txt', content: 'hi' },
            seq,
          }
        : { kind, session: S, turn: 't1', time: T, toolUseId: 'tw', name: 'Write', error: 'No', denied: true, seq };
    const stopped: ConsoleEvent = {
      kind: 'turn.completed',
      session: S,
      turn: 't1',
      time: T,
      durationMs: 5,
      numTurns: 1,
      costUsd: 0,
      stopReason: 'tool_denied',
      seq: 4,
    };
    await open([started, tool('tool.started', 2), tool('tool.failed', 3), stopped]);
    expect(screen.getByTestId('tool-denied').textContent).toBe('denied');
    expect(screen.getByTestId('turn-completed').textContent).toMatch(/^Stopped: you denied a tool, Claude waits for you/);
  });
});

describe('retries', () => {
  it('shows the CLI retrying the API request, with a Stop', async () => {
    const { transport, push } = await open([started]);
    transport.on('cancelTurn', () => ({ disposition: 'provider_active', turn: 't1', phase: 'dispatched', forced: false }));
    await push({ kind: 'session.updated', session: S, time: T, ephemeral: true, status: 'retrying', retry: { attempt: 2, maxRetries: 10, httpStatus: 401 } });
    const banner = await screen.findByTestId('retry-banner');
    expect(banner.textContent).toContain('attempt 2 of 10, HTTP 401');
    await userEvent.click(within(banner).getByRole('button', { name: 'Stop' }));
    await act(() => settle());
    expect(transport.callsOf('cancelTurn')).toEqual([{ session: S, turn: 't1' }]);
  });
});
