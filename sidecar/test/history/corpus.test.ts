// History of the real transcripts in testdata/corpus (Claude Code 1.0.51, 2.0.50, 2.1.332; PROVENANCE.md), read
// through readHistory as the `history` request does, one config dir per generation. Each scenario's point (what
// history used to drop or misread, issue 26) is checked in every generation that recorded it.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistory } from '../../src/history/history.js';
import { type Event, type EventOf, eventSchema } from '../../src/protocol/events.js';
import { SIDECAR_ROOT } from '../helpers/fakeApi.js';

const CORPUS = join(SIDECAR_ROOT, 'testdata', 'corpus');

interface CorpusFile {
  file: string;
  scenario: string;
  cliVersion: string;
}

const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as { files: CorpusFile[] };
/** The session files (not subagents' or meta files), with the config dir each lives in. */
const sessions = manifest.files
  .filter((f) => /^[0-9a-f-]{36}\.jsonl$/.test(basename(f.file)) && f.file.split('/').length <= 4)
  .map((f) => ({
    ...f,
    session: basename(f.file, '.jsonl'),
    configDir: join(CORPUS, f.file.startsWith('recorded/') ? 'recorded' : ''),
    kind: f.scenario.replace(/^v\d-\d-/, ''),
  }));

let saved: string | undefined;
beforeAll(() => {
  saved = process.env['CLAUDE_CONFIG_DIR'];
});
afterAll(() => {
  if (saved === undefined) delete process.env['CLAUDE_CONFIG_DIR'];
  else process.env['CLAUDE_CONFIG_DIR'] = saved;
});

async function historyOf(s: (typeof sessions)[number]): Promise<Event[]> {
  process.env['CLAUDE_CONFIG_DIR'] = s.configDir;
  const page = await readHistory({ session: s.session }, () => new Date('2026-12-02T00:00:00.000Z'));
  for (const e of page.events) expect(eventSchema.safeParse(e).success, JSON.stringify(e).slice(0, 300)).toBe(true);
  return page.events;
}

const of = <K extends Event['kind']>(events: readonly Event[], kind: K): Array<EventOf<K>> => events.filter((e): e is EventOf<K> => e.kind === kind);
const scenario = (kind: string) => sessions.filter((s) => s.kind === kind);

describe('the corpus', () => {
  it('has every scenario in every generation', () => {
    for (const kind of ['api-error', 'compact', 'killed-mid-tool', 'subagent', 'tools']) expect(scenario(kind).length, kind).toBe(3);
  });

  for (const s of sessions) {
    it(`${s.scenario} (${s.cliVersion}): every prompt starts a turn; nothing is unknown or unreadable`, async () => {
      const events = await historyOf(s);
      expect(of(events, 'turn.started').length).toBeGreaterThan(0);
      expect(of(events, 'unknown')).toEqual([]);
      expect(of(events, 'transcript.unreadable')).toEqual([]);
      // No CLI markup reads as a person's words.
      for (const e of of(events, 'turn.started')) expect(e.prompt).not.toMatch(/<(system-reminder|local-command-|command-name)/);
      for (const e of of(events, 'message.completed').filter((m) => m.role === 'user')) expect(e.text).not.toMatch(/<local-command-/);
    });
  }

  for (const s of scenario('api-error')) {
    it(`${s.scenario}: the 429 is an API error, not a reply`, async () => {
      const events = await historyOf(s);
      expect(of(events, 'api.error').length).toBeGreaterThan(0);
      for (const e of of(events, 'api.error')) expect(e).toMatchObject({ httpStatus: 429 });
      expect(of(events, 'message.completed').filter((m) => m.text.startsWith('API Error'))).toEqual([]);
    });
  }

  for (const s of scenario('compact')) {
    it(`${s.scenario}: what came before the compaction is there; local commands are command rows`, async () => {
      const events = await historyOf(s);
      const prompts = of(events, 'turn.started').map((e) => e.prompt);
      expect(prompts).toContain('Remember the word kiwi.');
      expect(of(events, 'tool.completed').map((e) => e.output)).toContain('before compaction');
      expect(of(events, 'command.ran').length).toBeGreaterThan(0);
      expect(of(events, 'command.output').length).toBe(of(events, 'command.ran').length);
      if (s.cliVersion.startsWith('1.')) return; // 1.0.x files no boundary (its /compact is a local command)
      const boundary = events.findIndex((e) => e.kind === 'session.compacted');
      expect(boundary).toBeGreaterThan(events.findIndex((e) => e.kind === 'tool.completed'));
      expect(events[boundary + 1]?.kind).toBe('compact.summary');
      expect(prompts.some((p) => p.includes('This session is being continued'))).toBe(false);
    });
  }

  for (const s of scenario('killed-mid-tool')) {
    it(`${s.scenario}: the call the session ended in is closed as session_ended`, async () => {
      const events = await historyOf(s);
      const bash = of(events, 'tool.started').at(-1)!;
      expect(of(events, 'tool.interrupted')).toMatchObject([{ toolUseId: bash.toolUseId, cause: 'session_ended' }]);
    });
  }

  for (const s of scenario('subagent')) {
    it(`${s.scenario}: the subagent's work is under its call, once`, async () => {
      const events = await historyOf(s);
      const call = of(events, 'tool.started').find((e) => e.name === 'Task' || e.name === 'Agent')!;
      const inner = of(events, 'tool.started').filter((e) => e.parentToolUseId === call.toolUseId);
      expect(inner.map((e) => e.name)).toEqual(['Bash']);
      expect(of(events, 'tool.completed').find((e) => e.toolUseId === inner[0]!.toolUseId)?.output).toBe('from the agent');
      const at = events.indexOf(call);
      const end = events.findIndex((e) => e.kind === 'tool.completed' && e.toolUseId === call.toolUseId);
      for (const [i, e] of events.entries()) if ('parentToolUseId' in e && e.parentToolUseId === call.toolUseId) expect(i > at && i < end).toBe(true);
      // Its prompt is the call's input, not a message (live has none either).
      expect(of(events, 'message.completed').filter((e) => e.role === 'user' && e.parentToolUseId !== undefined)).toEqual([]);
      // A reply stored twice shows once.
      const replies = of(events, 'message.completed').map((e) => `${e.messageId ?? ''}:${e.text}`);
      expect(new Set(replies).size).toBe(replies.length);
    });
  }

  for (const s of scenario('tools')) {
    it(`${s.scenario}: edits have their text before; a pasted image is the prompt's`, async () => {
      const events = await historyOf(s);
      // The text before a file's first change, as live: a Write that made the file (null), else the Edit's.
      const first = of(events, 'tool.completed').find((e) => e.fileBefore !== undefined);
      expect(first?.fileBefore?.text).toBe(first?.name === 'Edit' ? 'Release notes: faster.\n' : null);
      if (s.cliVersion.startsWith('1.')) return; // 1.0.51's -p took no image
      const pictured = of(events, 'turn.started').find((e) => e.images !== undefined);
      expect(pictured?.prompt).toBe('What is in this picture?');
      expect(pictured?.images?.[0]).toMatchObject({ mediaType: 'image/png' });
      expect(pictured?.images?.[0]?.data?.length).toBeGreaterThan(0);
    });
  }
});
