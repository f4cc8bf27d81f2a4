// Merges stream pieces that wait together in the line writer. A streaming reply arrives from claude in bursts
// (one pipe read holds hundreds of text deltas); sending each piece as its own line made the host decode, fan out
// and repaint hundreds of events where one carries the same text. Only pieces already waiting are merged, so
// merging never holds a piece back; a quiet stream still goes out piece by piece.
import type { WireLine } from './codec.js';

/** A merged piece stays well inside the size the line bounds pass without measuring (bounds.ts fitEvent). */
export const MAX_COALESCED_TEXT = 16 * 1024;

/**
 * Returns one line carrying next's text after prev's when both are text pieces of the same block (same session,
 * turn, message and index), else undefined. The merged piece keeps prev's time: the moment its first part was
 * mapped, so a latency read off it is never flattering.
 */
export function coalesce(prev: WireLine, next: WireLine): WireLine | undefined {
  if (prev.type !== 'event' || next.type !== 'event') return undefined;
  const a = prev.event;
  const b = next.event;
  if (a.kind !== 'message.delta' || b.kind !== 'message.delta') return undefined;
  if (a.session !== b.session || a.turn !== b.turn || a.messageId !== b.messageId) return undefined;
  if (a.index !== b.index || a.block !== b.block) return undefined;
  if (a.text.length + b.text.length > MAX_COALESCED_TEXT) return undefined;
  if (prev === lastMerged) {
    a.text += b.text; // a line this made: nobody else holds it, so a burst's pieces are not copied once each
    return prev;
  }
  lastMerged = { ...prev, event: { ...a, text: a.text + b.text } };
  return lastMerged;
}

/** The line the last merge made. The events it merged may be held elsewhere (the session saw them), so the first
 * merge copies; the writer then offers back only the line it got, waiting, never written yet. */
let lastMerged: WireLine | undefined;
