// What a history page shows of everything a transcript holds (issue 26), folded as history pages are (REPLAY,
// applyHistoryPage), with the same fold as live.
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../src/protocol/events';
import { foldEvents, newSession } from '../src/store/fold';
import { applyHistoryPage } from '../src/store/history';
import type { Item, Transcript } from '../src/store/types';
import { BEFORE_COMPACTION, COMMANDS, COMPACTION, IMAGES, PAST, PAST_EVENTS, SUBAGENT } from './pastSession';

const past = () => newSession({ id: PAST, cwd: '/w' });

/** The history transcript after its pages came in, oldest page last (as the console asks for them). */
function history(...pages: SessionEvent[][]): Transcript {
  const all = pages.flat();
  let state = past();
  let end = all.length;
  for (const [i, page] of pages.entries()) {
    state = applyHistoryPage(state, { events: page, total: all.length, start: end - page.length }, i === 0);
    end -= page.length;
  }
  return state.history.transcript;
}

const rows = (t: Transcript): Item[] => t.rows.map((k) => t.items.get(k) as Item);
const children = (t: Transcript, item: Item | undefined): Item[] => (item?.type === 'tool' ? item.children.map((k) => t.items.get(k) as Item) : []);

describe('a history page', () => {
  const t = history(PAST_EVENTS);
  const top = rows(t);

  it('nests the subagent’s messages, tools and API errors under its Agent card', () => {
    const agent = top.find((i) => i.type === 'tool' && i.name === 'Agent');
    expect(children(t, agent).map((i) => i.type)).toEqual(['assistant', 'tool', 'error']);
    expect(top.filter((i) => i.type === 'error').map((i) => (i.type === 'error' ? i.title : ''))).toEqual(['The API is overloaded']);
  });

  it('nests the subagent’s work when its Agent call came on an older page', () => {
    const split = history([...COMPACTION, ...COMMANDS, ...IMAGES], [...SUBAGENT.slice(3)], [...BEFORE_COMPACTION, ...SUBAGENT.slice(0, 3)]);
    const agent = rows(split).find((i) => i.type === 'tool' && i.name === 'Agent');
    expect(children(split, agent).map((i) => i.type)).toEqual(['assistant', 'tool', 'error']);
    expect(
      rows(split)
        .filter((i) => i.type === 'tool')
        .map((i) => (i.type === 'tool' ? i.name : '')),
    ).toEqual(['Agent', 'Read', 'Bash', 'Bash']);
  });

  it('shows the conversation before a compaction above its marker, and the summary after it, never as a prompt', () => {
    const types = top.map((i) => i.type);
    expect(types.slice(0, 5)).toEqual(['user', 'assistant', 'tool', 'compacted', 'summary']);
    expect(top[3]).toMatchObject({ type: 'compacted', trigger: 'auto', preTokens: 15210 });
    expect(top[4]).toMatchObject({ type: 'summary', text: expect.stringContaining('rename the module') });
    expect(top.filter((i) => i.type === 'user').map((i) => (i.type === 'user' ? i.text : ''))).toEqual(['Rename the module', 'What is in this screenshot?']);
  });

  it('shows an API error as an error card saying what it was and its HTTP status', () => {
    const agent = top.find((i) => i.type === 'tool' && i.name === 'Agent');
    expect(children(t, agent).find((i) => i.type === 'error')).toMatchObject({
      title: 'Rate limit reached (429)',
      message: 'API Error: Rate limit reached',
      code: 'rate_limit',
    });
  });

  it('shows local commands as command rows with their output attached, and output with no command alone', () => {
    const commands = top.filter((i) => i.type === 'command');
    expect(commands.map((c) => (c.type === 'command' ? [c.command, c.output.map((o) => o.stream)] : []))).toEqual([
      ['/mcp list', ['stdout', 'stderr']],
      ['/context', ['stdout']],
      [undefined, ['stdout']],
    ]);
    expect(commands[0]?.type === 'command' ? commands[0].output[1]?.text : '').toBe('warning: no settings file');
    // The unreadable lines' notice stands between /context's output and the lone "Bye!", which it does not join.
    expect(commands[2]?.type === 'command' ? commands[2].output[0]?.text : '').toBe('Bye!');
  });

  it('says how many lines of the transcript could not be read', () => {
    const notices = top.filter((i) => i.type === 'notice').map((i) => (i.type === 'notice' ? i.text : ''));
    expect(notices).toEqual(['2 lines of this transcript could not be read']);
    const one = foldEvents(past(), [{ kind: 'transcript.unreadable', session: PAST, time: '2026-11-30T12:00:00.000Z', lines: 1 }]);
    expect(rows(one.transcript).map((i) => (i.type === 'notice' ? i.text : ''))).toEqual(['1 line of this transcript could not be read']);
  });

  it('keeps a prompt’s images and a tool’s returned images with their rows', () => {
    const prompt = top.find((i) => i.type === 'user' && i.uuid === 'u2');
    expect(prompt?.type === 'user' ? prompt.images?.map((im) => im.mediaType) : []).toEqual(['image/png', 'image/png', 'image/svg+xml']);
    const read = top.find((i) => i.type === 'tool' && i.name === 'Read');
    expect(read?.type === 'tool' ? read.images : []).toEqual([{ mediaType: 'image/jpeg', data: '/9j/', bytes: 3 }]);
  });

  it('reads a tool the session ended in as ended, not running nor interrupted', () => {
    const bash = top.find((i) => i.type === 'tool' && i.toolUseId === 'b3');
    expect(bash?.type === 'tool' ? bash.status : '').toBe('ended');
  });
});

