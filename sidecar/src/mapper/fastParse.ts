// Shortcuts for the zod checks the mapper runs on every message and block: a hand check of the same fields that
// passes only where the schema passes, so the message itself stands for zod's copy (the schemas transform
// nothing, and the mapper reads only what they check). Anything the hand check does not pass is zod's to judge,
// so a result never differs from the schema's. Zod's loose objects copy every field of every message: in a 120 MB
// transcript that was a quarter of the sidecar's time (issue 26's bench, `scripts/bench history`).
import {
  type ApiUsage,
  apiUsageSchema,
  type AssistantBlock,
  type AssistantMessage,
  assistantBlockSchema,
  type FileChangeResult,
  fileChangeResultSchema,
  assistantMessageSchema,
  type StreamEventMessage,
  streamEventMessageSchema,
  timestampedSchema,
  type UserBlock,
  type UserMessage,
  userBlockSchema,
  userMessageSchema,
} from './sdkSchemas.js';

/** What the mapper reads of a safeParse result. */
export type Checked<T> = { success: true; data: T } | { success: false };

/** What a zod object accepts: an object, not null, not an array. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const optString = (v: unknown) => v === undefined || typeof v === 'string';
const nullishString = (v: unknown) => v === undefined || v === null || typeof v === 'string';
const optBoolean = (v: unknown) => v === undefined || typeof v === 'boolean';
const nullishBoolean = (v: unknown) => v === undefined || v === null || typeof v === 'boolean';

const USER_FLAGS = ['isReplay', 'is_meta', 'isCompletedLocalCommand', 'isCompactSummary', 'isSynthetic', 'localCommand'] as const;

function userPasses(m: unknown): boolean {
  if (!isRecord(m) || m['type'] !== 'user' || !optString(m['uuid']) || !nullishString(m['parent_tool_use_id'])) return false;
  for (const flag of USER_FLAGS) if (!optBoolean(m[flag])) return false;
  const inner = m['message'];
  if (!isRecord(inner) || inner['role'] !== 'user') return false;
  const content = inner['content'];
  return typeof content === 'string' || Array.isArray(content);
}

function assistantPasses(m: unknown): boolean {
  if (!isRecord(m) || m['type'] !== 'assistant' || !optString(m['uuid']) || !nullishString(m['parent_tool_use_id'])) return false;
  if (!optString(m['error']) || !optBoolean(m['aborted']) || !optBoolean(m['isApiErrorMessage'])) return false;
  // A status is an integer: zod's to check.
  if (m['apiErrorStatus'] !== undefined && m['apiErrorStatus'] !== null) return false;
  const inner = m['message'];
  return isRecord(inner) && typeof inner['id'] === 'string' && typeof inner['model'] === 'string' && Array.isArray(inner['content']);
}

/** Text and thinking blocks. */
function textPasses(b: Record<string, unknown>): boolean {
  return (b['type'] === 'text' && typeof b['text'] === 'string') || (b['type'] === 'thinking' && typeof b['thinking'] === 'string');
}

function toolResultPasses(b: Record<string, unknown>): boolean {
  if (b['type'] !== 'tool_result') return false;
  const id = b['tool_use_id'];
  if (typeof id !== 'string' || id.length < 1 || !nullishBoolean(b['is_error'])) return false;
  const content = b['content'];
  return content === undefined || typeof content === 'string' || (Array.isArray(content) && content.every((p) => isRecord(p) && typeof p['type'] === 'string'));
}

/** A text piece, the stream event a reply sends thousands of: content_block_delta with a text_delta. */
function textDeltaPasses(m: unknown): boolean {
  if (!isRecord(m) || m['type'] !== 'stream_event' || !nullishString(m['parent_tool_use_id'])) return false;
  const event = m['event'];
  if (!isRecord(event) || event['type'] !== 'content_block_delta') return false;
  const index = event['index'];
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) return false;
  const delta = event['delta'];
  return isRecord(delta) && delta['type'] === 'text_delta' && typeof delta['text'] === 'string';
}

/**
 * The stream events parse in strip mode, so zod's data is a copy without the unnamed keys; the message itself
 * stands for it because the stream tracker reads only the fields checked here.
 */
export function checkStreamEvent(message: unknown): Checked<StreamEventMessage> {
  return textDeltaPasses(message) ? { success: true, data: message as StreamEventMessage } : streamEventMessageSchema.safeParse(message);
}

export function checkUserMessage(message: unknown): Checked<UserMessage> {
  return userPasses(message) ? { success: true, data: message as UserMessage } : userMessageSchema.safeParse(message);
}

