// Per-kind metadata of the wire (PROTOCOL.md, "Adding a kind"): what each kind is, an example line, what bounds.ts
// does with an event too large for one line, and how `baton exec` and `baton history` print it. One entry per
// kind, sidecar-made and host-made alike, so a kind added to events.ts without one fails the typecheck. Generated from
// it: the kinds table in PROTOCOL.md, each kind's first line in testdata/protocol (valid.ndjson, host.ndjson), the
// CLI's per-kind terminal lines (app/cli/terminal_gen.go, through wire.schema.json) — scripts/gen-protocol.
import type { z } from 'zod';
import type { Event, hostEventSchemas } from './events.js';

type HostEvent = z.infer<(typeof hostEventSchemas)[number]>;
/** Kinds the host makes itself (turn.queued). */
export type HostKind = HostEvent['kind'];
export type AnyKind = Event['kind'] | HostKind;
type Of<K extends AnyKind> = Extract<Event | HostEvent, { kind: K }>;
type StringField<E> = { [F in keyof E]-?: NonNullable<E[F]> extends string ? F : never }[keyof E];

/**
 * What fitEvent (bounds.ts) does with an event whose line would pass the 8 MiB bound: `short` — never shrunk (the
 * reason says why it cannot grow that large); otherwise, in this order, `drop` fields, replace `stub` fields by
 * `{truncated: true}`, `empty` lists, cut `truncate` strings to 256k characters with a mark, and strip the data
 * of `images` (type and size stay).
 */
export type SizeRule<E> = { short: string } | { truncate: StringField<E>[]; drop?: (keyof E)[]; stub?: (keyof E)[]; empty?: (keyof E)[]; images?: true };

/**
 * One terminal line. `text` is printed with a newline after it; `{path|filter|…}` inserts a field (`path`: a field,
 * or `field.sub` of a nested object; in an `each` line, a field of the list's item). Filters: `line=N` — one line of
 * at most N characters; `tail=N` — the text's first N lines, each indented, on lines of their own; `words` —
 * underscores read as spaces; `say` — the kind's `words` table for that field (`*`: any other value); `quote` —
 * every line after "> "; `lead=X` — X before the value, and nothing at all when the value is empty. `when`: the
 * line is printed only if every ` && `-joined test holds — `field` (non-empty, true, present), `!field`,
 * `field == value`, `field != value`. `each`: one line per item of that list field. `history`: only in
 * `baton history` (a live `baton exec` shows its own prompt already).
 */
export interface TerminalLine {
  text: string;
  when?: string;
  each?: string;
  history?: true;
}

/** How the terminal prints a kind: `lines` (each whose test holds), `quiet` (nothing: why), `byHand` (app/cli/transcript.go: why). */
export type Terminal = { quiet: string } | { byHand: string } | { lines: TerminalLine[]; words?: Record<string, Record<string, string>>; byHand?: string };

export interface KindMeta<K extends AnyKind> {
  /** One sentence for PROTOCOL.md's kinds table. */
  description: string;
  /** A valid event of the kind: the first line of its kind in the fixtures (valid.ndjson; host.ndjson for host kinds). */
  example: Of<K>;
  size: K extends Event['kind'] ? SizeRule<Of<K>> : { short: string };
  terminal: Terminal;
}

const S = '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b';
const notOnTheSidecarLine = { short: 'made by the host, it never crosses the sidecar line' };
const small = (why: string) => ({ short: why });

