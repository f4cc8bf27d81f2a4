// The wire's one source of truth, rendered as JSON Schema: app/protocol/schema/wire.schema.json is generated from
// the zod schemas here (scripts/gen-protocol), and the Go host's and the console's types are generated from that
// file. Every named shape below becomes a `$defs` entry the other generators turn into a named type.
import { z } from 'zod';
import {
  backgroundTask,
  limitWindow,
  commandStreamSchema,
  imageSchema,
  limitStatusSchema,
  commandEntry,
  canceledDispositionSchema,
  compactTriggerSchema,
  goalState,
  hookOutcomeSchema,
  sessionWarningSchema,
  taskEndSchema,
  taskStateSchema,
  turnOriginSchema,
  errorCodeSchema,
  eventSchema,
  fileBefore,
  hostEventSchemas,
  json,
  messageBlockSchema,
  messageRoleSchema,
  modelEntrySchema,
  permissionModeSchema,
  planItem,
  planStatusSchema,
  questionAnswerSchema,
  retryInfoSchema,
  sessionActivitySchema,
  sessionStateSchema,
  sessionCloseReasonSchema,
  settledBySchema,
  toolInterruptCauseSchema,
  toolKindSchema,
  turnFailureCodeSchema,
  verdictSchema,
} from './events.js';
import {
  cancelDispositionSchema,
  cancelPhaseSchema,
  hostToolSchema,
  mcpServerSchema,
  mcpTransportSchema,
  nameValueSchema,
  okPayloads,
  promptImageSchema,
  receiptEndSchema,
  transcriptItemSchema,
  transcriptResumeSchema,
  transcriptResumeAtSchema,
  permissionAuthorSchema,
  type RequestType,
  requestSchema,
  restrictedRunSchema,
  sessionInfoSchema,
} from './schemas.js';
import { type AnyKind, KIND_META, type Terminal } from './kindMeta.js';
import { PROTOCOL_VERSION } from './version.js';

/** Named shapes shared by events and requests (the generated Go and TypeScript types take these names). */
const NAMED: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['Json', json],
  ['PermissionMode', permissionModeSchema],
  ['PlanStatus', planStatusSchema],
  ['TurnFailureCode', turnFailureCodeSchema],
  ['Verdict', verdictSchema],
  ['SettledBy', settledBySchema],
  ['ToolInterruptCause', toolInterruptCauseSchema],
  ['ToolKind', toolKindSchema],
  ['PermissionAuthor', permissionAuthorSchema],
  ['SessionCloseReason', sessionCloseReasonSchema],
  ['SessionActivity', sessionActivitySchema],
  ['SessionState', sessionStateSchema],
  ['CanceledDisposition', canceledDispositionSchema],
  ['CancelDisposition', cancelDispositionSchema],
  ['CancelPhase', cancelPhaseSchema],
  ['MessageBlock', messageBlockSchema],
  ['MessageRole', messageRoleSchema],
  ['ErrorCode', errorCodeSchema],
  ['RetryInfo', retryInfoSchema],
  ['FileBefore', fileBefore],
  ['QuestionAnswer', questionAnswerSchema],
  ['PlanItem', planItem],
  ['CommandEntry', commandEntry],
  ['ModelEntry', modelEntrySchema],
  ['SessionInfo', sessionInfoSchema],
  ['ReceiptEnd', receiptEndSchema],
  ['HostTool', hostToolSchema],
  ['RestrictedRun', restrictedRunSchema],
  ['NameValue', nameValueSchema],
  ['McpTransport', mcpTransportSchema],
  ['McpServer', mcpServerSchema],
  ['SessionWarning', sessionWarningSchema],
  ['TurnOrigin', turnOriginSchema],
  ['LimitStatus', limitStatusSchema],
  ['LimitWindow', limitWindow],
  ['BackgroundTask', backgroundTask],
  ['TaskState', taskStateSchema],
  ['TaskEnd', taskEndSchema],
  ['GoalState', goalState],
  ['CompactTrigger', compactTriggerSchema],
  ['HookOutcome', hookOutcomeSchema],
  ['Image', imageSchema],
  ['PromptImage', promptImageSchema],
  ['CommandStream', commandStreamSchema],
  ['TranscriptItem', transcriptItemSchema],
  ['TranscriptResume', transcriptResumeSchema],
  ['TranscriptResumeAt', transcriptResumeAtSchema],
  ['Event', eventSchema],
];

/** "session.started" → "SessionStarted"; "set_model" → "SetModel". */
export function pascal(name: string): string {
  return name
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

type Origin = 'sidecar' | 'host';
interface EventEntry {
  kind: string;
  origin: Origin;
  $ref: string;
  /** How the terminal prints the kind (kindMeta.ts), for the Go generator's app/cli/terminal_gen.go. */
  terminal: Terminal;
}
interface RequestEntry {
  type: RequestType;
  payload: { $ref: string };
  reply: { $ref: string };
}

const ref = (id: string) => `#/$defs/${id}`;

/** JSON Schema noise the generators do not read (zod's regexes for formats, JavaScript's safe-integer bounds). */
export function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  const obj = value as Record<string, unknown>;
  for (const [key, field] of Object.entries(obj)) {
    if (key === '$schema' || key === '$id') continue;
    if (key === 'pattern' && typeof obj['format'] === 'string') continue;
    if ((key === 'maximum' || key === 'minimum') && Math.abs(field as number) === Number.MAX_SAFE_INTEGER) continue;
    out[key] = tidy(field);
  }
  return out;
}

/** Every named shape of the wire with its `$defs` id, and the event and request lists that point at them. */
export function wireEntries(): { named: Array<readonly [string, z.ZodType]>; events: EventEntry[]; requests: RequestEntry[] } {
  const named: Array<readonly [string, z.ZodType]> = [...NAMED];
  const events: EventEntry[] = [];
  const add = (schema: z.ZodObject, origin: Origin) => {
    const kind = (schema.shape['kind'] as z.ZodLiteral<string>).value;
    const id = `${pascal(kind)}Event`;
    named.push([id, schema]);
    events.push({ kind, origin, $ref: ref(id), terminal: KIND_META[kind as AnyKind].terminal });
  };
  for (const option of eventSchema.options) add(option, 'sidecar');
  for (const option of hostEventSchemas) add(option, 'host');
  const requests: RequestEntry[] = [];
  for (const option of requestSchema.options) {
    const type = option.shape.type.value;
    const name = pascal(type);
    named.push([`${name}Request`, option.shape.payload], [`${name}Reply`, okPayloads[type]]);
    requests.push({ type, payload: { $ref: ref(`${name}Request`) }, reply: { $ref: ref(`${name}Reply`) } });
  }
  return { named, events, requests };
}

/** The whole wire as one JSON Schema document (deterministic: same zod in, same bytes out). */
export function wireSchemaDocument(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  const { named, events, requests } = wireEntries();
  for (const [id, schema] of named) registry.add(schema, { id });
  const rendered = z.toJSONSchema(registry, { uri: ref, unrepresentable: 'throw' }).schemas;
  const defs: Record<string, unknown> = {};
  for (const id of Object.keys(rendered).sort()) defs[id] = tidy(rendered[id]);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $comment: 'GENERATED by scripts/gen-protocol from sidecar/src/protocol (zod); do not edit. See app/protocol/PROTOCOL.md, "Adding a kind".',
    'x-version': PROTOCOL_VERSION,
    'x-events': events,
    'x-requests': requests,
    $defs: defs,
  };
}

/** The document as the checked-in file holds it. */
export function wireSchemaText(): string {
  return `${JSON.stringify(wireSchemaDocument(), null, 2)}\n`;
}
