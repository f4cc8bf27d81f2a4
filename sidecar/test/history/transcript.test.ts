// History read from synthetic transcripts, one case per thing a transcript holds that history used to drop or
// misread (issue 26). Each goes through readHistory, the `history` request's reader, with CLAUDE_CONFIG_DIR set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistory, readMessageParent } from '../../src/history/history.js';
import { type Event, type EventOf, eventSchema } from '../../src/protocol/events.js';
import type { ReceiptEnd } from '../../src/protocol/schemas.js';
import { assistantLine, type ConfigDir, configDir, CWD, systemLine, text, toolResultLine, toolUse, userLine } from '../helpers/transcriptFiles.js';

let dir: ConfigDir;
let saved: string | undefined;
beforeAll(() => {
  dir = configDir();
  saved = process.env['CLAUDE_CONFIG_DIR'];
  process.env['CLAUDE_CONFIG_DIR'] = dir.root;
});
afterAll(() => {
  if (saved === undefined) delete process.env['CLAUDE_CONFIG_DIR'];
  else process.env['CLAUDE_CONFIG_DIR'] = saved;
  dir.remove();
});

const clock = () => new Date('2026-12-02T00:00:00.000Z');
let n = 0;
const sessionId = () => `5e551011-0000-4000-8000-${String(++n).padStart(12, '0')}`;

async function history(session: string, receipts?: ReceiptEnd[]): Promise<Event[]> {
  const page = await readHistory({ session, cwd: CWD, ...(receipts !== undefined ? { receipts } : {}) }, clock);
  for (const e of page.events) expect(eventSchema.safeParse(e).success, JSON.stringify(e)).toBe(true);
  return page.events;
}

const of = <K extends Event['kind']>(events: readonly Event[], kind: K): Array<EventOf<K>> => events.filter((e): e is EventOf<K> => e.kind === kind);
const kinds = (events: readonly Event[]) => events.map((e) => e.kind);

