// Terminal text (a command's output, with its escape sequences) → styled pieces of plain text. Colours and text
// styles (SGR) become styles on spans the caller renders as React elements, so the text itself is never parsed as
// HTML; every other sequence (cursor moves, erasing, titles, hyperlinks, charsets) and stray control characters
// are dropped, and a carriage return keeps what was written over the line last, as a terminal shows it. Parsing
// the SGR codes is anser's; the console's palette is its own (app.css, --ansi-*), for light and dark alike.
import Anser from 'anser';
import type { CSSProperties } from 'react';

export interface AnsiPiece {
  text: string;
  style?: CSSProperties;
}

/** Anything a terminal would interpret rather than print: escapes, carriage returns, other control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** Whether the text holds anything a terminal would not print as it is. */
export function hasControls(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * Every escape sequence, one alternative per form, tried in this order at each ESC: OSC (titles, hyperlinks) to
 * its BEL or ST; DCS, SOS, PM and APC strings to their ST; CSI (its parameters, intermediates and final captured:
 * SGR is a CSI); the 8-bit CSI; any other ESC with what it takes. Each ESC of the text is consumed by one of them.
 */
const ESCAPES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escape sequences are control characters.
  /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][\s\S]*?(?:\x1b\\|$)|\x1b\[([0-?]*)([ -/]*)([@-~]|$)|\x9b[0-?]*[ -/]*[@-~]?|\x1b[ -/]*[0-~]?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above; tab, newline, carriage return and ESC stay.
const OTHER_CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: an SGR sequence, the only one kept.
const SGR = /\x1b\[[0-9;]*m/g;

/**
 * The text with only printable characters, newlines, tabs and SGR sequences left (parameters in the `;` form
 * anser reads), and each line as its last carriage return left it.
 */
export function terminalText(raw: string): string {
  const kept = raw
    .replace(ESCAPES, (_all, params: string | undefined, intermediates: string | undefined, final: string | undefined) =>
      final === 'm' && intermediates === '' && params !== undefined && /^[0-9;:]*$/.test(params) ? `\x1b[${sgrParams(params)}m` : '',
    )
    // Only the SGR sequences written above still hold an ESC.
    .replace(OTHER_CONTROL, '');
  return kept.replace(/\r\n/g, '\n').split('\n').map(overwritten).join('\n');
}

/** The text without escape sequences and control characters (newlines, tabs and carriage returns stay): for text
 * that is not a terminal's, such as a reply quoting a command's output. */
export function withoutEscapes(text: string): string {
  if (!hasControls(text)) return text;
  // ESCAPES consumes every ESC of the text.
  return text.replace(ESCAPES, '').replace(OTHER_CONTROL, '');
}

/** A line as a terminal shows it after carriage returns: the last non-empty piece, in the colours set before it. */
function overwritten(line: string): string {
  if (!line.includes('\r')) return line;
  const pieces = line.split('\r');
  let last = pieces.length - 1;
  while (last > 0 && (pieces[last] ?? '').replace(SGR, '') === '') last--;
  const before = pieces.slice(0, last).join('');
  return `${(before.match(SGR) ?? []).join('')}${pieces.slice(last).join('')}`;
}

/** Colon-separated SGR parameters (`38:5:208`, `38:2::r:g:b`, `4:3`) in the `;` form; anser reads only that. */
function sgrParams(params: string): string {
  if (!params.includes(':')) return params;
  return params
    .split(';')
    .map((group) => {
      if (!group.includes(':')) return group;
      const [head = '', mode, ...rest] = group.split(':');
      if ((head === '38' || head === '48') && mode === '5') return `${head};5;${rest[0] || '0'}`;
      if ((head === '38' || head === '48') && mode === '2') {
        const rgb = rest.length >= 4 ? rest.slice(1, 4) : rest.slice(0, 3);
        return `${head};2;${rgb.map((v) => v || '0').join(';')}`;
      }
      if (head === '4') return mode === '0' ? '24' : '4';
      // An underline colour (58) and the like have no form here: dropped, not shown.
      return '';
    })
    .filter((group) => group !== '')
    .join(';');
}

/** The pieces of terminal text to render, each with its style (none: the text's own). */
export function ansiPieces(raw: string): AnsiPiece[] {
  if (!hasControls(raw)) return [{ text: raw }];
  const entries = Anser.ansiToJson(terminalText(raw), { json: true, remove_empty: true, use_classes: true });
  return entries.map((entry) => {
    const style = pieceStyle(entry);
    return style !== undefined ? { text: entry.content, style } : { text: entry.content };
  });
}

function pieceStyle(entry: Anser.AnserJsonEntry): CSSProperties | undefined {
  const style: CSSProperties = {};
  const color = colour(entry.fg, entry.fg_truecolor);
  const background = colour(entry.bg, entry.bg_truecolor);
  if (color !== undefined) style.color = color;
  if (background !== undefined) style.backgroundColor = background;
  const decorations = new Set(entry.decorations);
  if (decorations.has('bold')) style.fontWeight = 600;
  if (decorations.has('dim')) style.opacity = 0.7;
  if (decorations.has('italic')) style.fontStyle = 'italic';
  if (decorations.has('hidden')) style.visibility = 'hidden';
  const lines = [decorations.has('underline') ? 'underline' : '', decorations.has('strikethrough') ? 'line-through' : ''].filter((d) => d !== '');
  if (lines.length > 0) style.textDecoration = lines.join(' ');
  return Object.keys(style).length > 0 ? style : undefined;
}

/** A CSS colour for anser's class: the 16 named colours from the theme, the 256-colour palette and true colour as rgb. */
function colour(name: string | null, truecolor: string | null): string | undefined {
  if (name === null || name === '') return undefined;
  if (name === 'ansi-truecolor') return truecolor !== null ? `rgb(${truecolor})` : undefined;
  const palette = /^ansi-palette-(\d+)$/.exec(name);
  if (palette !== null) return paletteColour(Number(palette[1]));
  return /^ansi-(bright-)?(black|red|green|yellow|blue|magenta|cyan|white)$/.test(name) ? `var(--${name})` : undefined;
}

/** xterm's 256-colour palette beyond the 16 named colours: a 6×6×6 cube, then 24 greys. */
function paletteColour(n: number): string | undefined {
  if (n >= 16 && n <= 231) {
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    const i = n - 16;
    return `rgb(${level(Math.floor(i / 36))}, ${level(Math.floor(i / 6) % 6)}, ${level(i % 6)})`;
  }
  if (n >= 232 && n <= 255) {
    const grey = 8 + (n - 232) * 10;
    return `rgb(${grey}, ${grey}, ${grey})`;
  }
  return undefined;
}
