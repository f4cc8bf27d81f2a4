// Mapper rules the recorded session does not exercise: failed and canceled turns, subagents, replays, the
// TodoWrite checklist, progress messages and mode changes. Messages follow the SDK's shapes (sdk.d.ts).
import { describe, expect, it } from 'vitest';
import { Mapper } from '../../src/mapper/mapper.js';
import { type Event, eventSchema } from '../../src/protocol/events.js';
import { fixedClock } from '../helpers/clock.js';

const SESSION = '5e551011-0000-4000-8000-000000000001';

function mapper(): Mapper {
  return new Mapper(SESSION, fixedClock());
}

function mapAll(m: Mapper, messages: unknown[], turn = 't1'): Event[] {
  const events = messages.flatMap((message) => m.map(message, { turn }));
  for (const event of events) expect(eventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
  return events;
}

function result(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 120,
    duration_api_ms: 100,
    num_turns: 1,
    total_cost_usd: 0.5,
    result: 'done',
    stop_reason: 'end_turn',
    usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 5, cache_creation_input_tokens: 0 },
    modelUsage: { 'claude-opus-5-5': { contextWindow: 200000 } },
    permission_denials: [],
    uuid: 'r-1',
    session_id: SESSION,
    ...fields,
  };
}

function assistant(content: unknown[], fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'assistant',
    uuid: `a-${Math.random()}`,
    session_id: SESSION,
    parent_tool_use_id: null,
    message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-opus-5-5', content, stop_reason: null },
    ...fields,
  };
}

function userToolResult(toolUseId: string, content: string, isError = false, extra: Record<string, unknown> = {}) {
  return {
    type: 'user',
    uuid: `u-${toolUseId}`,
    session_id: SESSION,
    parent_tool_use_id: null,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content, is_error: isError }] },
    ...extra,
  };
}