describe('history reads the whole transcript', () => {
  it('keeps everything before a /compact, with the boundary and the summary (never a prompt)', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null, extra?: Record<string, unknown>) => ({ uuid, parentUuid, session: s, ...(extra ? { extra } : {}) });
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), 'Remember kiwi'),
      assistantLine(c('a1', 'u1'), 'm1', [toolUse('t1', 'Bash', { command: 'echo hi' })]),
      toolResultLine(c('r1', 'a1'), 't1', 'hi'),
      assistantLine(c('a2', 'r1'), 'm2', [text('done')]),
      systemLine(c('b1', null, { logicalParentUuid: 'a2' }), 'compact_boundary', {
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'manual', preTokens: 1200 },
      }),
      userLine(
        c('cs', 'b1', { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
        'This session is being continued.\n<system-reminder>\nsecret\n</system-reminder>\nSummary: kiwi.',
      ),
      userLine(c('u2', 'cs'), 'What did I say?'),
      assistantLine(c('a3', 'u2'), 'm3', [text('kiwi')]),
    ]);
    const events = await history(s);
    expect(of(events, 'turn.started').map((e) => e.prompt)).toEqual(['Remember kiwi', 'What did I say?']);
    expect(kinds(events)).toEqual([
      'turn.started',
      'model.resolved',
      'tool.started',
      'tool.completed',
      'message.completed',
      'session.compacted',
      'compact.summary',
      'turn.started',
      'message.completed',
    ]);
    expect(of(events, 'session.compacted')[0]).toMatchObject({ trigger: 'manual', preTokens: 1200 });
    expect(of(events, 'compact.summary')[0]?.text).toBe('This session is being continued.\nSummary: kiwi.');
    // A rewind to before a prompt from before the compaction finds where to resume.
    expect(await readMessageParent({ session: s, cwd: CWD, message: 'u1' })).toEqual({ found: true });
    expect(await readMessageParent({ session: s, cwd: CWD, message: 'a2' })).toEqual({ found: true, parent: 'r1' });
    expect(await readMessageParent({ session: s, cwd: CWD, message: 'u2' })).toEqual({ found: true, parent: 'cs' });
  });

  it('shows the newest leaf only: a rewound branch stays out', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: s });
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), 'first'),
      assistantLine(c('a1', 'u1'), 'm1', [text('one')]),
      userLine(c('u2', 'a1'), 'abandoned'),
      assistantLine(c('a2', 'u2'), 'm2', [text('two')]),
      userLine(c('u3', 'a1'), 'instead'),
      assistantLine(c('a3', 'u3'), 'm3', [text('three')]),
    ]);
    expect(of(await history(s), 'turn.started').map((e) => e.prompt)).toEqual(['first', 'instead']);
  });

  it('keeps every result of parallel calls (each hangs off its own call line)', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: s });
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), 'Both'),
      assistantLine(c('a1', 'u1'), 'm1', [toolUse('t1', 'Bash', { command: 'echo 1' })]),
      assistantLine(c('a2', 'a1'), 'm1', [toolUse('t2', 'Bash', { command: 'echo 2' })]),
      toolResultLine(c('r1', 'a1'), 't1', '1'),
      toolResultLine(c('r2', 'a2'), 't2', '2'),
      assistantLine(c('a3', 'r2'), 'm2', [text('done')]),
    ]);
    const events = await history(s);
    expect(of(events, 'tool.completed').map((e) => e.output)).toEqual(['1', '2']);
    expect(of(events, 'tool.interrupted')).toEqual([]);
    // The conversation may go on from the first call's result: the second call's line is then the sibling.
    const t = sessionId();
    const d = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: t });
    dir.write(`${t}.jsonl`, [
      userLine(d('u1', null), 'Both'),
      assistantLine(d('a1', 'u1'), 'm1', [toolUse('t1', 'Bash', { command: 'echo 1' })]),
      assistantLine(d('a2', 'a1'), 'm1', [toolUse('t2', 'Bash', { command: 'echo 2' })]),
      toolResultLine(d('r2', 'a2'), 't2', '2'),
      toolResultLine(d('r1', 'a1'), 't1', '1'),
      assistantLine(d('a3', 'r1'), 'm2', [text('done')]),
    ]);
    const other = await history(t);
    expect(of(other, 'tool.started').map((e) => e.toolUseId)).toEqual(['t1', 't2']);
    expect(of(other, 'tool.completed').map((e) => e.output)).toEqual(['2', '1']);
  });

  it('reads a prompt sent while Claude was busy (a queued_command attachment) as a prompt', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: s });
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), 'Start'),
      assistantLine(c('a1', 'u1'), 'm1', [text('Working')]),
      { ...userLine(c('q1', 'a1'), ''), type: 'attachment', message: undefined, attachment: { type: 'queued_command', prompt: 'Also do this' } },
      assistantLine(c('a2', 'q1'), 'm2', [text('Done both')]),
    ]);
    expect(of(await history(s), 'turn.started').map((e) => e.prompt)).toEqual(['Start', 'Also do this']);
  });

  it('reads toolUseResult: an edit has its text before, as live', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: s });
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), 'Edit it'),
      assistantLine(c('a1', 'u1'), 'm1', [toolUse('t1', 'Edit', { file_path: '/w/a.txt', old_string: 'x', new_string: 'y' })]),
      toolResultLine(c('r1', 'a1'), 't1', 'updated', { filePath: '/w/a.txt', originalFile: 'x\n', structuredPatch: [] }),
    ]);
    const done = of(await history(s), 'tool.completed')[0];
    expect(done?.fileBefore).toEqual({ path: '/w/a.txt', text: 'x\n' });
  });

  it('counts unreadable lines once, at the end', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: s });
    dir.write(`${s}.jsonl`, [userLine(c('u1', null), 'hi'), '{"type":"assist', assistantLine(c('a1', 'u1'), 'm1', [text('hello')]), 'not json at all']);
    const events = await history(s);
    expect(of(events, 'transcript.unreadable')).toMatchObject([{ lines: 2 }]);
    expect(events.at(-1)?.kind).toBe('transcript.unreadable');
  });
});

