// History of transcript shapes seen in real public transcripts (CLI 1.0.80 → 2.1.x) that the recorded corpus does
// not hold. The lines are synthetic, shaped like what those files hold; each goes through readHistory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistory, readMessageParent } from '../../src/history/history.js';
import { TranscriptReader } from '../../src/history/transcriptReader.js';
import { type Event, type EventOf, eventSchema } from '../../src/protocol/events.js';
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

let n = 0;
const sessionId = () => `9ab11c00-0000-4000-8000-${String(++n).padStart(12, '0')}`;

async function history(session: string): Promise<Event[]> {
  const page = await readHistory({ session, cwd: CWD }, () => new Date('2026-12-02T00:00:00.000Z'));
  for (const e of page.events) expect(eventSchema.safeParse(e).success, JSON.stringify(e)).toBe(true);
  return page.events;
}

const of = <K extends Event['kind']>(events: readonly Event[], kind: K): Array<EventOf<K>> => events.filter((e): e is EventOf<K> => e.kind === kind);
const line = (s: string) => (uuid: string, parentUuid: string | null, extra?: Record<string, unknown>) => ({
  uuid,
  parentUuid,
  session: s,
  ...(extra ? { extra } : {}),
});
const commandRows = (events: readonly Event[]) =>
  events.flatMap((e) =>
    e.kind === 'command.ran'
      ? [`ran ${e.name} ${e.args ?? ''}`.trim()]
      : e.kind === 'command.output'
        ? [`${e.stream} ${e.text}`]
        : e.kind === 'turn.started'
          ? [`prompt ${e.prompt}`]
          : [],
  );

