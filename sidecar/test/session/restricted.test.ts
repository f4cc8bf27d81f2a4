// Restricted runs: the host-tool broker (one answer per call, cancel and close fail waiting calls), the MCP server
// built from JSON Schemas, and the options that keep every built-in, setting and skill out.
import { describe, expect, it } from 'vitest';
import type { EventBody } from '../../src/protocol/events.js';
import { ProtocolFailure } from '../../src/protocol/errors.js';
import { HOST_TOOL_SERVER, HostToolBroker, hostToolServer } from '../../src/session/hostTools.js';
import { buildRestrictedOptions, DISALLOWED_BUILTINS, NOT_AVAILABLE_MESSAGE, restrictedCanUseTool } from '../../src/session/restrictedOptions.js';

const session = '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b';
const lookup = {
  name: 'lookup',
  description: 'Look a word up',
  inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'], additionalProperties: false },
};

function broker() {
  const events: EventBody<'tool.called'>[] = [];
  let n = 0;
  const b = new HostToolBroker(
    (e) => events.push(e),
    () => `c${++n}`,
  );
  return { events, b };
}

describe('HostToolBroker', () => {
  it("announces a call with a call id and resolves with the host's answer, once", async () => {
    const { events, b } = broker();
    const pending = b.call('lookup', { word: 'baton' }, 'toolu_1', undefined);
    expect(events).toEqual([{ kind: 'tool.called', callId: 'c1', toolUseId: 'toolu_1', name: 'lookup', input: { word: 'baton' } }]);
    expect(b.answer('c1', 'a stick', false)).toBe('settled');
    await expect(pending).resolves.toEqual({ content: [{ type: 'text', text: 'a stick' }] });
    expect(b.answer('c1', 'again', true)).toBe('already_settled');
    expect(b.answer('nope', 'x', false)).toBe('unknown');
  });

  it('marks a failed answer as an error result the model reads', async () => {
    const { b } = broker();
    const pending = b.call('lookup', {}, undefined, undefined);
    b.answer('c1', 'no such word', true);
    await expect(pending).resolves.toEqual({ content: [{ type: 'text', text: 'no such word' }], isError: true });
  });

  it('fails a call when its signal aborts, and every waiting call on settleAll', async () => {
    const { b } = broker();
    const controller = new AbortController();
    const aborted = b.call('lookup', {}, undefined, controller.signal);
    const waiting = b.call('lookup', {}, undefined, undefined);
    controller.abort();
    await expect(aborted).resolves.toMatchObject({ isError: true });
    expect(b.openCount).toBe(1);
    b.settleAll('the run ended');
    await expect(waiting).resolves.toEqual({ content: [{ type: 'text', text: 'the run ended' }], isError: true });
    expect(b.openCount).toBe(0);
  });
});

describe('hostToolServer', () => {
  it('serves the tools in-process under the baton server name', () => {
    const server = hostToolServer([lookup], broker().b);
    expect(server).toMatchObject({ type: 'sdk', name: HOST_TOOL_SERVER });
  });

  it('refuses a schema that is not an object schema, naming the tool', () => {
    expect(() => hostToolServer([{ ...lookup, inputSchema: { type: 'string' } }], broker().b)).toThrow(ProtocolFailure);
    expect(() => hostToolServer([{ ...lookup, inputSchema: [] }], broker().b)).toThrow(/tool "lookup"/);
  });
});

describe('restricted options', () => {
  const run = { tools: [lookup], maxTurns: 3, maxBudgetUsd: 0.25, systemPrompt: 'Be brief.' };
  const start = { session, cwd: '/p', model: 'sonnet', restricted: run };
  it('offers no built-in, disallows every one, and reads no setting, MCP config, skill or slash command', () => {
    const server = hostToolServer(run.tools, broker().b);
    const options = buildRestrictedOptions({ start, server, executable: '/opt/claude', stderr: () => undefined, env: { PATH: '/bin' } });
    expect(options).toMatchObject({
      cwd: '/p',
      sessionId: session,
      tools: [],
      settingSources: [],
      strictMcpConfig: true,
      skills: [],
      plugins: [],
      agents: {},
      verbatimPrompts: true,
      permissionMode: 'default',
      maxTurns: 3,
      maxBudgetUsd: 0.25,
      systemPrompt: 'Be brief.',
      model: 'sonnet',
      persistSession: false,
      env: { PATH: '/bin', ENABLE_TOOL_SEARCH: 'false' },
      pathToClaudeCodeExecutable: '/opt/claude',
    });
    expect(Object.keys(options.mcpServers ?? {})).toEqual([HOST_TOOL_SERVER]);
    for (const name of ['Bash', 'Read', 'Edit', 'Write', 'Grep', 'Glob', 'WebFetch', 'WebSearch', 'Agent', 'Task', 'Skill', 'ToolSearch']) {
      expect(options.disallowedTools).toContain(name);
    }
    expect(options.disallowedTools).toEqual([...DISALLOWED_BUILTINS]);
    expect(options.allowedTools).toBeUndefined();
    expect(options.allowDangerouslySkipPermissions).toBeUndefined();
    expect(options.enableFileCheckpointing).toBeUndefined();
  });

  it('canUseTool allows exactly the host tools by their full names and denies the rest', async () => {
    const canUseTool = restrictedCanUseTool(run);
    const ask = (name: string) => canUseTool(name, { word: 'x' }, { signal: new AbortController().signal, toolUseID: 'toolu_1', requestId: 'r1' });
    await expect(ask('mcp__baton__lookup')).resolves.toMatchObject({ behavior: 'allow', updatedInput: { word: 'x' } });
    for (const name of ['Bash', 'lookup', 'mcp__baton__other', 'mcp__evil__lookup', 'mcp__baton__lookup2']) {
      await expect(ask(name)).resolves.toEqual({ behavior: 'deny', message: NOT_AVAILABLE_MESSAGE, toolUseID: 'toolu_1' });
    }
  });
});