describe('history maps what a transcript holds as what it is', () => {
  const PNG = 'iVBORw0KGgo=';

  it('starts a turn for a block prompt, with its image; a tool result image is an image', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: s });
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } };
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), [text('What is this?'), image]),
      assistantLine(c('a1', 'u1'), 'm1', [toolUse('t1', 'Read', { file_path: '/w/p.png' })]),
      toolResultLine(c('r1', 'a1'), 't1', [image]),
    ]);
    const events = await history(s);
    expect(of(events, 'turn.started')).toMatchObject([{ prompt: 'What is this?', uuid: 'u1', images: [{ mediaType: 'image/png', data: PNG, bytes: 8 }] }]);
    expect(of(events, 'tool.completed')).toMatchObject([{ output: '', images: [{ mediaType: 'image/png', data: PNG }] }]);
    expect(of(events, 'unknown')).toEqual([]);
  });

  it('reads an API error entry as an error, not a reply', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null, extra?: Record<string, unknown>) => ({ uuid, parentUuid, session: s, ...(extra ? { extra } : {}) });
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), 'Hello'),
      assistantLine(
        c('a1', 'u1', { isApiErrorMessage: true, error: 'rate_limit', apiErrorStatus: 429 }),
        'e1',
        [text('API Error: Request rejected (429)')],
        '<synthetic>',
      ),
    ]);
    const events = await history(s);
    expect(of(events, 'api.error')).toMatchObject([{ error: 'rate_limit', httpStatus: 429, message: 'API Error: Request rejected (429)' }]);
    expect(of(events, 'message.completed')).toEqual([]);
  });

  it('closes a tool the transcript ends in as session_ended, unless a receipt says how the turn ended', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: s });
    dir.write(`${s}.jsonl`, [userLine(c('u1', null), 'Run it'), assistantLine(c('a1', 'u1'), 'm1', [toolUse('t1', 'Bash', { command: 'sleep 99' })])]);
    expect(of(await history(s), 'tool.interrupted')).toMatchObject([{ toolUseId: 't1', cause: 'session_ended' }]);
    const canceled: ReceiptEnd = { providerMessage: 'u1', outcome: 'canceled', endedAt: '2026-12-01T11:00:00.000Z' };
    expect(of(await history(s, [canceled]), 'tool.interrupted')).toMatchObject([{ toolUseId: 't1', cause: 'cancel' }]);
  });

  it('maps local commands and their output (2.0.x has no isCompletedLocalCommand; 2.1.x a system line)', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null, extra?: Record<string, unknown>) => ({ uuid, parentUuid, session: s, ...(extra ? { extra } : {}) });
    const command = (name: string, args = '') =>
      `<command-name>${name}</command-name>\n            <command-message>${name.slice(1)}</command-message>\n            <command-args>${args}</command-args>`;
    const caveat = (uuid: string, parent: string | null) =>
      userLine(c(uuid, parent, { isMeta: true }), '<local-command-caveat>Run locally.</local-command-caveat>');
    const old = 'Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages.';
    dir.write(`${s}.jsonl`, [
      caveat('m1', null),
      userLine(c('c1', 'm1'), command('/mcp', 'list')),
      userLine(c('o1', 'c1'), '<local-command-stdout>No MCP servers configured</local-command-stdout>'),
      caveat('m2', 'o1'),
      userLine(c('c2', 'm2'), command('/context')),
      systemLine(c('o2', 'c2'), 'local_command', { content: '<local-command-stdout>## Context Usage</local-command-stdout>', level: 'info' }),
      userLine(c('m3', 'o2', { isMeta: true }), old),
      userLine(c('c3', 'm3'), command('/exit')),
      userLine(c('o3', 'c3'), '<local-command-stderr>Bye!</local-command-stderr>'),
      // A prompt command (the model answers it) stays the person's prompt, as typed.
      userLine(c('c4', 'o3'), command('/goal', 'tests pass')),
      userLine(c('o4', 'c4'), '<local-command-stdout>Goal set: tests pass</local-command-stdout>'),
      assistantLine(c('a4', 'o4'), 'm4', [text('On it')]),
    ]);
    const events = await history(s);
    expect(
      events.map((e) => (e.kind === 'command.ran' ? `ran ${e.name} ${e.args ?? ''}` : e.kind === 'command.output' ? `${e.stream} ${e.text}` : e.kind)),
    ).toEqual([
      'ran /mcp list',
      'stdout No MCP servers configured',
      'ran /context ',
      'stdout ## Context Usage',
      'ran /exit ',
      'stderr Bye!',
      'turn.started',
      'stdout Goal set: tests pass',
      'model.resolved',
      'message.completed',
    ]);
    expect(of(events, 'turn.started').map((e) => e.prompt)).toEqual(['/goal tests pass']);
  });

  it('maps a reply stored twice under one message.id once, and never shows a system reminder in a prompt', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: s });
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), '<system-reminder>\nThe date is today.\n</system-reminder>\nHello'),
      assistantLine(c('a1', 'u1'), 'm1', [text('Hi there')]),
      assistantLine(c('a2', 'a1'), 'm1', [text('Hi there')]),
      assistantLine(c('a3', 'a2'), 'm1', [toolUse('t1', 'Bash', { command: 'true' })]),
      toolResultLine(c('r1', 'a3'), 't1', ''),
    ]);
    const events = await history(s);
    expect(of(events, 'turn.started').map((e) => e.prompt)).toEqual(['Hello']);
    expect(of(events, 'message.completed').map((e) => e.text)).toEqual(['Hi there']);
    expect(of(events, 'tool.started')).toHaveLength(1);
  });

  it('keeps "[Request interrupted by user]" a notice and the reply it cut off stopped, as before', async () => {
    const s = sessionId();
    const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: s });
    const unfinished = assistantLine(c('a1', 'u1'), 'm1', [text('Working on')]);
    (unfinished['message'] as Record<string, unknown>)['stop_reason'] = null;
    dir.write(`${s}.jsonl`, [userLine(c('u1', null), 'Go'), unfinished, userLine(c('n1', 'a1'), [text('[Request interrupted by user]')])]);
    const events = await history(s);
    expect(of(events, 'turn.started')).toHaveLength(1);
    expect(of(events, 'message.completed')).toMatchObject([
      { role: 'assistant', stopped: true },
      { role: 'user', text: '[Request interrupted by user]' },
    ]);
  });
});