describe('history of shapes seen in public transcripts', () => {
  it('1.0.x: a compaction filed as its summary alone (no boundary, no parent) keeps what came before', async () => {
    const s = sessionId();
    const c = line(s);
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null, { version: '1.0.80' }), 'Remember fig'),
      assistantLine(c('a1', 'u1', { version: '1.0.80' }), 'm1', [text('Noted')]),
      userLine(c('cs', null, { version: '1.0.80', isCompactSummary: true }), 'This session is being continued from a previous conversation. Summary: fig.'),
      userLine(c('u2', 'cs', { version: '1.0.80' }), 'Which fruit?'),
      assistantLine(c('a2', 'u2', { version: '1.0.80' }), 'm2', [text('Fig')]),
    ]);
    const events = await history(s);
    expect(of(events, 'turn.started').map((e) => e.prompt)).toEqual(['Remember fig', 'Which fruit?']);
    expect(of(events, 'compact.summary')).toHaveLength(1);
    expect(of(events, 'message.completed').map((e) => e.text)).toEqual(['Noted', 'Fig']);
  });

  it('keeps the conversation through an unreadable line on its chain (its ids still link it), counted once', async () => {
    const s = sessionId();
    const c = line(s);
    // A line corrupted mid-content (an invalid escape), as an edited transcript holds: its ids are intact (2.1.x
    // may write cwd before parentUuid).
    const corrupt = `{"cwd":"${CWD}","parentUuid":"a1","isSidechain":false,"sessionId":"${s}","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"bad \\q escape"}]},"uuid":"r1","timestamp":"2026-12-01T10:00:03.000Z"}`;
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), 'List files'),
      assistantLine(c('a1', 'u1'), 'm1', [toolUse('t1', 'Bash', { command: 'ls' })]),
      corrupt,
      assistantLine(c('a2', 'r1'), 'm2', [text('Listed')]),
      userLine(c('u2', 'a2'), 'Thanks'),
      assistantLine(c('a3', 'u2'), 'm3', [text('Welcome')]),
    ]);
    const events = await history(s);
    expect(of(events, 'turn.started').map((e) => e.prompt)).toEqual(['List files', 'Thanks']);
    expect(of(events, 'tool.started').map((e) => e.toolUseId)).toEqual(['t1']);
    expect(of(events, 'transcript.unreadable').map((e) => e.lines)).toEqual([1]);
    // Stamped with the transcript's own time, not the time it was read: a re-read (the index's) is the same.
    expect(events.at(-1)).toMatchObject({ kind: 'transcript.unreadable', time: events.at(-2)?.time });
  });

  it('1.0.x: shows an inline subagent only under a call that is shown (not after `at`, not on a rewound branch)', async () => {
    const s = sessionId();
    const c = line(s);
    const side = (uuid: string, parentUuid: string | null) => c(uuid, parentUuid, { isSidechain: true, version: '1.0.80' });
    const task = (id: string, prompt: string) => toolUse(id, 'Task', { description: 'look', prompt });
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), 'First'),
      assistantLine(c('a1', 'u1'), 'm1', [text('One')]),
      // A rewound branch's Task call and its subagent.
      userLine(c('x1', 'a1'), 'Abandoned'),
      assistantLine(c('x2', 'x1'), 'mx', [task('tx', 'Old look')]),
      userLine(side('xs1', null), 'Old look'),
      assistantLine(side('xs2', 'xs1'), 'mxs', [text('old agent words')]),
      // The kept branch.
      userLine(c('u2', 'a1'), 'Second'),
      assistantLine(c('a2', 'u2'), 'm2', [task('t2', 'New look')]),
      userLine(side('s1', null), 'New look'),
      assistantLine(side('s2', 's1'), 'ms', [text('new agent words')]),
      toolResultLine(c('r2', 'a2'), 't2', [text('done')]),
      assistantLine(c('a3', 'r2'), 'm3', [text('Three')]),
    ]);
    const texts = (events: readonly Event[]) => of(events, 'message.completed').map((e) => e.text);
    expect(texts(await history(s))).toEqual(['One', 'new agent words', 'Three']);
    const page = await readHistory({ session: s, cwd: CWD, at: 'a1' }, () => new Date('2026-12-02T00:00:00.000Z'));
    expect(texts(page.events)).toEqual(['One']);
  });

  it('reads a command whose <command-message> comes before <command-name>: a local one is a command row, a prompt one reads as typed', async () => {
    const s = sessionId();
    const c = line(s);
    const command = (name: string, args: string) =>
      `<command-message>${name.slice(1)}</command-message>\n<command-name>${name}</command-name>\n<command-args>${args}</command-args>`;
    dir.write(`${s}.jsonl`, [
      userLine(c('m1', null, { isMeta: true }), '<local-command-caveat>Run locally.</local-command-caveat>'),
      userLine(c('c1', 'm1'), command('/model', '')),
      userLine(c('o1', 'c1'), '<local-command-stdout>Set model</local-command-stdout>'),
      userLine(c('c2', 'o1'), command('/review', 'the parser')),
      assistantLine(c('a2', 'c2'), 'm2', [text('Reviewing')]),
    ]);
    expect(commandRows(await history(s))).toEqual(['ran /model', 'stdout Set model', 'prompt /review the parser']);
  });

  it('reads bash mode (`! cmd`) as a command row and its output, never as prompts', async () => {
    const s = sessionId();
    const c = line(s);
    dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), 'Check the disk'),
      assistantLine(c('a1', 'u1'), 'm1', [text('Run df yourself')]),
      userLine(c('b1', 'a1'), '<bash-input>df -h</bash-input>'),
      userLine(c('b2', 'b1'), '<bash-stdout></bash-stdout><bash-stderr>df: permission denied</bash-stderr>'),
      userLine(c('b3', 'b2'), '<bash-input>echo ok</bash-input>'),
      userLine(c('b4', 'b3'), '<bash-stdout>ok</bash-stdout><bash-stderr></bash-stderr>'),
      userLine(c('u2', 'b4'), 'Done'),
      assistantLine(c('a2', 'u2'), 'm2', [text('Good')]),
    ]);
    const events = await history(s);
    expect(commandRows(events)).toEqual(['prompt Check the disk', 'ran ! df -h', 'stderr df: permission denied', 'ran ! echo ok', 'stdout ok', 'prompt Done']);
    expect(of(events, 'message.completed').filter((e) => e.role === 'user')).toEqual([]);
  });

  it("gives a system line's items no uuid: the message before a prompt is the one readMessageParent names", async () => {
    const s = sessionId();
    const c = line(s);
    const file = dir.write(`${s}.jsonl`, [
      userLine(c('u1', null), 'Hello'),
      assistantLine(c('a1', 'u1'), 'm1', [text('Hi')]),
      userLine(c('m1', 'a1', { isMeta: true }), '<local-command-caveat>Run locally.</local-command-caveat>'),
      userLine(c('c1', 'm1'), '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>'),
      systemLine(c('o1', 'c1'), 'local_command', { content: '<local-command-stdout>Kept model</local-command-stdout>', level: 'info' }),
      userLine(c('u2', 'o1'), 'Go on'),
      assistantLine(c('a2', 'u2'), 'm2', [text('Going')]),
    ]);
    const reader = await TranscriptReader.open({ session: s, file }, () => new Date('2026-12-02T00:00:00.000Z'));
    const uuids: string[] = [];
    for await (const item of reader.items()) {
      if (item.event.kind === 'turn.started' && item.uuid === 'u2') break;
      if (item.uuid !== undefined) uuids.push(item.uuid);
    }
    expect(await readMessageParent({ session: s, cwd: CWD, message: 'u2' })).toEqual({ found: true, parent: uuids.at(-1) });
  });

  it('stamps a line whose timestamp is not a time (an edited transcript) with the time written before it, not the time read', async () => {
    const s = sessionId();
    const c = line(s);
    dir.write(`${s}.jsonl`, [userLine(c('u1', null), 'Hello'), { ...assistantLine(c('a1', 'u1'), 'm1', [text('Hi')]), timestamp: '[REDACTED]T02:23:00Z' }]);
    const events = await history(s);
    expect(events.map((e) => e.time)).toEqual(Array(events.length).fill(events[0]!.time));
    expect(events[0]!.time).not.toBe('2026-12-02T00:00:00.000Z');
  });
});
