import { describe, expect, it } from 'vitest';
import { MAX_TITLE_CHARS, plainTitle, sessionTitle } from '../../src/history/titles.js';

describe('sessionTitle', () => {
  it('prefers the custom title, then the first prompt, then the summary', () => {
    expect(sessionTitle({ customTitle: 'Mine', firstPrompt: 'first', summary: 'latest' })).toBe('Mine');
    expect(sessionTitle({ firstPrompt: 'first', summary: 'latest' })).toBe('first');
    expect(sessionTitle({ customTitle: '  ', firstPrompt: '', summary: 'latest' })).toBe('latest');
    expect(sessionTitle({ summary: '' })).toBe('');
  });
});

describe('plainTitle', () => {
  it('drops Markdown and keeps the words on one line', () => {
    expect(plainTitle('# Fix **the** `login` bug\n\n- see [the issue](https://x/1)')).toBe('Fix the login bug see the issue');
    expect(plainTitle('```ts\nconst a = 1;\n```')).toBe('const a = 1;');
    expect(plainTitle('> quoted _words_ here')).toBe('quoted words here');
    expect(plainTitle('- [x] done item')).toBe('done item');
    expect(plainTitle('snake_case_name stays')).toBe('snake_case_name stays');
  });

  it('bounds the length', () => {
    const title = plainTitle('word '.repeat(100));
    expect(title.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    expect(title.endsWith('…')).toBe(true);
  });
});