export function checkAssistantMessage(message: unknown): Checked<AssistantMessage> {
  return assistantPasses(message) ? { success: true, data: message as AssistantMessage } : assistantMessageSchema.safeParse(message);
}

export function checkAssistantBlock(block: unknown): Checked<AssistantBlock> {
  return isRecord(block) && textPasses(block) ? { success: true, data: block as AssistantBlock } : assistantBlockSchema.safeParse(block);
}

/**
 * checkAssistantBlock for a message that is fresh JSON no one else holds (MapperOptions.ownJson): a tool call
 * whose input is plain JSON stands for zod's deep copy of it (z.json() was ~260 ms of the 120 MB bench's job).
 */
export function checkOwnAssistantBlock(block: unknown): Checked<AssistantBlock> {
  return isRecord(block) && (textPasses(block) || toolUsePasses(block))
    ? { success: true, data: block as AssistantBlock }
    : assistantBlockSchema.safeParse(block);
}

function toolUsePasses(b: Record<string, unknown>): boolean {
  const id = b['id'];
  return b['type'] === 'tool_use' && typeof id === 'string' && id.length > 0 && typeof b['name'] === 'string' && plainJson(b['input'], 0);
}

/** Nesting deeper than this is zod's to judge, with its own recursion. */
const JSON_DEPTH = 64;

/**
 * A value z.json() passes and copies to an equal one: a string, a finite number, a boolean, null, or an array or
 * object of such values. Zod copies a record by its own enumerable keys, leaving out `__proto__` and failing a
 * symbol; it takes any prototype whose constructor looks like Object's. So only objects of Object's own prototype
 * pass here, with plain enumerable data keys and neither `__proto__` nor `constructor` among them, and arrays of
 * Array's own prototype without holes (an array's named properties, which JSON cannot hold, are not looked at):
 * anything else goes to zod.
 */
function plainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      return value === null || (depth < JSON_DEPTH && (Array.isArray(value) ? plainArray(value, depth) : plainObject(value, depth)));
    default:
      return false;
  }
}

function plainArray(value: unknown[], depth: number): boolean {
  if (Object.getPrototypeOf(value) !== Array.prototype) return false;
  // A hole reads as undefined, which fails as zod fails it.
  for (let i = 0; i < value.length; i++) if (!plainJson(value[i], depth + 1)) return false;
  return true;
}

function plainObject(value: object, depth: number): boolean {
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string' || key === '__proto__' || key === 'constructor') return false;
    const field = Object.getOwnPropertyDescriptor(value, key);
    if (field === undefined || field.enumerable !== true || !('value' in field) || !plainJson(field.value, depth + 1)) return false;
  }
  return true;
}

export function checkUserBlock(block: unknown): Checked<UserBlock> {
  if (isRecord(block) && (block['type'] === 'text' ? typeof block['text'] === 'string' : toolResultPasses(block)))
    return { success: true, data: block as UserBlock };
  return userBlockSchema.safeParse(block);
}

/**
 * A file tool's result as fileChangeResultSchema reads it (its path, the file before), without the loose object's
 * copy of every field (a Write or Edit result holds the patch too: ~40 ms of the 120 MB bench's job).
 */
export function readFileChange(structured: unknown): FileChangeResult | undefined {
  if (isRecord(structured)) {
    const { filePath, originalFile } = structured;
    if (typeof filePath === 'string' && filePath.length > 0 && (originalFile === null || typeof originalFile === 'string'))
      return structured as FileChangeResult;
  }
  const parsed = fileChangeResultSchema.safeParse(structured);
  return parsed.success ? parsed.data : undefined;
}

const USAGE_COUNTS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const;

/** A token count as the schema's `tokens.nullish()`: none, or a non-negative safe integer. */
const tokenCount = (v: unknown) => v === undefined || v === null || (Number.isSafeInteger(v) && (v as number) >= 0);

/**
 * A message's `usage`, when it has one of the API's shape. Its loose object copied every field of the usage (the
 * nested ones too) on every reply of a transcript, where the mapper reads only the four counts checked here.
 */
export function readApiUsage(raw: unknown): ApiUsage | undefined {
  if (isRecord(raw) && USAGE_COUNTS.every((key) => tokenCount(raw[key]))) return raw as ApiUsage;
  const parsed = apiUsageSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

const timestamp = timestampedSchema.shape.timestamp;
/** The format's whole check is its pattern (zod's $ZodCheckStringFormat). */
const timestampPattern: RegExp | undefined = timestamp._zod.def.pattern;

/** A valid transcript timestamp (ISO date-time with an offset), or undefined. */
export function checkTimestamp(value: unknown): string | undefined {
  if (typeof value === 'string' && timestampPattern?.test(value) === true) return value;
  const parsed = timestamp.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
