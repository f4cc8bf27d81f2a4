// Issue 28's console keys and scroll-back, unit by unit: which keys answer a card (only inside it), arrows among
// buttons, Shift+Tab's mode cycle, what the Jump to latest button counts, and when a key scrolls up.
import { describe, expect, it } from 'vitest';
import { nextMode } from '../src/components/composer/ModePicker';
import { atBottom, scrollsUp } from '../src/components/conversation/followTail';
import { countNewMessages, jumpLabel } from '../src/components/conversation/newMessages';
import { digitOf, focusWaitingCard, type KeyLike, moveAmongButtons, permissionKey } from '../src/components/permissions/cardKeys';

const key = (k: string, target: EventTarget | null, over: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  target,
  ...over,
});

function card(): { root: HTMLDivElement; buttons: HTMLButtonElement[]; input: HTMLInputElement } {
  const root = document.createElement('div');
  root.className = 'permission-card';
  const buttons = ['Allow', 'Always', 'Deny'].map((t) => {
    const b = document.createElement('button');
    b.textContent = t;
    root.append(b);
    return b;
  });
  buttons[0]?.classList.add('primary');
  const input = document.createElement('input');
  root.append(input);
  document.body.append(root);
  return { root, buttons, input };
}

describe('permission card keys', () => {
  it('answer inside the card: 1 allows, 2 always (with a rule), 3 denies with a message, Enter on the card allows', () => {
    const { root, buttons } = card();
    expect(permissionKey(key('1', buttons[1] ?? null), root, true)).toBe('allow');
    expect(permissionKey(key('2', root), root, true)).toBe('allow_always');
    expect(permissionKey(key('2', root), root, false)).toBeUndefined();
    expect(permissionKey(key('3', root), root, false)).toBe('deny_with_message');
    expect(permissionKey(key('Enter', root), root, false)).toBe('allow');
    root.remove();
  });

  it('never answer from a field, with a modifier, or by Enter on a button (the button presses itself)', () => {
    const { root, buttons, input } = card();
    expect(permissionKey(key('1', input), root, true)).toBeUndefined();
    expect(permissionKey(key('1', root, { ctrlKey: true }), root, true)).toBeUndefined();
    expect(permissionKey(key('Enter', buttons[2] ?? null), root, true)).toBeUndefined();
    root.remove();
  });

  it('arrows move among the buttons, wrapping; Home and End go to the ends', () => {
    const { root, buttons } = card();
    buttons[0]?.focus();
    expect(moveAmongButtons(key('ArrowRight', buttons[0] ?? null), root)).toBe(true);
    expect(document.activeElement).toBe(buttons[1]);
    moveAmongButtons(key('ArrowUp', buttons[0] ?? null), root);
    expect(document.activeElement).toBe(buttons[2]);
    moveAmongButtons(key('Home', buttons[2] ?? null), root);
    expect(document.activeElement).toBe(buttons[0]);
    expect(moveAmongButtons(key('x', buttons[0] ?? null), root)).toBe(false);
    root.remove();
  });

  it('Tab from the composer focuses the waiting card’s first answer', () => {
    const dock = document.createElement('div');
    dock.className = 'permission-dock';
    const { root, buttons } = card();
    dock.append(root);
    document.body.append(dock);
    expect(focusWaitingCard()).toBe(true);
    expect(document.activeElement).toBe(buttons[0]);
    dock.remove();
    expect(focusWaitingCard()).toBe(false);
  });

  it('digits pick options; others do not', () => {
    expect(digitOf(key('3', null))).toBe(3);
    expect(digitOf(key('0', null))).toBeUndefined();
    expect(digitOf(key('a', null))).toBeUndefined();
  });
});

describe('Shift+Tab', () => {
  it('cycles ask → accept edits → plan → ask, and any other mode back to asking', () => {
    expect(nextMode('default')).toBe('acceptEdits');
    expect(nextMode('acceptEdits')).toBe('plan');
    expect(nextMode('plan')).toBe('default');
    expect(nextMode('bypassPermissions')).toBe('default');
  });
});

describe('Jump to latest', () => {
  const messages = new Set(['u2', 'a2', 'u3']);
  const isMessage = (k: string) => messages.has(k);
  it('counts the messages after the last row there was when the person left, not history prepended', () => {
    expect(countNewMessages(['h1', 'a1', 'u2', 't2', 'a2'], 'a1', isMessage)).toBe(2);
    expect(countNewMessages(['a1'], 'a1', isMessage)).toBe(0);
    expect(countNewMessages(['u2', 'a2'], 'gone', isMessage)).toBe(0);
  });
  it('says how many', () => {
    expect(jumpLabel(0)).toBe('Jump to latest');
    expect(jumpLabel(1)).toBe('Jump to latest · 1 new message');
    expect(jumpLabel(3)).toBe('Jump to latest · 3 new messages');
  });
});

describe('following the tail', () => {
  it('reads up keys and the bottom', () => {
    const k = (k: string, shiftKey = false) => ({ key: k, shiftKey, ctrlKey: false, metaKey: false, altKey: false });
    expect(scrollsUp(k('PageUp'))).toBe(true);
    expect(scrollsUp(k(' ', true))).toBe(true);
    expect(scrollsUp(k(' '))).toBe(false);
    expect(scrollsUp(k('ArrowDown'))).toBe(false);
    expect(atBottom({ scrollTop: 1298.5, scrollHeight: 2000, clientHeight: 700 })).toBe(true);
    expect(atBottom({ scrollTop: 1290, scrollHeight: 2000, clientHeight: 700 })).toBe(false);
  });
});
