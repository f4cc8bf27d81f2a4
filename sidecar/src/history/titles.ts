// A stored session's title, stable across turns: the title the person gave it (or Claude Code's own generated
// title), else the first prompt as plain text, else whatever the SDK calls its summary. The SDK's `summary` alone
// is not used first: with no custom title it is the *latest* prompt, so the title would change every turn.
import type { SDKSessionInfo } from '@anthropic-ai/claude-agent-sdk';

/** Longest title kept; the sidebar shows one line anyway. */
export const MAX_TITLE_CHARS = 200;

export function sessionTitle(info: Pick<SDKSessionInfo, 'customTitle' | 'firstPrompt' | 'summary'>): string {
  for (const candidate of [info.customTitle, info.firstPrompt, info.summary]) {
    const title = plainTitle(candidate ?? '');
    if (title !== '') return title;
  }
  return '';
}

/**
 * One line of plain text from a prompt that may be Markdown: code fences, emphasis, headings, quotes, list
 * markers and link targets go; the words stay.
 */
export function plainTitle(text: string): string {
  const plain = text
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)/gm, '')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/(^|\s)[*_](\S[^*_]*\S|\S)[*_](?=\s|$|[.,;:!?])/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > MAX_TITLE_CHARS ? `${plain.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…` : plain;
}
