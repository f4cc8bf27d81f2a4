// A prompt as the SDK takes it: its text alone, or (with images pasted into the composer) image blocks first and
// the text after them, the order the Messages API reads best. The same images go on turn.started, so the prompt's
// bubble shows them live as history shows them from the transcript.
import type { SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import type { Image } from '../protocol/kinds/common.js';
import type { PromptImage } from '../protocol/schemas.js';

type UserContent = SDKUserMessage['message']['content'];

export function promptContent(prompt: string, images: readonly PromptImage[] | undefined): UserContent {
  if (images === undefined || images.length === 0) return prompt;
  const blocks: Exclude<UserContent, string> = images.map((image) => ({
    type: 'image' as const,
    source: { type: 'base64' as const, media_type: image.mediaType, data: image.data },
  }));
  if (prompt !== '') blocks.push({ type: 'text', text: prompt });
  return blocks;
}

/** The images as events carry them: type, data and decoded size. */
export function eventImages(images: readonly PromptImage[] | undefined): { images: Image[] } | Record<string, never> {
  if (images === undefined || images.length === 0) return {};
  return { images: images.map((image) => ({ mediaType: image.mediaType, data: image.data, bytes: decodedBytes(image.data) })) };
}

function decodedBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}