describe('history nests subagents under the call that ran them', () => {
  const agentCall = (id: string) => toolUse(id, 'Agent', { description: 'look', prompt: 'Look around', subagent_type: 'general-purpose' });
  const expectNested = (events: readonly Event[], call: string) => {
    const started = events.findIndex((e) => e.kind === 'tool.started' && e.toolUseId === call);
    const completed = events.findIndex((e) => e.kind === 'tool.completed' && e.toolUseId === call);
    const nested = events.flatMap((e, i) => ('parentToolUseId' in e && e.parentToolUseId === call ? [i] : []));
    expect(nested.length).toBeGreaterThanOrEqual(2);
    // The prompt it was given is the call's input, not a message (live has none either).
    expect(of(events, 'message.completed').filter((e) => e.role === 'user')).toEqual([]);
    expect(nested.every((i) => i > started && i < completed)).toBe(true);
    const inner = of(events, 'tool.started').find((e) => e.name === 'Bash');
    expect(inner?.parentToolUseId).toBe(call);
    expect(of(events, 'tool.completed').find((e) => e.toolUseId === inner?.toolUseId)?.output).toBe('from the agent');
    // Subagent prompts are no turn of the session.
    expect(of(events, 'turn.started').map((e) => e.prompt)).toEqual(['Delegate']);
  };
  const agentLines = (session: string, sidechain: boolean, extra: Record<string, unknown> = {}) => {
    const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session, extra: { isSidechain: sidechain, ...extra } });
    return [
      userLine(c('s1', null), 'Look around'),
      assistantLine(c('s2', 's1'), 'sm1', [toolUse('st1', 'Bash', { command: 'echo from the agent' })]),
      toolResultLine(c('s3', 's2'), 'st1', 'from the agent'),
      assistantLine(c('s4', 's3'), 'sm2', [text('Found it')]),
    ];
  };
  const mainLines = (s: string, call: string, result: unknown, inline: object[] = []) => {
    const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: s });
    return [
      userLine(c('u1', null), 'Delegate'),
      assistantLine(c('a1', 'u1'), 'm1', [agentCall(call)]),
      ...inline,
      toolResultLine(c('r1', 'a1'), call, [text('Found it')], result),
      assistantLine(c('a2', 'r1'), 'm2', [text('The agent found it')]),
    ];
  };

  it('1.0.x: inline isSidechain lines', async () => {
    const s = sessionId();
    dir.write(`${s}.jsonl`, mainLines(s, 'call1', { content: [text('Found it')] }, agentLines(s, true)));
    expectNested(await history(s), 'call1');
  });

  it('2.0.x: agent-<id>.jsonl beside the session', async () => {
    const s = sessionId();
    dir.write(`${s}.jsonl`, mainLines(s, 'call2', { status: 'completed', agentId: 'beside20' }));
    dir.write('agent-beside20.jsonl', agentLines(s, true, { agentId: 'beside20' }));
    dir.write('agent-warmup99.jsonl', [assistantLine({ uuid: 'w1', parentUuid: null, session: s }, 'wm', [text('Warmup')])]);
    const events = await history(s);
    expectNested(events, 'call2');
    expect(JSON.stringify(events)).not.toContain('Warmup');
  });

  it('2.1.x: <session>/subagents/agent-<id>.jsonl, tied by its meta file', async () => {
    const s = sessionId();
    dir.write(`${s}.jsonl`, mainLines(s, 'call3', { isAsync: true, status: 'async_launched' }));
    dir.write(`${s}/subagents/agent-nested21.jsonl`, agentLines(s, true, { agentId: 'nested21' }));
    dir.write(`${s}/subagents/agent-nested21.meta.json`, [{ agentType: 'general-purpose', toolUseId: 'call3' }]);
    expectNested(await history(s), 'call3');
  });
});
