// A stored session's title is never its subagent's prompt: the SDK's firstPrompt takes a 1.0.x inline subagent's
// prompt when the person's own first lines start with markup (a local command, an IDE selection).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readSessions } from '../../src/history/sessions.js';
import { assistantLine, type ConfigDir, configDir, text, toolUse, userLine } from '../helpers/transcriptFiles.js';

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

it("titles a session by the person's first prompt, not by its subagent's", async () => {
  const s = '5e551011-0000-4000-8000-00000000c001';
  const c = (uuid: string, parentUuid: string | null, extra?: Record<string, unknown>) => ({ uuid, parentUuid, session: s, ...(extra ? { extra } : {}) });
  dir.write(`${s}.jsonl`, [
    userLine(c('u0', null), '<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>'),
    userLine(c('u1', 'u0'), [text('<ide_selection>src/a.ts</ide_selection> Delegate the search')]),
    assistantLine(c('a1', 'u1'), 'm1', [toolUse('call', 'Task', { prompt: 'Look around the repo', description: 'd' })]),
    userLine(c('s1', null, { isSidechain: true }), 'Look around the repo'),
    assistantLine(c('s2', 's1', { isSidechain: true }), 'm2', [text('ok')]),
  ]);
  const [info] = await readSessions({});
  expect(info?.title).not.toContain('Look around');
  expect(info?.title).toBe('Delegate the search');
});

it('checks every session of a listing longer than one batch of checks', async () => {
  const ids = Array.from({ length: 70 }, (_, i) => `5e551011-0000-4000-8000-0000000${String(i).padStart(5, '0')}`);
  for (const s of ids) {
    const c = (uuid: string, parentUuid: string | null, extra?: Record<string, unknown>) => ({ uuid, parentUuid, session: s, ...(extra ? { extra } : {}) });
    dir.write(`${s}.jsonl`, [
      userLine(c('u0', null), '<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>'),
      userLine(c('u1', 'u0'), [text(`<ide_selection>src/a.ts</ide_selection> Delegate search ${s}`)]),
      userLine(c('s1', null, { isSidechain: true }), 'Look around the repo'),
    ]);
  }
  const listed = new Map((await readSessions({})).map((info) => [info.session, info.title]));
  for (const s of ids) expect(listed.get(s)).toBe(`Delegate search ${s}`);
});