describe('turn results', () => {
  it('completes a successful turn with its cost since the previous result', () => {
    const m = mapper();
    const first = mapAll(m, [result({ total_cost_usd: 0.5 })]);
    const second = mapAll(m, [result({ total_cost_usd: 0.75, result: 'again' })], 't2');
    expect(first.at(-1)).toMatchObject({ kind: 'turn.completed', costUsd: 0.5, durationMs: 120, numTurns: 1, stopReason: 'end_turn', result: 'done' });
    expect(second.at(-1)).toMatchObject({ kind: 'turn.completed', costUsd: 0.25, turn: 't2' });
  });

  it("emits the final usage before the turn end, not ephemeral, with the model's context window", () => {
    const m = mapper();
    const events = mapAll(m, [
      { type: 'system', subtype: 'init', model: 'claude-opus-5-5', permissionMode: 'default', uuid: 'i', session_id: SESSION },
      result({}),
    ]);
    const usage = events.find((e) => e.kind === 'usage.updated');
    expect(usage).toMatchObject({ inputTokens: 100, outputTokens: 20, cacheReadTokens: 5, contextWindow: 200000 });
    expect(usage?.ephemeral).toBeUndefined();
  });

  it('treats an API error that arrives as success + is_error as a failed turn', () => {
    const events = mapAll(mapper(), [
      result({ is_error: true, result: 'API Error: 400 fake invalid request', api_error_status: 400, terminal_reason: 'api_error' }),
    ]);
    expect(events.at(-1)).toMatchObject({ kind: 'turn.failed', code: 'api_error', message: 'API Error: 400 fake invalid request' });
  });

  it('reports authentication failures as auth, by status or by the assistant error', () => {
    expect(mapAll(mapper(), [result({ is_error: true, result: 'Invalid API key', api_error_status: 401 })]).at(-1)).toMatchObject({
      kind: 'turn.failed',
      code: 'auth',
    });
    const m = mapper();
    const events = mapAll(m, [
      assistant([{ type: 'text', text: 'Invalid API key · Fix external API key' }], {
        error: 'authentication_failed',
        message: { id: 'x', type: 'message', role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text: 'Invalid API key' }] },
      }),
      result({ is_error: true, result: 'Invalid API key' }),
    ]);
    expect(events.some((e) => e.kind === 'model.resolved')).toBe(false);
    expect(events.at(-1)).toMatchObject({ kind: 'turn.failed', code: 'auth' });
  });

  it('maps interrupts to a canceled turn and other execution errors to sdk_error', () => {
    expect(
      mapAll(mapper(), [result({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_streaming', errors: ['x'] })]).at(-1),
    ).toMatchObject({ kind: 'turn.canceled', disposition: 'provider_active' });
    expect(mapAll(mapper(), [result({ subtype: 'error_during_execution', is_error: true, errors: ['No conversation found'] })]).at(-1)).toMatchObject({
      kind: 'turn.failed',
      code: 'sdk_error',
      message: 'No conversation found',
    });
  });

  it('maps max-turns and budget stops', () => {
    expect(mapAll(mapper(), [result({ subtype: 'error_max_turns', is_error: true, errors: ['Reached maximum number of turns (1)'] })]).at(-1)).toMatchObject({
      kind: 'turn.failed',
      code: 'max_turns',
      message: 'Reached maximum number of turns (1)',
    });
    expect(mapAll(mapper(), [result({ subtype: 'error_max_budget_usd', is_error: true, errors: [] })]).at(-1)).toMatchObject({
      kind: 'turn.failed',
      code: 'budget',
    });
  });
});

describe('messages', () => {
  it("keeps parentToolUseId on subagent messages and ignores the subagent's model", () => {
    const m = mapper();
    mapAll(m, [{ type: 'system', subtype: 'init', model: 'claude-opus-5-5', permissionMode: 'default', uuid: 'i', session_id: SESSION }]);
    const events = mapAll(m, [
      assistant(
        [
          { type: 'text', text: 'sub says hi' },
          { type: 'tool_use', id: 'toolu_sub', name: 'Read', input: { file_path: '/x' } },
        ],
        {
          parent_tool_use_id: 'toolu_agent',
          message: {
            id: 'msg_sub',
            type: 'message',
            role: 'assistant',
            model: 'claude-haiku-4-5',
            content: [
              { type: 'text', text: 'sub says hi' },
              { type: 'tool_use', id: 'toolu_sub', name: 'Read', input: { file_path: '/x' } },
            ],
          },
        },
      ),
    ]);
    expect(events.map((e) => e.kind)).toEqual(['message.completed', 'tool.started']);
    expect(events[0]).toMatchObject({ role: 'assistant', parentToolUseId: 'toolu_agent', text: 'sub says hi', messageId: 'msg_sub' });
    expect(events[1]).toMatchObject({ toolUseId: 'toolu_sub', parentToolUseId: 'toolu_agent' });
  });

  it('reports a new main-loop model once, and again only when it changes', () => {
    const m = mapper();
    const init = (model: string) => ({ type: 'system', subtype: 'init', model, permissionMode: 'default', uuid: 'i', session_id: SESSION });
    const events = mapAll(m, [init('claude-opus-5-5'), init('claude-opus-5-5'), assistant([{ type: 'text', text: 'x' }]), init('claude-sonnet-4-5')]);
    expect(events.filter((e) => e.kind === 'model.resolved').map((e) => ('model' in e ? e.model : ''))).toEqual(['claude-opus-5-5', 'claude-sonnet-4-5']);
  });

  it('after a model switch reports the next model even when it is the same one (the console cleared it)', () => {
    const m = mapper();
    const init = { type: 'system', subtype: 'init', model: 'claude-opus-5-5', permissionMode: 'default', uuid: 'i', session_id: SESSION };
    const resolved = (events: Array<{ kind: string }>) => events.filter((e) => e.kind === 'model.resolved').map((e) => ('model' in e ? e.model : ''));
    expect(resolved(mapAll(m, [init]))).toEqual(['claude-opus-5-5']);
    m.switchedModel();
    // "default" and "opus" run the same model: the switch still gets its report, once.
    expect(m.noteModel('claude-opus-5-5')).toEqual([{ kind: 'model.resolved', model: 'claude-opus-5-5' }]);
    expect(m.noteModel('claude-opus-5-5')).toEqual([]);
    expect(resolved(mapAll(m, [init]))).toEqual([]);
    expect(m.noteModel('<synthetic>')).toEqual([]);
  });

  it('drops the SDK replay of a prompt this sidecar sent but maps other user text', () => {
    const m = mapper();
    m.notePromptSent('7d3c1e2a-0000-4000-8000-000000000001');
    const replay = {
      type: 'user',
      isReplay: true,
      uuid: '7d3c1e2a-0000-4000-8000-000000000001',
      session_id: SESSION,
      parent_tool_use_id: null,
      message: { role: 'user', content: 'hello' },
    };
    const other = {
      type: 'user',
      isReplay: true,
      uuid: 'x-2',
      session_id: SESSION,
      parent_tool_use_id: null,
      message: { role: 'user', content: '<local-command-stdout>Set model to sonnet</local-command-stdout>' },
    };
    expect(mapAll(m, [replay])).toEqual([]);
    // A local command's output reads as command output, live as in history.
    expect(mapAll(m, [other])).toMatchObject([{ kind: 'command.output', stream: 'stdout', text: 'Set model to sonnet' }]);
  });

  it('maps a transcript prompt to turn.started and CLI notices to user messages', () => {
    const m = new Mapper(SESSION, fixedClock(), { transcript: true });
    const user = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) => ({
      type: 'user',
      uuid,
      session_id: SESSION,
      parent_tool_use_id: null,
      message: { role: 'user', content },
      ...extra,
    });
    const events = mapAll(m, [
      user('p1', 'Write the notes'),
      user('n1', [{ type: 'text', text: '[Request interrupted by user]' }]),
      user('n2', '<local-command-stdout>Set model to sonnet</local-command-stdout>', { is_meta: true }),
      { ...user('s1', 'Explore the repo'), parent_tool_use_id: 'toolu_agent' },
    ]);
    expect(events).toMatchObject([
      { kind: 'turn.started', prompt: 'Write the notes', uuid: 'p1' },
      { kind: 'message.completed', role: 'user', uuid: 'n1', text: '[Request interrupted by user]' },
      { kind: 'command.output', stream: 'stdout', text: 'Set model to sonnet' },
      { kind: 'message.completed', role: 'user', uuid: 's1', parentToolUseId: 'toolu_agent' },
    ]);
    // Live, a plain-string user message is not taken for a prompt: the session announces its own.
    expect(mapAll(mapper(), [user('p2', 'typed elsewhere')])).toMatchObject([{ kind: 'message.completed', role: 'user' }]);
  });

  it('replaces the checklist whole on TodoWrite', () => {
    const m = mapper();
    const todos = (items: unknown[]) => assistant([{ type: 'tool_use', id: `toolu_${items.length}`, name: 'TodoWrite', input: { todos: items } }]);
    const events = mapAll(m, [
      todos([
        { content: 'A', status: 'pending', activeForm: 'Doing A' },
        { content: 'B', status: 'pending', activeForm: 'Doing B' },
      ]),
      userToolResult('toolu_2', 'Todos have been modified successfully.'),
      todos([{ content: 'C', status: 'in_progress', activeForm: 'Doing C' }]),
      userToolResult('toolu_1', 'Todos have been modified successfully.'),
    ]);
    const plans = events.filter((e) => e.kind === 'plan.updated').map((e) => ('items' in e ? e.items : []));
    expect(plans).toEqual([
      [
        { id: '1', content: 'A', status: 'pending', activeForm: 'Doing A' },
        { id: '2', content: 'B', status: 'pending', activeForm: 'Doing B' },
      ],
      [{ id: '1', content: 'C', status: 'in_progress', activeForm: 'Doing C' }],
    ]);
  });

  it('leaves the checklist alone when the plan tool failed', () => {
    const m = mapper();
    const events = mapAll(m, [
      assistant([{ type: 'tool_use', id: 'toolu_t', name: 'TodoWrite', input: { todos: [{ content: 'A', status: 'pending', activeForm: 'A' }] } }]),
      userToolResult('toolu_t', 'Error: denied', true),
    ]);
    expect(events.map((e) => e.kind)).toEqual(['model.resolved', 'tool.started', 'tool.failed']);
  });

  it('sends fileBefore only on the first change of a path', () => {
    const m = mapper();
    const edit = (id: string) => assistant([{ type: 'tool_use', id, name: 'Edit', input: { file_path: '/p/a.txt', old_string: 'a', new_string: 'b' } }]);
    const done = (id: string, original: string) =>
      userToolResult(id, 'The file /p/a.txt has been updated successfully.', false, {
        tool_use_result: { filePath: '/p/a.txt', originalFile: original, structuredPatch: [] },
      });
    const events = mapAll(m, [edit('toolu_1'), done('toolu_1', 'a'), edit('toolu_2'), done('toolu_2', 'b')]);
    const completed = events.filter((e) => e.kind === 'tool.completed');
    expect(completed[0]).toMatchObject({ fileBefore: { path: '/p/a.txt', text: 'a' }, structured: { originalFile: 'a' } });
    expect(completed[1]).not.toHaveProperty('fileBefore');
  });

  it('flattens tool_result content blocks to text', () => {
    const m = mapper();
    const events = mapAll(m, [
      assistant([{ type: 'tool_use', id: 'toolu_r', name: 'Read', input: {} }]),
      {
        type: 'user',
        uuid: 'u',
        session_id: SESSION,
        parent_tool_use_id: null,
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_r',
              content: [
                { type: 'text', text: 'line 1' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } },
                { type: 'document', source: {} },
              ],
            },
          ],
        },
      },
    ]);
    // An image travels as an image, with its data and decoded size; other blocks are named.
    expect(events.at(-1)).toMatchObject({
      kind: 'tool.completed',
      name: 'Read',
      output: 'line 1\n[document]',
      images: [{ mediaType: 'image/png', data: 'iVBORw0K', bytes: 6 }],
    });
  });

  it('maps tool progress and task progress to tool.updated', () => {
    const events = mapAll(mapper(), [
      { type: 'tool_progress', tool_use_id: 'toolu_b', tool_name: 'Bash', parent_tool_use_id: null, elapsed_time_seconds: 3, uuid: 'p', session_id: SESSION },
      {
        type: 'system',
        subtype: 'task_progress',
        task_id: 'k',
        tool_use_id: 'toolu_agent',
        description: 'Exploring',
        summary: 'Read 3 files',
        usage: { total_tokens: 10, tool_uses: 3, duration_ms: 4500 },
        uuid: 'q',
        session_id: SESSION,
      },
    ]);
    expect(events).toMatchObject([
      { kind: 'tool.updated', toolUseId: 'toolu_b', elapsedSeconds: 3 },
      { kind: 'tool.updated', toolUseId: 'toolu_agent', elapsedSeconds: 4.5, summary: 'Read 3 files' },
    ]);
  });

  it('maps a task starting and ending under a tool call to tool.updated plus task edges; one without a tool call has only the edges', () => {
    const events = mapAll(mapper(), [
      {
        type: 'system',
        subtype: 'task_started',
        task_id: 'b1',
        tool_use_id: 'toolu_bash',
        description: 'echo x && sleep 4',
        task_type: 'local_bash',
        uuid: 'a',
        session_id: SESSION,
      },
      {
        type: 'system',
        subtype: 'task_notification',
        task_id: 'b1',
        tool_use_id: 'toolu_bash',
        status: 'completed',
        output_file: '/tmp/o',
        summary: '',
        uuid: 'b',
        session_id: SESSION,
      },
      { type: 'system', subtype: 'task_notification', task_id: 'b2', status: 'stopped', output_file: '/tmp/p', uuid: 'c', session_id: SESSION },
    ]);
    expect(events).toMatchObject([
      { kind: 'tool.updated', toolUseId: 'toolu_bash', summary: 'echo x && sleep 4' },
      { kind: 'task.started', taskId: 'b1', toolUseId: 'toolu_bash', taskType: 'local_bash', description: 'echo x && sleep 4', backgrounded: false },
      { kind: 'tool.updated', toolUseId: 'toolu_bash', summary: 'task completed' },
      { kind: 'task.completed', taskId: 'b1', taskEnd: 'completed', outputFile: '/tmp/o' },
      { kind: 'task.completed', taskId: 'b2', taskEnd: 'stopped', outputFile: '/tmp/p' },
    ]);
    expect(events).toHaveLength(5);
  });

  it('turns a reported mode change into session.updated, and every status into an ephemeral status update', () => {
    const m = mapper();
    m.notePermissionMode('default');
    const status = (mode: string, now: string | null) => ({
      type: 'system',
      subtype: 'status',
      status: now,
      permissionMode: mode,
      uuid: 's',
      session_id: SESSION,
    });
    const events = mapAll(m, [status('plan', null), status('plan', 'requesting')]);
    expect(events.map((e) => e.kind)).toEqual(['session.updated', 'session.updated', 'session.updated']);
    expect(events[0]).toMatchObject({ permissionMode: 'plan' });
    expect(events[0]?.ephemeral).toBeUndefined();
    expect(events[1]).toMatchObject({ ephemeral: true, status: 'idle' });
    expect(events[2]).toMatchObject({ ephemeral: true, status: 'requesting' });
    expect(events[2]).not.toHaveProperty('permissionMode');
  });

  it('shows an API retry as what the session is doing, not as an unknown row', () => {
    const events = mapAll(mapper(), [
      {
        type: 'system',
        subtype: 'api_retry',
        attempt: 2,
        max_retries: 10,
        retry_delay_ms: 1000,
        error_status: 529,
        error: 'overloaded',
        uuid: 'r',
        session_id: SESSION,
      },
      {
        type: 'system',
        subtype: 'api_retry',
        attempt: 1,
        max_retries: 10,
        retry_delay_ms: 500,
        error_status: null,
        error: 'connection reset',
        uuid: 's',
        session_id: SESSION,
      },
    ]);
    expect(events).toMatchObject([
      { kind: 'session.updated', ephemeral: true, status: 'retrying', retry: { attempt: 2, maxRetries: 10, httpStatus: 529 } },
      { kind: 'session.updated', ephemeral: true, status: 'retrying', retry: { attempt: 1, maxRetries: 10 } },
    ]);
  });

  it("takes the CLI's thinking estimate as a running token count, not an unknown event", () => {
    const m = mapper();
    const events = mapAll(m, [{ type: 'system', subtype: 'thinking_tokens', estimated_tokens: 6, estimated_tokens_delta: 6, uuid: 's', session_id: SESSION }]);
    expect(events).toEqual([expect.objectContaining({ kind: 'usage.updated', ephemeral: true, turnOutputTokens: 6, thinkingTokens: 6 })]);
  });
});

