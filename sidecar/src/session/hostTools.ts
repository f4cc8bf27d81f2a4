// The host's tools in a restricted run: one in-process SDK MCP server whose handlers cross the wire. Each call
// becomes a tool.called event with a fresh callId and waits for the host's tool_result request; a call settles
// exactly once, by that answer or by the run ending (cancel, close, failure), never by hanging.
import { randomUUID } from 'node:crypto';
import { type AnyZodRawShape, createSdkMcpServer, type McpSdkServerConfigWithInstance, type SdkMcpToolDefinition, tool } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { ProtocolFailure } from '../protocol/errors.js';
import type { EventBody } from '../protocol/events.js';
import type { HostTool } from '../protocol/schemas.js';
import { toJsonValue } from '../util/json.js';

/** The MCP server's name: the model sees each host tool as mcp__baton__<name>. */
export const HOST_TOOL_SERVER = 'baton';
export const HOST_TOOL_PREFIX = `mcp__${HOST_TOOL_SERVER}__`;

type CallToolResult = Awaited<ReturnType<SdkMcpToolDefinition['handler']>>;

interface PendingCall {
  resolve: (result: CallToolResult) => void;
  detach: () => void;
}

export type AnswerOutcome = 'settled' | 'already_settled' | 'unknown';

export class HostToolBroker {
  private pending = new Map<string, PendingCall>();
  private answered = new Set<string>();

  /** @param emit receives tool.called bodies (the session stamps them with the running turn). */
  constructor(
    private readonly emit: (body: EventBody<'tool.called'>) => void,
    private readonly newId: () => string = randomUUID,
  ) {}

  /** Asks the host to run one tool; resolves with its answer, or with an error result when the call is aborted. */
  call(name: string, input: unknown, toolUseId: string | undefined, signal: AbortSignal | undefined): Promise<CallToolResult> {
    const callId = this.newId();
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.settle(callId, 'The tool call was canceled before the host answered.', true);
      };
      this.pending.set(callId, { resolve, detach: () => signal?.removeEventListener('abort', onAbort) });
      this.emit({
        kind: 'tool.called',
        callId,
        ...(toolUseId !== undefined ? { toolUseId } : {}),
        name,
        input: toJsonValue(input),
      });
      if (signal?.aborted === true) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The host's answer to one call. */
  answer(callId: string, output: string, isError: boolean): AnswerOutcome {
    if (!this.pending.has(callId)) return this.answered.has(callId) ? 'already_settled' : 'unknown';
    this.settle(callId, output, isError);
    return 'settled';
  }

  /** Fails every call still waiting (the run was canceled, closed or failed). */
  settleAll(message: string): void {
    for (const callId of [...this.pending.keys()]) this.settle(callId, message, true);
  }

  get openCount(): number {
    return this.pending.size;
  }

  private settle(callId: string, output: string, isError: boolean): void {
    const entry = this.pending.get(callId);
    if (entry === undefined) return;
    this.pending.delete(callId);
    this.answered.add(callId);
    entry.detach();
    entry.resolve({ content: [{ type: 'text', text: output }], ...(isError ? { isError: true } : {}) });
  }
}

// What the SDK hands a tool handler besides its arguments: the call's abort signal, and the tool_use id the CLI
// puts in the request's _meta (read defensively: neither is in the SDK's types).
const handlerExtraSchema = z.looseObject({
  signal: z.instanceof(AbortSignal).optional(),
  _meta: z.looseObject({ 'claudecode/toolUseId': z.string().min(1).optional() }).optional(),
});

/**
 * The host's tools as one in-process MCP server. Each input schema is turned into zod (z.fromJSONSchema), which the
 * server renders back to JSON Schema for the model and validates arguments with: a call that fails its schema is
 * answered with the validation error (the model sees it and may retry) and never reaches the host.
 */
export function hostToolServer(tools: readonly HostTool[], broker: HostToolBroker): McpSdkServerConfigWithInstance {
  const definitions = tools.map((spec) => {
    const schema = inputSchemaOf(spec);
    // tool() is typed for a raw shape, but the server takes a whole zod schema as well (it keeps the object's own
    // settings, such as additionalProperties: false, which a shape would lose).
    return tool(spec.name, spec.description, schema as unknown as AnyZodRawShape, (args, extra) => {
      const parsed = handlerExtraSchema.safeParse(extra);
      const meta = parsed.success ? parsed.data : {};
      return broker.call(spec.name, args, meta._meta?.['claudecode/toolUseId'], meta.signal);
    });
  });
  // alwaysLoad: the tools go into every request's tool list instead of being deferred behind ToolSearch (a
  // built-in this run does not have).
  return createSdkMcpServer({ name: HOST_TOOL_SERVER, version: '1.0.0', tools: definitions, alwaysLoad: true });
}

function inputSchemaOf(spec: HostTool): z.ZodObject {
  const raw = spec.inputSchema;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || raw['type'] !== 'object') {
    throw new ProtocolFailure('bad_request', `tool "${spec.name}": its input schema must be a JSON Schema with "type": "object"`);
  }
  let schema: z.ZodType;
  try {
    schema = z.fromJSONSchema(raw as z.core.JSONSchema.JSONSchema);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProtocolFailure('bad_request', `tool "${spec.name}": its input schema cannot be used: ${reason}`);
  }
  if (!(schema instanceof z.ZodObject)) {
    throw new ProtocolFailure('bad_request', `tool "${spec.name}": its input schema must describe an object`);
  }
  return schema;
}
