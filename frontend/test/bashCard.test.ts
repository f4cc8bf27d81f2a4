// A Bash call sent to the background reads "running" while its task lives, never "exit 0" (issue 28).
import { describe, expect, it } from 'vitest';
import { exitLabel, inBackground } from '../src/components/tools/BashCard';
import type { ToolItem } from '../src/store/types';

const bash = (over: Partial<ToolItem>): ToolItem => ({
  type: 'tool',
  key: 'l1',
  time: '2026-12-01T00:00:00Z',
  toolUseId: 'tu1',
  name: 'Bash',
  input: { command: 'npm run dev' },
  toolKind: 'shell',
  title: 'Bash',
  status: 'completed',
  children: [],
  ...over,
});

describe('exitLabel', () => {
  it('says exit 0 for a command that ran to its end', () => {
    expect(exitLabel(bash({}))).toBe('exit 0');
  });
  it('never says exit 0 for a command sent to the background', () => {
    const bg = bash({ input: { command: 'npm run dev', run_in_background: true } });
    expect(inBackground(bg)).toBe(true);
    expect(exitLabel(bg, true)).toBeUndefined();
    expect(exitLabel(bg, false)).toBe('ran in background');
    expect(inBackground(bash({ structured: { backgroundTaskId: 'b1' } }))).toBe(true);
  });
});
