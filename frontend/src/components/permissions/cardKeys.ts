// Keys inside a card that asks the person (a permission, Claude's question, a plan), and in menus. A card's
// answer keys act only while the focus is in that card: a key typed in the composer is the prompt's (issue 28:
// Enter in an empty composer used to approve the pending tool). Tab from the composer brings the focus here.

/** The subset of a keyboard event these helpers read (a DOM or React event). */
export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  target: EventTarget | null;
}

function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** Whether a key pressed in a card may answer it: no modifier, and not typed into a field of the card. */
export function cardKeyMayAnswer(e: KeyLike): boolean {
  return !(e.ctrlKey || e.metaKey || e.altKey) && !typing(e.target);
}

export type PermissionKey = 'allow' | 'allow_always' | 'deny_with_message';

/** As in the CLI: 1 allows, 2 always allows (when a rule is offered), 3 denies with a message; Enter on the card
 * itself allows (on a focused button, Enter presses that button). */
export function permissionKey(e: KeyLike, card: Element, hasRule: boolean): PermissionKey | undefined {
  if (!cardKeyMayAnswer(e)) return undefined;
  if (e.key === '1' || (e.key === 'Enter' && e.target === card)) return 'allow';
  if (e.key === '2' && hasRule) return 'allow_always';
  if (e.key === '3') return 'deny_with_message';
  return undefined;
}

/** The enabled buttons of a container, in order: what arrow keys move between. */
function buttonsOf(container: Element): HTMLButtonElement[] {
  return Array.from(container.querySelectorAll<HTMLButtonElement>('button')).filter((b) => !b.disabled && b.closest('[hidden]') === null);
}

/** Arrow keys (and Home/End) move the focus among a container's buttons, wrapping; true when the key was one. */
export function moveAmongButtons(e: KeyLike, container: Element): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return false;
  const delta = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0;
  if (delta === 0 && e.key !== 'Home' && e.key !== 'End') return false;
  const buttons = buttonsOf(container);
  if (buttons.length === 0) return false;
  const at = e.target instanceof HTMLButtonElement ? buttons.indexOf(e.target) : -1;
  const next =
    e.key === 'Home'
      ? 0
      : e.key === 'End'
        ? buttons.length - 1
        : at === -1
          ? delta > 0
            ? 0
            : buttons.length - 1
          : (at + delta + buttons.length) % buttons.length;
  buttons[next]?.focus();
  return true;
}

/** The digit 1–9 a key is, for picking the n-th option; undefined for any other key. */
export function digitOf(e: KeyLike): number | undefined {
  if (!cardKeyMayAnswer(e) || !/^[1-9]$/.test(e.key)) return undefined;
  return Number(e.key);
}

/** Focuses the first card waiting in the dock (its first enabled button, else the card): true when there was one. */
export function focusWaitingCard(root: ParentNode = document): boolean {
  const card = root.querySelector<HTMLElement>('.permission-dock .permission-card');
  if (card === null) return false;
  const first = card.querySelector<HTMLButtonElement>('button.primary:not(:disabled)') ?? buttonsOf(card)[0];
  (first ?? card).focus();
  return true;
}
