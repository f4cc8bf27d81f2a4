// Terminal output in the console: colours as colours, every other escape sequence dropped, never HTML.
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AnsiText } from '../src/components/tools/AnsiText';
import { ansiPieces, terminalText, withoutEscapes } from '../src/lib/ansi';
import { renderMarkdown } from '../src/lib/markdown';

describe('terminal text', () => {
  it('keeps colours and text styles', () => {
    expect(ansiPieces('\x1b[1;31merror\x1b[0m: \x1b[4mfile\x1b[24m \x1b[2;3mdim\x1b[m')).toEqual([
      { text: 'error', style: { color: 'var(--ansi-red)', fontWeight: 600 } },
      { text: ': ' },
      { text: 'file', style: { textDecoration: 'underline' } },
      { text: ' ' },
      { text: 'dim', style: { opacity: 0.7, fontStyle: 'italic' } },
    ]);
    expect(ansiPieces('\x1b[92;44mok\x1b[0m')).toEqual([{ text: 'ok', style: { color: 'var(--ansi-bright-green)', backgroundColor: 'var(--ansi-blue)' } }]);
  });

  it('reads 256 colours and true colour, in the ; and the : forms', () => {
    const colours = (s: string) => ansiPieces(s).map((p) => p.style?.color);
    expect(colours('\x1b[38;5;208ma\x1b[0m\x1b[38:5:208mb\x1b[0m\x1b[38;5;244mc\x1b[0m\x1b[38;5;3md\x1b[0m')).toEqual([
      'rgb(255, 135, 0)',
      'rgb(255, 135, 0)',
      'rgb(128, 128, 128)',
      'var(--ansi-yellow)',
    ]);
    expect(colours('\x1b[38;2;10;20;30ma\x1b[0m\x1b[38:2::10:20:30mb\x1b[0m\x1b[38:2:10:20:30mc\x1b[0m')).toEqual([
      'rgb(10, 20, 30)',
      'rgb(10, 20, 30)',
      'rgb(10, 20, 30)',
    ]);
  });

  it('drops cursor moves, erasing, titles, hyperlinks, charsets, modes and control characters', () => {
    const raw =
      '\x1b[2K\x1b[1G\x1b[3A\x1b[?25lstart\x1b[?25h \x1b]0;title\x07\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ ' +
      '\x1b(Bset\x1b7\x1b8 \x1bPq#0\x1b\\bell\x07 back\bspace nul\u0000 c1\x9b2J \x1b[>4;2mkeys end\x1b[1';
    expect(terminalText(raw)).toBe('start link set bell backspace nul c1 keys end');
    expect(
      ansiPieces(raw)
        .map((p) => p.text)
        .join(''),
    ).toBe('start link set bell backspace nul c1 keys end');
    expect(terminalText('cut off\x1b')).toBe('cut off');
  });

  it('shows a line as its last carriage return left it, in the colours set before', () => {
    expect(terminalText(' 10%\r 50%\r100%\nnext\r\nline\r')).toBe('100%\nnext\nline');
    expect(ansiPieces('\x1b[32m 10%\r 100%\x1b[0m')).toEqual([{ text: ' 100%', style: { color: 'var(--ansi-green)' } }]);
  });

  it('leaves text with no escapes as it is', () => {
    expect(ansiPieces('plain <b>text</b>\n\ttabbed')).toEqual([{ text: 'plain <b>text</b>\n\ttabbed' }]);
  });

  it('renders markup in coloured output as text, never as elements', () => {
    const { container } = render(
      <pre>
        <AnsiText text={'\x1b[31m<img src=x onerror=alert(1)><script>alert(2)</script>\x1b[0m'} />
      </pre>,
    );
    expect(container.querySelector('img, script')).toBeNull();
    expect(container.textContent).toBe('<img src=x onerror=alert(1)><script>alert(2)</script>');
    expect(container.querySelector('span')?.style.color).toBe('var(--ansi-red)');
  });

  it('drops escapes from a reply that quotes a command’s output', () => {
    expect(withoutEscapes('Tool results: \x1b[1;31mred\x1b[0m \x1b]0;title\x07\x1b[2Kplain\r\n')).toBe('Tool results: red plain\r\n');
    const html = renderMarkdown('Output: \x1b[32mok\x1b[0m');
    expect(html).toContain('Output: ok');
    expect(html).not.toContain('\x1b');
  });
});
