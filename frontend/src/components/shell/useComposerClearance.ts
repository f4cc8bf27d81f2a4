// How far above the window's bottom the toasts sit: over the composer (and the permission card docked in it) they
// would hide the prompt and the Send button, which a narrow window has no room beside them for.
import { useLayoutEffect, useState } from 'react';

/** The gap kept below the toasts: from the window's edge, or from the composer's top. */
export const TOAST_GAP = 16;
const COMPOSER = '.composer-area';

/** The toasts' `bottom` in px for a composer whose top is at `top` (undefined: no composer shown). */
export function clearanceAbove(top: number | undefined, viewportHeight: number): number {
  if (top === undefined) return TOAST_GAP;
  return Math.max(TOAST_GAP, Math.round(viewportHeight - top) + TOAST_GAP / 2);
}

function measure(): number {
  const area = document.querySelector(COMPOSER);
  return clearanceAbove(area?.getBoundingClientRect().top, window.innerHeight);
}

/** The toasts' `bottom`, following the composer as it grows, shrinks or the window resizes, while `active`. */
export function useComposerClearance(active: boolean): number {
  const [bottom, setBottom] = useState(TOAST_GAP);
  useLayoutEffect(() => {
    if (!active) return;
    const update = () => setBottom(measure());
    update();
    window.addEventListener('resize', update);
    const area = document.querySelector(COMPOSER);
    // jsdom has no ResizeObserver; a real browser reports the composer's growth (a docked card, a longer prompt).
    const observer = area !== null && typeof ResizeObserver !== 'undefined' ? new ResizeObserver(update) : undefined;
    if (area !== null) observer?.observe(area);
    return () => {
      window.removeEventListener('resize', update);
      observer?.disconnect();
    };
  }, [active]);
  return bottom;
}