export const KIND_META = {
  'session.started': {
    description: 'The session opened (new, resumed or forked) in its folder, with the requested model and mode.',
    example: {
      kind: 'session.started',
      session: S,
      time: '2026-11-30T12:00:00.000Z',
      cwd: '/tmp/project',
      model: 'default',
      permissionMode: 'default',
      resumed: false,
    },
    size: small('a folder, a model, a mode'),
    terminal: { lines: [{ text: 'Session {session} in {cwd}' }] },
  },
  'session.closed': {
    description: 'The session ended: closed, its sidecar exited, or an error.',
    example: { kind: 'session.closed', session: S, time: '2026-11-30T12:00:02.500Z', reason: 'closed' },
    size: small('a reason and a short message'),
    terminal: { quiet: 'the command ends with the session' },
  },
  'session.updated': {
    description: "A change to the session's settings or state: mode, title, model, what the CLI is doing, sleep and wake, a warning.",
    example: { kind: 'session.updated', session: S, time: '2026-11-30T12:00:01.600Z', title: 'Hello' },
    size: small('settings, states and a title'),
    terminal: {
      lines: [
        // Retries are worth a line: a turn that waits on an overloaded API should not look hung.
        { when: 'status == retrying && retry', text: '  … retrying (attempt {retry.attempt} of {retry.maxRetries}{retry.httpStatus|lead=, HTTP })' },
        {
          when: 'warning == continuation_delayed',
          text: "  (Claude Code's follow-up to the finished background work did not start; it was given up)",
        },
      ],
    },
  },
  'turn.started': {
    description: "A turn began: the person's prompt (or a continuation Claude Code started itself, with no prompt).",
    example: { kind: 'turn.started', session: S, turn: 't1', time: '2026-11-30T12:00:00.100Z', prompt: 'Hello' },
    size: { truncate: ['prompt'], images: true },
    terminal: { lines: [{ history: true, when: 'prompt && !origin', text: '\n{prompt|quote}' }] },
  },
  'turn.accepted': {
    description: 'The identity barrier passed: the turn is bound to the user message Claude Code persisted for it.',
    example: { kind: 'turn.accepted', session: S, turn: 't1', time: '2026-11-30T12:00:00.100Z', providerMessage: '3f0e2a51-7b6c-4d8e-9f10-a1b2c3d4e5f6' },
    size: small('one message id'),
    terminal: { quiet: 'bookkeeping' },
  },
  'turn.guided': {
    description: 'Guidance steered the running turn: its response was interrupted and the prompt sent; the turn goes on.',
    example: { kind: 'turn.guided', session: S, turn: 't1', time: '2026-11-30T12:00:00.100Z', prompt: 'use the other file' },
    size: { truncate: ['prompt'] },
    terminal: { lines: [{ text: '\n> (steered) {prompt}' }] },
  },
  'turn.completed': {
    description: 'The turn ended with a result: final text, duration, steps, cost, and why it stopped.',
    example: {
      kind: 'turn.completed',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:01.000Z',
      result: 'Hello there',
      durationMs: 900,
      numTurns: 1,
      costUsd: 0.01,
      stopReason: 'end_turn',
    },
    size: { truncate: ['result'] },
    terminal: { lines: [{ when: 'stopReason == tool_denied', text: 'Stopped: a tool was denied; Claude waits for your next prompt.' }] },
  },
  'turn.failed': {
    description: 'The turn failed, with a code (TurnFailureCode) and a message.',
    example: { kind: 'turn.failed', session: S, turn: 't2', time: '2026-11-30T12:00:02.300Z', code: 'api_error', message: 'The API answered 529 (overloaded)' },
    size: small('a code and a message the sidecar or the host wrote'),
    terminal: { lines: [{ text: 'Error: {message}' }], byHand: 'an authentication failure is explained as a sign-in problem (authfailure.go)' },
  },
  'turn.canceled': {
    description: 'The turn was canceled: before the SDK saw it, or while it ran (forced: Claude Code did not answer).',
    example: { kind: 'turn.canceled', session: S, turn: 't3', time: '2026-11-30T12:00:02.400Z', disposition: 'provider_active', forced: true },
    size: small('a disposition'),
    terminal: {
      lines: [
        { when: 'forced', text: 'Force-stopped: Claude Code did not answer.' },
        { when: '!forced', text: 'Canceled.' },
      ],
    },
  },
  'message.delta': {
    description: 'A piece of a message as it streams (ephemeral): text or thinking.',
    example: {
      kind: 'message.delta',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.200Z',
      ephemeral: true,
      messageId: 'msg_01',
      index: 0,
      block: 'text',
      text: 'Hel',
    },
    size: { truncate: ['text'] },
    terminal: { byHand: 'text pieces stream as they come, mid-line; thinking pieces are not shown' },
  },
  'message.completed': {
    description: 'A whole message: the assistant’s text, its thinking, or a user message.',
    example: {
      kind: 'message.completed',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.300Z',
      role: 'assistant',
      messageId: 'msg_01',
      uuid: '7d3c1e2a-0000-4000-8000-000000000002',
      text: 'Hello there',
    },
    size: { truncate: ['text'] },
    terminal: {
      lines: [
        { when: 'role == thinking', text: '  (thinking) {text|line=160}' },
        { when: 'role == user', text: '> {text|line=200}' },
      ],
      byHand: 'assistant text: printed unless it already streamed as deltas, with a [stopped] mark when stopped',
    },
  },
  'tool.started': {
    description: "A tool call began: the catalogue's kind, title and detail of it, and its input.",
    example: {
      kind: 'tool.started',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.400Z',
      toolUseId: 'toolu_01',
      name: 'Write',
      input: { file_path: '/tmp/project/a.txt', content: 'hi\n' },
      toolKind: 'write',
      title: 'Write /tmp/project/a.txt',
      detail: '/tmp/project/a.txt',
      path: '/tmp/project/a.txt',
      fileBefore: { path: '/tmp/project/a.txt', text: null },
    },
    size: { truncate: [], drop: ['fileBefore'], stub: ['input'] },
    terminal: {
      lines: [
        { when: 'title', text: '▶ {title}' },
        // Only a hand-made event lacks the title the wire requires: the name, with no summary after it.
        { when: '!title', text: '▶ {name} ' },
      ],
    },
  },
  'tool.updated': {
    description: 'Progress of a running tool call: elapsed time, a summary.',
    example: {
      kind: 'tool.updated',
      session: S,
      turn: 't2',
      time: '2026-11-30T12:00:02.100Z',
      toolUseId: 'toolu_02',
      elapsedSeconds: 3.5,
      summary: 'Running tests',
    },
    size: small('a number and a one-line summary'),
    terminal: { lines: [{ when: 'summary', text: '  … {summary|line=120}' }] },
  },
  'tool.completed': {
    description: "A tool call's result: its output, structured result, images, and the file as it was before.",
    example: {
      kind: 'tool.completed',
      session: S,
      turn: 't2',
      time: '2026-11-30T12:00:02.200Z',
      toolUseId: 'toolu_02',
      name: 'Edit',
      output: '',
      structured: { filePath: '/tmp/project/b.txt' },
      fileBefore: { path: '/tmp/project/b.txt', text: null },
    },
    size: { truncate: ['output'], drop: ['structured', 'fileBefore'], images: true },
    terminal: { lines: [{ text: '✓ {name}{output|tail=12}' }] },
  },
  'tool.failed': {
    description: 'A tool call failed, or was denied and never ran.',
    example: { kind: 'tool.failed', session: S, turn: 't1', time: '2026-11-30T12:00:00.700Z', toolUseId: 'toolu_01', name: 'Write', error: 'Not that file' },
    size: { truncate: ['error'] },
    terminal: {
      lines: [
        { when: 'denied', text: '✗ {name} denied: {error|line=300}' },
        { when: '!denied', text: '✗ {name}: {error|line=300}' },
      ],
    },
  },
  'tool.interrupted': {
    description: 'A tool call got no result: its turn was stopped, or its process or Baton died.',
    example: { kind: 'tool.interrupted', session: S, turn: 't1', time: '2026-11-30T12:00:00.750Z', toolUseId: 'toolu_02', name: 'Bash', cause: 'cancel' },
    size: small('a name and a cause'),
    terminal: {
      lines: [{ text: '■ {name} {cause|say}' }],
      words: {
        cause: {
          cancel: 'canceled',
          sidecar_exited: 'interrupted (the agent process stopped)',
          host_exited: 'interrupted (Baton stopped)',
          '*': 'interrupted',
        },
      },
    },
  },
  'tool.called': {
    description: "A restricted run's model called one of the host's tools; the host answers with tool_result.",
    example: {
      kind: 'tool.called',
      session: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
      turn: 't4',
      time: '2026-11-30T12:00:03.000Z',
      callId: 'c1',
      toolUseId: 'toolu_03',
      name: 'lookup',
      input: { word: 'baton' },
    },
    // The host needs a tool call's whole input; a model's output (at most 128k tokens) is far below the bound.
    size: small("a model's tool input, far below the bound, which the host needs whole"),
    terminal: { quiet: 'baton run prints the calls itself' },
  },
  'permission.requested': {
    description: 'Claude Code asks to use a tool: the tool, its input, the SDK’s own words and suggestions.',
    example: {
      kind: 'permission.requested',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.500Z',
      requestId: 'req-1',
      toolUseId: 'toolu_01',
      toolName: 'Write',
      input: { file_path: '/tmp/project/a.txt', content: 'hi\n' },
      toolKind: 'write',
      toolTitle: 'Write /tmp/project/a.txt',
      suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    },
    size: { truncate: [], stub: ['input'], empty: ['suggestions'] },
    terminal: { quiet: 'the permission question is asked on the terminal (approve.go)' },
  },
  'permission.settled': {
    description: 'A permission request was answered: the verdict, by whom, and the answers or mode given.',
    example: {
      kind: 'permission.settled',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.600Z',
      requestId: 'req-1',
      verdict: 'deny',
      by: 'user',
      message: 'Not that file',
    },
    size: small('a verdict, a message, a few answers'),
    terminal: {
      lines: [{ text: '  → {verdict|say} ({by|words}){message|lead=: }' }],
      words: { verdict: { allow: 'allowed', allow_always: 'allowed always', deny: 'denied' } },
    },
  },
  'plan.updated': {
    description: 'The whole checklist, as Claude last wrote it.',
    example: {
      kind: 'plan.updated',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:00.800Z',
      items: [{ id: '1', content: 'Write the file', status: 'in_progress', activeForm: 'Writing the file' }],
    },
    size: small('a checklist'),
    terminal: {
      lines: [{ text: 'Plan:' }, { each: 'items', text: '  {status|say} {content}' }],
      words: { status: { completed: '[x]', in_progress: '[~]', '*': '[ ]' } },
    },
  },
  'usage.updated': {
    description: 'Token counts of the turn and the context (ephemeral while the turn streams).',
    example: { kind: 'usage.updated', session: S, turn: 't1', time: '2026-11-30T12:00:00.850Z', ephemeral: true, turnOutputTokens: 42 },
    size: small('numbers'),
    terminal: { quiet: 'not worth a line' },
  },
  'model.resolved': {
    description: 'The effective model the CLI reports.',
    example: { kind: 'model.resolved', session: S, time: '2026-11-30T12:00:00.900Z', model: 'claude-opus-5-5' },
    size: small('a model id'),
    terminal: { lines: [{ text: '  (model: {model})' }] },
  },
  'commands.updated': {
    description: 'The whole command palette.',
    example: {
      kind: 'commands.updated',
      session: S,
      time: '2026-11-30T12:00:01.300Z',
      commands: [
        { name: 'review', description: 'Review a pull request', argumentHint: '<pr>' },
        { name: 'compact', description: 'Clear the conversation but keep a summary' },
      ],
    },
    size: small('a palette of commands'),
    terminal: { quiet: 'not worth a line' },
  },
  'models.updated': {
    description: 'The whole list of models the session can switch to.',
    example: {
      kind: 'models.updated',
      session: S,
      time: '2026-11-30T12:00:01.400Z',
      models: [{ value: 'sonnet', displayName: 'Sonnet', description: 'Balanced', resolvedModel: 'claude-sonnet-5' }],
    },
    size: small('a list of models'),
    terminal: { quiet: 'not worth a line' },
  },
  'context.updated': {
    description: 'How much of the context window is in use.',
    example: { kind: 'context.updated', session: S, time: '2026-11-30T12:00:01.500Z', totalTokens: 12294, maxTokens: 1000000, percentage: 1.2 },
    size: small('numbers'),
    terminal: { quiet: 'not worth a line' },
  },
  'tasks.updated': {
    description: 'Every live background task (the level signal): each payload replaces the last.',
    example: {
      kind: 'tasks.updated',
      session: S,
      turn: 't5',
      time: '2026-11-30T12:00:04.000Z',
      tasks: [
        { taskId: 'b1', runId: 'r1', taskType: 'local_bash', description: 'sleep 2; echo done', toolUseId: 'toolu_05' },
        { taskId: 'w1', taskType: 'monitor', description: 'watch files', ambient: true, parentTaskId: 'a1' },
      ],
    },
    size: small('task descriptions'),
    terminal: { quiet: 'the task edges say it' },
  },
  'task.started': {
    description: 'A task began, in the background or blocking its tool call.',
    example: {
      kind: 'task.started',
      session: S,
      turn: 't5',
      time: '2026-11-30T12:00:04.100Z',
      taskId: 'b1',
      runId: 'r1',
      toolUseId: 'toolu_05',
      taskType: 'local_bash',
      description: 'sleep 2; echo done',
      backgrounded: true,
    },
    size: small('a task description'),
    terminal: {
      lines: [
        { when: 'backgrounded', text: '  ◆ {description|line=120} started in the background' },
        { when: '!backgrounded', text: '  ◆ {description|line=120} started in the foreground' },
      ],
    },
  },
  'task.updated': {
    description: "A task's state changed, or it moved to the background.",
    example: { kind: 'task.updated', session: S, turn: 't5', time: '2026-11-30T12:00:04.200Z', taskId: 'b1', taskState: 'running', backgrounded: true },
    size: small('a state'),
    terminal: { lines: [{ when: 'backgrounded && !taskState', text: '  ◆ moved to the background' }] },
  },
  'task.completed': {
    description: 'A task run ended (completed, failed, stopped), with its summary.',
    example: {
      kind: 'task.completed',
      session: S,
      turn: 't5',
      time: '2026-11-30T12:00:06.000Z',
      taskId: 'b1',
      taskEnd: 'completed',
      summary: 'Background command "sleep 2; echo done" completed (exit code 0)',
      outputFile: '/tmp/tasks/b1.output',
    },
    size: { truncate: ['summary'] },
    terminal: { lines: [{ text: '  ◆ background task {taskEnd}{summary|line=160|lead=: }' }] },
  },
  'goal.updated': {
    description: 'The goal /goal set, as Claude Code reports it; absent: no goal.',
    example: {
      kind: 'goal.updated',
      session: S,
      turn: 't6',
      time: '2026-11-30T12:00:07.000Z',
      goal: { condition: 'the tests pass', met: false, iterations: 1, lastReason: 'two tests still fail' },
    },
    size: small('one condition'),
    terminal: {
      lines: [
        { when: '!goal', text: '  ◎ goal cleared' },
        { when: 'goal.met', text: '  ◎ goal met: {goal.condition|line=160}' },
        { when: 'goal && !goal.met', text: '  ◎ goal: {goal.condition|line=160} (not met yet{goal.lastReason|line=120|lead=: })' },
      ],
    },
  },
  'session.compacted': {
    description: 'The conversation was compacted (a marker row).',
    example: { kind: 'session.compacted', session: S, turn: 't7', time: '2026-11-30T12:00:08.000Z', trigger: 'manual', preTokens: 15210 },
    size: small('a trigger and a count'),
    terminal: { lines: [{ text: '  ── conversation compacted ({trigger})' }] },
  },
  'hook.ran': {
    description: 'A command hook from the settings ran (a collapsed row).',
    example: {
      kind: 'hook.ran',
      session: S,
      turn: 't7',
      time: '2026-11-30T12:00:08.100Z',
      hookEvent: 'UserPromptSubmit',
      name: 'UserPromptSubmit',
      outcome: 'success',
      output: 'checked',
    },
    size: { truncate: ['output'] },
    terminal: { lines: [{ when: 'outcome != success', text: '  (hook {name} {outcome})' }] },
  },
  'compact.summary': {
    description: 'The summary Claude Code wrote when it compacted the conversation (shown under its marker).',
    example: {
      kind: 'compact.summary',
      session: S,
      turn: 't7',
      time: '2026-11-30T12:00:08.010Z',
      text: 'The person asked to rename the module; the work so far: …',
    },
    size: { truncate: ['text'] },
    terminal: { lines: [{ text: '  (summary of the compacted conversation: {text|line=160})' }] },
  },
  'api.error': {
    description: 'An error the API returned that Claude Code recorded as its reply.',
    example: {
      kind: 'api.error',
      session: S,
      turn: 't7',
      time: '2026-11-30T12:00:08.200Z',
      error: 'rate_limit',
      httpStatus: 429,
      message: 'API Error: Rate limit reached',
    },
    size: { truncate: ['message'] },
    terminal: { lines: [{ text: 'API error ({error}): {message|line=300}' }] },
  },
  'command.ran': {
    description: 'A local slash command the person ran, which Claude Code ran without the model.',
    example: { kind: 'command.ran', session: S, time: '2026-11-30T12:00:08.300Z', name: '/mcp', args: 'list' },
    size: small('a command name and its arguments'),
    terminal: { lines: [{ text: '> {name}{args|lead= }' }] },
  },
  'command.output': {
    description: 'What a local command printed.',
    example: { kind: 'command.output', session: S, time: '2026-11-30T12:00:08.310Z', stream: 'stdout', text: 'No MCP servers configured' },
    size: { truncate: ['text'] },
    terminal: { lines: [{ text: '{text|tail=12}' }] },
  },
  'transcript.unreadable': {
    description: "History only: lines of the session's transcript could not be read; said once.",
    example: { kind: 'transcript.unreadable', session: S, time: '2026-11-30T12:00:08.400Z', lines: 2 },
    size: small('a count'),
    terminal: { lines: [{ text: '  ({lines} lines of this transcript could not be read)' }] },
  },
  'protocol.error': {
    description: 'A line or request one side could not read (no session: session is "").',
    example: { kind: 'protocol.error', session: '', time: '2026-11-30T12:00:01.200Z', code: 'line_too_long', message: 'a line longer than 8 MiB was dropped' },
    size: small('a code and a message'),
    terminal: { lines: [{ text: '  (protocol error: {message})' }] },
  },
  unknown: {
    description: 'An SDK message no reader maps, with its JSON as received.',
    example: { kind: 'unknown', session: S, time: '2026-11-30T12:00:01.100Z', raw: { type: 'brand_new_message', payload: { x: 1 } } },
    size: { truncate: [], stub: ['raw'] },
    terminal: { lines: [{ text: '  (unrecognized agent message: {raw|line=120})' }] },
  },
  'turn.queued': {
    description: 'Made by the host: a prompt accepted, before the sidecar sees it; its turn.started follows.',
    example: { kind: 'turn.queued', session: S, turn: 't3', time: '2026-11-30T12:00:02.000Z', prompt: '' },
    size: notOnTheSidecarLine,
    terminal: { quiet: 'its turn.started follows' },
  },
} as const satisfies { [K in AnyKind]: KindMeta<K> };