describe('local commands from the CLI’s markup', () => {
  const T = '2026-11-30T12:00:00.000Z';

  it('attaches a stored local command’s output to its row', () => {
    const s = foldEvents(past(), [
      { kind: 'message.completed', session: PAST, time: T, role: 'user', text: '<command-name>/context</command-name><command-args></command-args>' },
      { kind: 'message.completed', session: PAST, time: T, role: 'user', text: '<local-command-stdout>Context: 12k tokens</local-command-stdout>' },
      { kind: 'message.completed', session: PAST, time: T, role: 'user', text: '<command-name>/doctor</command-name>' },
      { kind: 'message.completed', session: PAST, time: T, role: 'user', text: '<local-command-stderr>doctor failed</local-command-stderr>' },
    ]);
    expect(rows(s.transcript)).toMatchObject([
      { type: 'command', command: '/context', output: [{ stream: 'stdout', text: 'Context: 12k tokens' }] },
      { type: 'command', command: '/doctor', output: [{ stream: 'stderr', text: 'doctor failed' }] },
    ]);
  });

  it('keeps /model’s line apart from the command before it (history shows it alone)', () => {
    const t = history([
      { kind: 'command.ran', session: PAST, time: T, name: '/compact' },
      { kind: 'command.ran', session: PAST, time: T, name: '/model', args: 'sonnet' },
      { kind: 'command.output', session: PAST, time: T, stream: 'stdout', text: 'Set model to sonnet' },
    ]);
    expect(rows(t)).toMatchObject([
      { type: 'command', command: '/compact', output: [] },
      { type: 'command', output: [{ text: 'Set model to sonnet' }] },
    ]);
    expect(rows(t)[1]).not.toHaveProperty('command');
  });

  it('gives way to the turn’s failure when an API error card says the same', () => {
    const s = foldEvents(past(), [
      { kind: 'turn.started', session: PAST, turn: 't1', time: T, prompt: 'go' },
      { kind: 'api.error', session: PAST, turn: 't1', time: T, error: 'rate_limit', httpStatus: 429, message: 'API Error: Rate limit reached' },
      { kind: 'turn.failed', session: PAST, turn: 't1', time: T, code: 'api_error', message: 'API Error: Rate limit reached' },
    ]);
    expect(rows(s.transcript).map((i) => i.type)).toEqual(['user', 'error']);
    expect(rows(s.transcript)[1]).toMatchObject({ code: 'api_error', message: 'API Error: Rate limit reached' });
  });
});