describe('what the live stream and transcripts share', () => {
  it("maps the stub reply of an API error, a local command's output and a compaction summary as history does", () => {
    const events = mapAll(mapper(), [
      assistant([{ type: 'text', text: 'API Error: Request rejected (429) · rate limited' }], {
        error: 'rate_limit',
        message: {
          id: 'e',
          type: 'message',
          role: 'assistant',
          model: '<synthetic>',
          content: [{ type: 'text', text: 'API Error: Request rejected (429) · rate limited' }],
        },
      }),
      {
        type: 'system',
        subtype: 'local_command_output',
        content: '<local-command-stdout>Set model to opus</local-command-stdout>',
        uuid: 'l',
        session_id: SESSION,
      },
      {
        type: 'user',
        uuid: 'cs',
        session_id: SESSION,
        parent_tool_use_id: null,
        isCompactSummary: true,
        message: { role: 'user', content: 'This session is being continued. Summary: kiwi.' },
      },
    ]);
    expect(events).toMatchObject([
      { kind: 'api.error', error: 'rate_limit', httpStatus: 429, message: 'API Error: Request rejected (429) · rate limited' },
      { kind: 'command.output', stream: 'stdout', text: 'Set model to opus' },
      { kind: 'compact.summary', text: 'This session is being continued. Summary: kiwi.' },
    ]);
  });

  it('reads the synthetic user message right after a live compact_boundary as its summary, and no other', () => {
    const synthetic = (uuid: string, content: string) => ({
      type: 'user',
      uuid,
      session_id: SESSION,
      parent_tool_use_id: null,
      isReplay: false,
      isSynthetic: true,
      message: { role: 'user', content },
    });
    const events = mapAll(mapper(), [
      { type: 'system', subtype: 'compact_boundary', compact_metadata: { trigger: 'manual', pre_tokens: 900 }, uuid: 'b', session_id: SESSION },
      { type: 'system', subtype: 'status', status: null, uuid: 's', session_id: SESSION },
      synthetic('cs', 'This session is being continued. Summary: kiwi.'),
      synthetic('x', 'a later synthetic note'),
    ]);
    expect(events.filter((e) => e.kind !== 'unknown' && e.kind !== 'session.updated')).toMatchObject([
      { kind: 'session.compacted', trigger: 'manual', preTokens: 900 },
      { kind: 'compact.summary', text: 'This session is being continued. Summary: kiwi.' },
      { kind: 'message.completed', role: 'user', text: 'a later synthetic note' },
    ]);
  });
});

