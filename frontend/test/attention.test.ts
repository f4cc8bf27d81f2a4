// What a notification says of a request (issue 28: name the tool or command).
import { describe, expect, it } from 'vitest';
import { requestSummary } from '../src/store/attention';

describe('requestSummary', () => {
  it('names the tool and what it would do', () => {
    expect(requestSummary('Bash', { command: 'npm test' })).toBe('Bash: npm test');
    expect(requestSummary('Write', { file_path: '/p/a.txt', content: 'x' })).toBe('Write: /p/a.txt');
    expect(requestSummary('WebFetch', { url: 'https://example.com' })).toBe('WebFetch: https://example.com');
  });
  it('falls back to the request’s title, then the tool alone, on one short line', () => {
    expect(requestSummary('mcp__x', {}, 'Use the x server')).toBe('mcp__x: Use the x server');
    expect(requestSummary('Task', null)).toBe('Task');
    const long = requestSummary('Bash', { command: `echo ${'a'.repeat(300)}\nls` });
    expect(long.length).toBe(120);
    expect(long.endsWith('…')).toBe(true);
  });
});
