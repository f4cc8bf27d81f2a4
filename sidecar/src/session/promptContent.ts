// A turn's prompt as the SDK's user message content: its text, then its images (the Messages API's base64 blocks).
import type { SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import type { Turn } from './turns.js';

type UserContent = SDKUserMessage['message']['content'];

/** The image types the Messages API reads (the exec request's schema admits only these). */
const MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
type MediaType = (typeof MEDIA_TYPES)[number];

function mediaType(value: string): MediaType {
  const found = MEDIA_TYPES.find((t) => t === value);
  if (found === undefined) throw new Error(`unsupported image type ${value}`);
  return found;
}

export function promptContent(turn: Pick<Turn, 'prompt' | 'images'>): UserContent {
  if (turn.images === undefined || turn.images.length === 0) return turn.prompt;
  return [
    ...(turn.prompt !== '' ? [{ type: 'text' as const, text: turn.prompt }] : []),
    ...turn.images.map((image) => ({
      type: 'image' as const,
      source: { type: 'base64' as const, media_type: mediaType(image.mediaType), data: image.data },
    })),
  ];
}
