// The session list of the corpus's real transcripts (sidecar/testdata/corpus, CLI 1.0 to 2.1): every session keeps
// the title it was listed with when the first-prompt check read whole files line by line.
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { readSessions } from '../../src/history/sessions.js';

const corpus = fileURLToPath(new URL('../../testdata/corpus', import.meta.url));
const task = (tool: string) => `[tool ${tool} {"description":"look around","prompt":"\\u005bbash echo from the agent]","subagent_type":"general-purpose"}]`;
const notes = '[write notes.txt Release notes: faster.]';

const titles: Record<string, Record<string, string>> = {
  [corpus]: {
    'd5ce63c1-36dc-4930-b907-1f5353607a29': 'Hello',
    '828784c2-d85c-425d-8209-93b2e40be2c2': 'Hello',
    '55844502-5ea1-44d5-a7aa-10bf81c05b37': notes,
    '0159a16e-2126-4948-b921-3f4767524d64': 'Remember the word kiwi.',
    '0052222a-764a-40b3-ad7e-8d888e701194': task('Task'),
    'e49fb1ae-2d98-4c3c-9eff-10b225ad1af1': 'Hello',
    '9fe9895a-845f-4bb3-8120-3f8d0d763e3f': notes,
    '86f97dde-ce5d-42c7-8fb7-0bf3d2e0d5e8': 'Remember the word kiwi.',
    '2ac1b965-af2e-48bf-9933-cca675d88597': 'Hello',
    '0a785959-1f38-4174-8a02-647890c2fb2e': task('Task'),
  },
  [`${corpus}/recorded`]: {
    '5a0562af-659d-487a-ba69-e775f7c50f2e': notes,
    'f94ec5bf-5660-46f6-9950-9679747ba90b': 'Hello',
    'f24a8773-8857-43fd-b0d0-f137a31e9565': task('Agent'),
    '6f822736-6e40-4213-ae34-3eedb20f08f9': 'Remember the word kiwi.',
    '62869683-3fe8-42b7-a52e-0deac16a5236': 'Hello',
  },
};

const saved = process.env['CLAUDE_CONFIG_DIR'];
afterEach(() => {
  if (saved === undefined) delete process.env['CLAUDE_CONFIG_DIR'];
  else process.env['CLAUDE_CONFIG_DIR'] = saved;
});

it.each(Object.entries(titles))('lists the sessions of %s under their titles', async (config, want) => {
  process.env['CLAUDE_CONFIG_DIR'] = config;
  const listed = await readSessions({});
  expect(Object.fromEntries(listed.map((s) => [s.session, s.title]))).toEqual(want);
});
