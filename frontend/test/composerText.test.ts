import { describe, expect, it } from 'vitest';
import { fittedSize } from '../src/components/composer/attachImages';
import { insertMention, mentionAt } from '../src/components/composer/mentions';
import { firstSentence, matchingCommands } from '../src/components/composer/CommandHints';
import { loadDraft, saveDraft } from '../src/components/composer/draftStorage';
import { caretOnFirstLine, caretOnLastLine, step } from '../src/components/composer/promptHistory';

describe('the slash menu', () => {
  it('shows the first sentence of a description, on one line', () => {
    expect(firstSentence('Clear conversation history. Frees up context and more.\nSecond line')).toBe('Clear conversation history.');
    expect(firstSentence('Show v1.2 usage\nmore')).toBe('Show v1.2 usage');
    expect(firstSentence('x'.repeat(300))).toHaveLength(120);
  });

  it('lists names starting with the typed text first, then those containing it; none once an argument starts', () => {
    const commands = ['review', 'compact', 'context', 'pr-comments'].map((name) => ({ name, description: '', argumentHint: '' }));
    expect(matchingCommands(commands, '/co').map((c) => c.name)).toEqual(['compact', 'context', 'pr-comments']);
    expect(matchingCommands(commands, '/compact ')).toEqual([]);
    expect(matchingCommands(commands, 'co')).toEqual([]);
  });
});

describe('prompt recall', () => {
  it('recalls only from the first line going up and the last line going down', () => {
    const text = 'one\ntwo';
    expect(caretOnFirstLine(text, 2, 2)).toBe(true);
    expect(caretOnFirstLine(text, 5, 5)).toBe(false);
    expect(caretOnLastLine(text, 5, 5)).toBe(true);
    expect(caretOnLastLine(text, 2, 2)).toBe(false);
    expect(caretOnFirstLine(text, 0, 3)).toBe(false); // a selection is left alone
  });

  it('steps through the prompts and back to the draft, no further', () => {
    const prompts = ['a', 'b'];
    expect(step(prompts, 2, 'up')).toBe(1);
    expect(step(prompts, 0, 'up')).toBeUndefined();
    expect(step(prompts, 1, 'down')).toBe(2);
    expect(step(prompts, 2, 'down')).toBeUndefined();
  });
});

describe('drafts', () => {
  it('are kept per session and dropped when empty', () => {
    saveDraft('s1', 'hello');
    saveDraft('s2', 'other');
    expect(loadDraft('s1')).toBe('hello');
    expect(loadDraft('s2')).toBe('other');
    saveDraft('s1', '');
    expect(loadDraft('s1')).toBe('');
    expect(localStorage.getItem('baton.draft.s1')).toBeNull();
  });
});

describe('attached images', () => {
  it('are scaled to 1568 px on the long edge and 1.15 megapixels, keeping their shape', () => {
    expect(fittedSize(1000, 800)).toBeUndefined();
    const wide = fittedSize(3000, 2000);
    expect(wide).toBeDefined();
    expect(wide!.width * wide!.height).toBeLessThanOrEqual(1_150_000);
    expect(Math.abs(wide!.width / wide!.height - 1.5)).toBeLessThan(0.01);
    expect(fittedSize(4000, 500)).toEqual({ width: 1568, height: 196 });
  });
});

describe('@-mentions', () => {
  it('are found where the caret is in a word starting with @', () => {
    expect(mentionAt('look at @src/ma', 15)).toEqual({ start: 8, end: 15, query: 'src/ma' });
    expect(mentionAt('mail me@example.com', 19)).toBeUndefined();
    expect(mentionAt('@', 1)).toEqual({ start: 0, end: 1, query: '' });
    expect(mentionAt('@done next', 10)).toBeUndefined();
  });

  it('insert the path, quoted when it holds a space; a folder keeps the picker open inside it', () => {
    const token = { start: 4, end: 7, query: 'ma' };
    expect(insertMention('see @ma', token, 'src/main.ts', false)).toEqual({ text: 'see @src/main.ts ', caret: 17 });
    expect(insertMention('see @ma', token, 'src', true)).toEqual({ text: 'see @src/', caret: 9 });
    expect(insertMention('see @ma', token, 'my docs/a b.md', false).text).toBe('see @"my docs/a b.md" ');
  });
});