describe('stopped calls and replies', () => {
  it("reads Claude Code's own interrupted tool results as interruptions, not failures", () => {
    const m = mapper();
    const events = mapAll(m, [
      assistant([{ type: 'tool_use', id: 'tu_1', name: 'Bash', input: { command: 'sleep 9' } }]),
      userToolResult(
        'tu_1',
        "The user doesn't want to proceed… Correction to the text above: this call was stopped while running, not refused before it ran.",
        true,
      ),
      assistant([{ type: 'tool_use', id: 'tu_2', name: 'Bash', input: { command: 'false' } }]),
      userToolResult('tu_2', 'Exit code 1', true),
    ]);
    expect(events.filter((e) => e.kind !== 'tool.started' && e.kind !== 'model.resolved').map((e) => [e.kind, 'cause' in e ? e.cause : ''])).toEqual([
      ['tool.interrupted', 'cancel'],
      ['tool.failed', ''],
    ]);
  });

  it('marks an assistant message Claude Code cut off (aborted) as stopped', () => {
    const events = mapAll(mapper(), [assistant([{ type: 'text', text: 'Half of' }], { aborted: true })]);
    expect(events.find((e) => e.kind === 'message.completed')).toMatchObject({ text: 'Half of', stopped: true });
  });
});

describe('stream events', () => {
  const stream = (event: unknown, parent: string | null = null) => ({
    type: 'stream_event',
    event,
    parent_tool_use_id: parent,
    uuid: 's',
    session_id: SESSION,
  });
  const thinkingTokens = (estimated: number) => ({
    type: 'system',
    subtype: 'thinking_tokens',
    estimated_tokens: estimated,
    estimated_tokens_delta: estimated,
    uuid: 's',
    session_id: SESSION,
  });

  it("counts each thinking block as the CLI estimates it, the API's unshown thinking included, never from its text", () => {
    const m = mapper();
    const events = mapAll(m, [
      stream({ type: 'message_start', message: { id: 'msg_7', usage: { input_tokens: 50, output_tokens: 1 } } }),
      stream({ type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'x' } }),
      thinkingTokens(30),
      // Thinking the API counts but does not show: no text, so no delta row; no unknown event either.
      stream({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', estimated_tokens: 30 } }),
      thinkingTokens(45),
      stream({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', estimated_tokens: 15 } }),
      stream({ type: 'content_block_stop', index: 0 }),
      // A second block: its running total starts again at zero; the first block's count stays.
      stream({ type: 'content_block_start', index: 1, content_block: { type: 'thinking', thinking: '' } }),
      thinkingTokens(2),
      stream({ type: 'content_block_delta', index: 1, delta: { type: 'thinking_delta', thinking: 'a very long text of thinking' } }),
    ]);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'usage.updated', turnOutputTokens: 30, thinkingTokens: 30 }),
      expect.objectContaining({ kind: 'usage.updated', turnOutputTokens: 45, thinkingTokens: 45 }),
      expect.objectContaining({ kind: 'usage.updated', turnOutputTokens: 47, thinkingTokens: 47 }),
      expect.objectContaining({ kind: 'message.delta', block: 'thinking', text: 'a very long text of thinking' }),
    ]);
  });

  it('emits ephemeral deltas and a running token count that the real count replaces', () => {
    const m = mapper();
    const events = mapAll(m, [
      stream({ type: 'message_start', message: { id: 'msg_9', usage: { input_tokens: 50, output_tokens: 1 } } }),
      stream({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }),
      // The CLI's estimate (here the API's estimated_tokens, 5) comes just before the delta it counts.
      thinkingTokens(5),
      stream({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: '12345678', estimated_tokens: 5 } }),
      stream({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } }),
      stream({ type: 'content_block_stop', index: 0 }),
      stream({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } }),
      stream({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } }),
      stream({ type: 'message_stop' }),
    ]);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'usage.updated', ephemeral: true, turnOutputTokens: 5, thinkingTokens: 5 }),
      expect.objectContaining({ kind: 'message.delta', ephemeral: true, messageId: 'msg_9', index: 0, block: 'thinking', text: '12345678' }),
      expect.objectContaining({ kind: 'message.delta', ephemeral: true, messageId: 'msg_9', index: 1, block: 'text', text: 'Hi' }),
      expect.objectContaining({ kind: 'usage.updated', ephemeral: true, turnOutputTokens: 7 }),
    ]);
    expect(events[3]).not.toHaveProperty('thinkingTokens');
    const final = mapAll(m, [result({})]).find((e) => e.kind === 'usage.updated');
    expect(final).toMatchObject({ turnOutputTokens: 7, contextTokens: 57 });
    // The next turn starts counting from zero.
    const next = mapAll(m, [stream({ type: 'message_delta', usage: { output_tokens: 3 } })], 't2');
    expect(next).toMatchObject([{ kind: 'usage.updated', turnOutputTokens: 3 }]);
  });
});

