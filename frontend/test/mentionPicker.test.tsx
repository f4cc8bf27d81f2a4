// The @-picker while the folder's first listing is still being made: the partial answer says so, and the whole
// answer that follows keeps the row the person moved to (it used to jump back to the first row under their Enter).
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileMatch, FindFilesResult } from '../src/protocol/api.gen';
import { settle } from './fakeTransport';
import { renderComposer } from './renderComposer';

afterEach(() => localStorage.clear());

const file = (path: string): FileMatch => ({ path, dir: false }) as FileMatch;
const answer = (matches: FileMatch[], partial: boolean): FindFilesResult => ({ matches, listed: matches.length, truncated: false, git: true, partial });

describe('the @-picker over a folder still being listed', () => {
  it('marks the partial list and keeps the selected file when the whole answer arrives', async () => {
    let whole: (r: FindFilesResult) => void = () => undefined;
    const { input } = await renderComposer((t) =>
      t.on('findFiles', (p) =>
        p.query === '' ? answer([], true) : p.complete === true ? new Promise((resolve) => (whole = resolve)) : answer([file('a.ts'), file('b.ts')], true),
      ),
    );
    await type(input, 'see @ts');
    expect(options()).toEqual(['a.ts', 'b.ts']);
    expect(screen.getByTestId('mention-partial').textContent).toContain('Still listing');
    expect(screen.getByTestId('mention-picker').getAttribute('aria-busy')).toBe('true');

    await key(input, 'ArrowDown');
    expect(selected()).toBe('b.ts');
    await act(async () => {
      whole(answer([file('0.ts'), file('a.ts'), file('b.ts')], false));
      await settle();
    });
    expect(options()).toEqual(['0.ts', 'a.ts', 'b.ts']);
    expect(selected()).toBe('b.ts');
    expect(screen.queryByTestId('mention-partial')).toBeNull();
    expect(screen.getByTestId('mention-picker').getAttribute('aria-busy')).toBe('false');

    await key(input, 'Enter');
    expect((input as HTMLTextAreaElement).value).toBe('see @b.ts ');
  });

  it('starts a new query at its first row', async () => {
    const { input } = await renderComposer((t) =>
      t.on('findFiles', (p) => answer(p.query === 'ts' ? [file('a.ts'), file('b.ts')] : [file('c.md'), file('b.ts')], false)),
    );
    await type(input, 'see @ts');
    await key(input, 'ArrowDown');
    expect(selected()).toBe('b.ts');
    await type(input, 'see @md');
    expect(options()).toEqual(['c.md', 'b.ts']);
    expect(selected()).toBe('c.md');
  });
});

const options = () => screen.queryAllByTestId('mention-option').map((o) => o.textContent?.replace(/^\W+/, ''));
const selected = () => screen.getByTestId('mention-picker').querySelector('[aria-selected="true"] code')?.textContent;

async function type(input: HTMLElement, text: string): Promise<void> {
  await act(async () => {
    fireEvent.change(input, { target: { value: text, selectionStart: text.length, selectionEnd: text.length } });
    await settle();
  });
}

async function key(input: HTMLElement, k: string): Promise<void> {
  await act(async () => {
    fireEvent.keyDown(input, { key: k });
    await settle();
  });
}
