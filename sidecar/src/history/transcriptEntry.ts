// A transcript line in the shape the SDK gives the same message live (what the one mapper reads): snake_case
// where the SDK's messages are (parent_tool_use_id, tool_use_result, compact_metadata), Claude Code's transcript
// flags kept. Lines that are no message of the conversation (attachments, bookkeeping, CLI-made context) are none.
import { hash } from 'node:crypto';
import type { Wanted } from './wantedSet.js';

interface Line {
  type?: unknown;
  subtype?: unknown;
  uuid?: unknown;
  sessionId?: unknown;
  timestamp?: unknown;
  message?: { id?: unknown; content?: unknown } & Record<string, unknown>;
  isMeta?: unknown;
  isCompactSummary?: unknown;
  isVisibleInTranscriptOnly?: unknown;
  isCompletedLocalCommand?: unknown;
  isApiErrorMessage?: unknown;
  apiErrorStatus?: unknown;
  error?: unknown;
  toolUseResult?: unknown;
  toolDenialKind?: unknown;
  content?: unknown;
  compactMetadata?: { trigger?: unknown; preTokens?: unknown };
  attachment?: { type?: unknown; prompt?: unknown; isMeta?: unknown };
  closesQuietTurn?: unknown;
}

/** The SDK-shaped message of a transcript line, or undefined when the line is no message to map. */
export function toSdkMessage(line: Line, wanted: Wanted): Record<string, unknown> | undefined {
  const common = {
    ...(typeof line.uuid === 'string' ? { uuid: line.uuid } : {}),
    ...(typeof line.sessionId === 'string' ? { session_id: line.sessionId } : {}),
    ...(typeof line.timestamp === 'string' ? { timestamp: line.timestamp } : {}),
  };
  if (line.isMeta === true) return undefined;
  switch (line.type) {
    case 'user':
      return {
        ...line,
        ...common,
        parent_tool_use_id: wanted.parentToolUseId ?? null,
        ...(line.toolUseResult !== undefined && line.toolUseResult !== null ? { tool_use_result: line.toolUseResult } : {}),
        ...(wanted.localCommand === true ? { localCommand: true } : {}),
        // Shown in Claude Code's transcript view only: never a prompt (as getSessionMessages marked it).
        ...(line.isVisibleInTranscriptOnly === true ? { is_meta: true } : {}),
      };
    case 'assistant':
      if (closesQuietTurn(line)) return undefined;
      return { ...line, ...common, parent_tool_use_id: wanted.parentToolUseId ?? null };
    case 'system':
      return systemMessage(line, common);
    case 'attachment':
      return queuedPrompt(line, common);
    default:
      return undefined;
  }
}

/** Claude Code's own empty reply that ends a turn no one asked for an answer in (getSessionMessages drops it too). */
function closesQuietTurn(line: Line): boolean {
  if (line.closesQuietTurn !== true) return false;
  const content = line.message?.content;
  const only = Array.isArray(content) && content.length === 1 ? (content[0] as { type?: unknown; text?: unknown }) : undefined;
  const text = typeof content === 'string' ? content : only?.type === 'text' ? only.text : undefined;
  return text === '' || text === 'No response requested.';
}

/** A prompt sent while Claude was busy (a queued_command attachment) as the user message it is. */
function queuedPrompt(line: Line, common: Record<string, unknown>): Record<string, unknown> | undefined {
  const attachment = line.attachment;
  if (attachment?.type !== 'queued_command' || attachment.isMeta === true) return undefined;
  const prompt = attachment.prompt;
  if (typeof prompt !== 'string' && !Array.isArray(prompt)) return undefined;
  return { type: 'user', ...common, parent_tool_use_id: null, message: { role: 'user', content: prompt } };
}

function systemMessage(line: Line, common: Record<string, unknown>): Record<string, unknown> | undefined {
  if (line.subtype === 'compact_boundary') {
    const meta = line.compactMetadata;
    return { type: 'system', subtype: 'compact_boundary', ...common, compact_metadata: { trigger: meta?.trigger, pre_tokens: meta?.preTokens } };
  }
  if (line.subtype === 'local_command' && typeof line.content === 'string') {
    return { type: 'system', subtype: 'local_command_output', ...common, content: line.content };
  }
  // Other system lines (turn durations, API error retries, informational notices) are the CLI's bookkeeping.
  return undefined;
}

/**
 * Claude Code may store one reply's block twice under its message.id (once more when a later line repeats the
 * message): each block is mapped once. Keeps a short digest per block, not the block.
 */
export class ReplyDedup {
  private readonly seen = new Set<string>();

  /** The message with the blocks already mapped left out; undefined when none is left. */
  filter(message: Record<string, unknown>): Record<string, unknown> | undefined {
    const inner = message['message'] as { id?: unknown; content?: unknown } | undefined;
    if (message['type'] !== 'assistant' || typeof inner?.id !== 'string' || !Array.isArray(inner.content)) return message;
    const id = inner.id;
    const fresh = inner.content.filter((block) => {
      // One digest of the id and the block (the id's length first, so no two pairs read alike): a one-shot hash,
      // not a Hash object per block.
      const key = hash('sha1', `${id.length}:${id}${JSON.stringify(block)}`, 'base64');
      if (this.seen.has(key)) return false;
      this.seen.add(key);
      return true;
    });
    if (fresh.length === inner.content.length) return message;
    return fresh.length === 0 ? undefined : { ...message, message: { ...inner, content: fresh } };
  }
}