describe('denies (Claude Code marks each refused call)', () => {
  const write = assistant([{ type: 'tool_use', id: 'w1', name: 'Write', input: { file_path: '/p/a.txt', content: 'x' } }]);
  const mark = {
    type: 'user',
    uuid: 'u-mark',
    session_id: SESSION,
    parent_tool_use_id: null,
    message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] },
  };
  const aborted = result({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_tools', stop_reason: 'tool_use', result: undefined });

  it('a plain deny (user-rejected) reads denied and ends the turn as completed, with no cancel mark', () => {
    const refused = userToolResult('w1', 'STOP', true, { tool_result_meta: [{ id: 'w1', non_execution_kind: 'user-rejected' }] });
    const events = mapAll(mapper(), [write, refused, mark, aborted]);
    expect(events.find((e) => e.kind === 'tool.failed')).toMatchObject({ toolUseId: 'w1', denied: true });
    expect(events.filter((e) => e.kind === 'message.completed' && e.role === 'user')).toEqual([]);
    expect(events.find((e) => e.kind === 'turn.completed')).toMatchObject({ stopReason: 'tool_denied', numTurns: 1 });
    expect(events.map((e) => e.kind)).not.toContain('turn.canceled');
  });

  it('a deny with a message reads denied; a stopped call and a plain failure do not; an interrupt stays a cancel', () => {
    const told = userToolResult('w1', 'Use b.txt', true, { tool_result_meta: [{ id: 'w1', non_execution_kind: 'permission-rule' }] });
    const cut = userToolResult('w2', 'Interrupted', true, { tool_result_meta: [{ id: 'w2', non_execution_kind: 'interrupted' }] });
    const broke = userToolResult('w3', 'Error: EACCES', true);
    const events = mapAll(mapper(), [write, told, cut, broke, mark, aborted]);
    expect(events.filter((e) => e.kind === 'tool.failed').map((e) => [e.toolUseId, e.kind === 'tool.failed' && e.denied])).toEqual([
      ['w1', true],
      ['w2', undefined],
      ['w3', undefined],
    ]);
    // Without a plain deny's stop, the interrupt is a cancel and its mark stays.
    expect(events.find((e) => e.kind === 'turn.canceled')).toBeDefined();
    expect(events.filter((e) => e.kind === 'message.completed' && e.role === 'user')).toHaveLength(1);
  });

  it("reads the transcript's toolDenialKind in history", () => {
    const m = new Mapper(SESSION, fixedClock(), { transcript: true });
    const refused = userToolResult('w1', 'STOP', true, { toolDenialKind: 'user-rejected', timestamp: '2026-01-01T00:00:00.000Z' });
    const events = mapAll(m, [write, refused, { ...mark, timestamp: '2026-01-01T00:00:00.000Z' }]);
    expect(events.find((e) => e.kind === 'tool.failed')).toMatchObject({ denied: true });
    expect(events.filter((e) => e.kind === 'message.completed' && e.role === 'user')).toEqual([]);
  });
});
