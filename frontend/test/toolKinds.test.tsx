// Cards pick their component by the catalogue's toolKind, never by the tool's name (issue 25): a call is shown
// as the kind the sidecar named, whatever it is called, and the collapsed card's line is the catalogue's detail.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LiveSession } from '../src/protocol/api';
import { RECORDED_SESSION } from './fixtures';
import { renderConsole } from './render';

const S = RECORDED_SESSION;
const T = '2026-01-01T00:00:00.000Z';

function liveSession(): LiveSession {
  return { session: S, cwd: '/home/user/project', requestedModel: 'default', effectiveModel: '', permissionMode: 'default', state: 'awake', events: [] };
}

const card = (name: string) => document.querySelector(`[data-testid="tool-card"][data-tool="${name}"]`);

describe('tool cards by kind', () => {
  it('shows each call as its toolKind says, with the catalogue’s detail and title', async () => {
    const { push, select } = await renderConsole((t) => {
      t.snapshot = { ...t.snapshot, sessions: [liveSession()] };
    });
    await select(S);
    await push(
      { kind: 'turn.started', session: S, turn: 'k', time: T, seq: 1, prompt: 'go' },
      {
        kind: 'tool.started',
        session: S,
        turn: 'k',
        time: T,
        seq: 2,
        toolUseId: 'u1',
        name: 'mcp__docs__open',
        toolKind: 'read',
        title: 'Read notes.md',
        detail: 'notes.md (from the catalogue)',
        input: {},
      },
      {
        kind: 'tool.started',
        session: S,
        turn: 'k',
        time: T,
        seq: 3,
        toolUseId: 'u2',
        name: 'mcp__sh__run',
        toolKind: 'shell',
        title: 'Run make',
        input: { command: 'make all' },
      },
      {
        kind: 'tool.started',
        session: S,
        turn: 'k',
        time: T,
        seq: 4,
        toolUseId: 'u3',
        name: 'mcp__team__brief',
        toolKind: 'agent',
        title: 'Agent · reviewer',
        input: { description: 'Review it' },
      },
      {
        kind: 'tool.started',
        session: S,
        turn: 'k',
        time: T,
        seq: 5,
        toolUseId: 'u4',
        name: 'Bash',
        toolKind: 'other',
        title: 'Bash',
        input: { command: 'ls' },
      },
    );
    expect(card('mcp__docs__open')?.classList.contains('tool-lookup')).toBe(true);
    expect(card('mcp__docs__open')?.querySelector('.tool-detail')?.textContent).toBe('notes.md (from the catalogue)');
    expect(card('mcp__sh__run')?.classList.contains('tool-bash')).toBe(true);
    expect(card('mcp__sh__run')?.textContent).toContain('make all');
    expect(card('mcp__team__brief')?.classList.contains('tool-agent')).toBe(true);
    expect(card('mcp__team__brief')?.textContent).toContain('Agent · reviewer');
    // Backgroundable by kind: the shell and agent calls offer Background, the lookup and the "other" do not.
    expect(screen.getAllByTestId('send-to-background')).toHaveLength(2);
    expect(card('Bash')?.classList.contains('tool-generic')).toBe(true);
  });
});
