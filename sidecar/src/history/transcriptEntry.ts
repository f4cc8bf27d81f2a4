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

/**
 * The SDK-shaped message of a transcript line, or undefined when the line is no message to map. A user or
 * assistant line becomes the message itself (the SDK's fields added to it, in the order a copy would put them):
 * a copy of every line was most of pass 2's object copying. The caller gives the line up.
 */
export function toSdkMessage(line: Line, wanted: Wanted): Record<string, unknown> | undefined {
  if (line.isMeta === true) return undefined;
  switch (line.type) {
    case 'user': {
      const message = withCommon(line, wanted);
      if (line.toolUseResult !== undefined && line.toolUseResult !== null) message['tool_use_result'] = line.toolUseResult;
      if (wanted.localCommand === true) message['localCommand'] = true;
      // Shown in Claude Code's transcript view only: never a prompt (as getSessionMessages marked it).
      if (line.isVisibleInTranscriptOnly === true) message['is_meta'] = true;
      return message;
    }
    case 'assistant':
      return closesQuietTurn(line) ? undefined : withCommon(line, wanted);
    case 'system':
      return systemMessage(line, commonOf(line));
    case 'attachment':
      return queuedPrompt(line, commonOf(line));
    default:
      return undefined;
  }
}

/** The line with the fields every SDK message has, set on it (as `{...line, ...commonOf(line), parent_tool_use_id}`). */
function withCommon(line: Line, wanted: Wanted): Record<string, unknown> {
  const message = line as Record<string, unknown>;
  if (typeof line.uuid === 'string') message['uuid'] = line.uuid;
  if (typeof line.sessionId === 'string') message['session_id'] = line.sessionId;
  if (typeof line.timestamp === 'string') message['timestamp'] = line.timestamp;
  message['parent_tool_use_id'] = wanted.parentToolUseId ?? null;
  return message;
}

function commonOf(line: Line): Record<string, unknown> {
  return {
    ...(typeof line.uuid === 'string' ? { uuid: line.uuid } : {}),
    ...(typeof line.sessionId === 'string' ? { session_id: line.sessionId } : {}),
    ...(typeof line.timestamp === 'string' ? { timestamp: line.timestamp } : {}),
  };
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
 * message, far apart in 1.0.x transcripts): each block is mapped once. Keeps a short digest per block, not the block.
 */
export class ReplyDedup {
  private readonly seen = new Set<string>();

  /** The message with the blocks already mapped left out; undefined when none is left. */
  filter(message: Record<string, unknown>): Record<string, unknown> | undefined {
    const inner = message['message'] as { id?: unknown; content?: unknown } | undefined;
    if (message['type'] !== 'assistant' || typeof inner?.id !== 'string' || !Array.isArray(inner.content)) return message;
    const content: unknown[] = inner.content;
    // The id's length first, so no two pairs of id and block read alike.
    const prefix = `${inner.id.length}:${inner.id}`;
    let fresh: unknown[] | undefined; // made only once a block is left out
    for (let i = 0; i < content.length; i++) {
      // A one-shot digest, not a Hash object per block; its raw bytes as the key (no base64 to make).
      const key = hash('sha1', prefix + blockText(content[i]), 'binary');
      if (this.seen.has(key)) {
        fresh ??= content.slice(0, i);
        continue;
      }
      this.seen.add(key);
      fresh?.push(content[i]);
    }
    if (fresh === undefined) return message;
    return fresh.length === 0 ? undefined : { ...message, message: { ...inner, content: fresh } };
  }
}

/**
 * What a block is told apart by: its JSON, or for a plain text block (`{"type":"text","text":…}`, those keys in that
 * order) its text after a `T`, which no JSON begins with: the text is not serialised once more to be hashed.
 */
function blockText(block: unknown): string {
  return isPlainText(block) ? `T${block.text}` : `${JSON.stringify(block)}`;
}

function isPlainText(block: unknown): block is { type: 'text'; text: string } {
  if (typeof block !== 'object' || block === null) return false;
  const b = block as { type?: unknown; text?: unknown };
  if (b.type !== 'text' || typeof b.text !== 'string') return false;
  let keys = 0;
  for (const key in b) if (++keys > 2 || key !== (keys === 1 ? 'type' : 'text')) return false;
  return true;
}
