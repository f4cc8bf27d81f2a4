import { describe, expect, it } from 'vitest';
import { TOOL_KINDS } from '../../src/protocol/events.js';
import { changesFiles, describeTool, isPlanToolName, toolKindOf, TOOL_NAMES } from '../../src/tools/catalogue.js';

describe('tool catalogue', () => {
  it('reads each kind of call as a kind, a one-line title, its detail and its file', () => {
    expect(describeTool('Bash', { command: 'npm   test\n--watch', description: 'Run the tests' })).toEqual({
      toolKind: 'shell',
      title: 'Run npm test --watch',
      detail: 'Run the tests',
    });
    expect(describeTool('Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' })).toEqual({
      toolKind: 'edit',
      title: 'Edit src/a.ts',
      detail: 'src/a.ts',
      path: 'src/a.ts',
    });
    expect(describeTool('MultiEdit', { file_path: 'b.ts', edits: [] })).toMatchObject({ toolKind: 'edit', path: 'b.ts' });
    expect(describeTool('Write', { file_path: 'n.txt', content: 'x' })).toMatchObject({ toolKind: 'write', title: 'Write n.txt' });
    expect(describeTool('Read', { file_path: '/p/r.md' })).toEqual({ toolKind: 'read', title: 'Read /p/r.md', detail: '/p/r.md', path: '/p/r.md' });
    expect(describeTool('Grep', { pattern: 'TODO', path: 'src' })).toEqual({
      toolKind: 'search',
      title: 'Search TODO in src',
      detail: 'TODO in src',
      path: 'src',
    });
    expect(describeTool('Glob', { pattern: '**/*.ts' })).toEqual({ toolKind: 'search', title: 'Search **/*.ts', detail: '**/*.ts' });
    expect(describeTool('LS', { path: '/p' })).toMatchObject({ toolKind: 'search', title: 'List /p', detail: '/p' });
    expect(describeTool('WebFetch', { url: 'https://x.test/a' })).toEqual({ toolKind: 'fetch', title: 'Fetch https://x.test/a', detail: 'https://x.test/a' });
    expect(describeTool('WebSearch', { query: 'zod enums' })).toEqual({ toolKind: 'fetch', title: 'Search the web for “zod enums”', detail: '“zod enums”' });
    expect(describeTool('Task', { description: 'Look around', subagent_type: 'Explore', prompt: 'p' })).toEqual({
      toolKind: 'agent',
      title: 'Agent · Explore',
      detail: 'Look around',
    });
    expect(describeTool('Agent', { description: 'd' })).toEqual({ toolKind: 'agent', title: 'Agent', detail: 'd' });
    expect(describeTool('TodoWrite', { todos: [] })).toEqual({ toolKind: 'plan', title: 'Update the checklist' });
    expect(describeTool('AskUserQuestion', { questions: [{ question: 'Which one?' }] })).toEqual({ toolKind: 'question', title: 'Ask Which one?' });
    expect(describeTool('ExitPlanMode', { plan: '1. x' })).toEqual({ toolKind: 'plan_exit', title: 'Present a plan' });
    expect(describeTool('mcp__baton__lookup', { q: 1 })).toEqual({ toolKind: 'mcp', title: 'baton · lookup' });
    expect(describeTool('NotebookEdit', { notebook_path: 'n.ipynb' })).toEqual({ toolKind: 'other', title: 'NotebookEdit' });
    expect(describeTool('SomethingNew', { command: 'go vet' })).toEqual({ toolKind: 'other', title: 'SomethingNew go vet' });
  });

  it('falls back to the bare name when the input lacks what the title needs, and never throws', () => {
    for (const input of [null, undefined, 'text', 42, [], {}, { command: 7 }, { command: '   ' }]) {
      expect(describeTool('Bash', input)).toEqual({ toolKind: 'shell', title: 'Bash' });
    }
    expect(describeTool('Edit', {})).toEqual({ toolKind: 'edit', title: 'Edit' });
  });

  it('keeps a title to one line of at most 200 characters', () => {
    const { title } = describeTool('Bash', { command: 'x'.repeat(500) });
    expect(title).toHaveLength(200);
    expect(title.endsWith('…')).toBe(true);
  });

  it('names only kinds of the wire enum, and knows which change files and which fold into the checklist', () => {
    for (const name of TOOL_NAMES) expect(TOOL_KINDS).toContain(toolKindOf(name));
    expect(TOOL_NAMES.filter(changesFiles)).toEqual(['Write', 'Edit', 'MultiEdit']);
    expect(TOOL_NAMES.filter(isPlanToolName)).toEqual(['TodoWrite', 'TaskCreate', 'TaskUpdate']);
    expect(toolKindOf('constructor')).toBe('other');
  });
});
