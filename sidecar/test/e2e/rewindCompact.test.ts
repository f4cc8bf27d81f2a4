// Rewinding to a prompt from before a /compact, through the real SDK and claude CLI against the scripted API:
// Claude Code cannot resume at a message the compaction summarized, so the host copies the conversation up to it
// into a new session (fork_session) and resumes that: the agent sees what came before, not the summary.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { spawnSidecar } from '../helpers/sidecarProcess.js';
import { events, request, turnEnd } from '../helpers/sessionLines.js';

const S1 = 'c3c3c3c3-0000-4000-8000-000000000001';
const scripted = useScriptedClaude();

interface Line {
  type?: string;
  uuid?: string;
  parentUuid?: string | null;
  logicalParentUuid?: string;
  message?: { content?: unknown };
}

function transcript(session: string): Line[] {
  const projects = join(scripted.home.configDir, 'projects');
  for (const dir of readdirSync(projects)) {
    try {
      return readFileSync(join(projects, dir, `${session}.jsonl`), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Line);
    } catch {
      // not in this project's folder
    }
  }
  throw new Error('no transcript');
}
const textOf = (l: Line) => JSON.stringify(l.message?.content ?? '');

describe('rewind before a /compact', () => {
  it('cannot resume at a message from before the compaction, but a fork up to it resumes; one after it resumes', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    try {
      await request(sidecar, 'start', { session: S1, cwd: scripted.home.project });
      for (const [turn, prompt] of [
        ['t1', 'alpha first'],
        ['t2', 'bravo second'],
        ['t3', '/compact'],
        ['t4', 'charlie third'],
      ] as const) {
        await request(sidecar, 'exec', { session: S1, turn, prompt });
        await turnEnd(sidecar, S1, turn);
      }
      await request(sidecar, 'close', { session: S1 });
      const lines = transcript(S1);
      const parentOf = (text: string) => lines.find((l) => l.type === 'user' && textOf(l).includes(text))?.parentUuid ?? '';
      // What a conversation rewind to before "bravo" asks: resume at the message it followed. Claude Code refuses.
      const refused = await request(sidecar, 'start', { session: S1, cwd: scripted.home.project, resume: true, at: parentOf('bravo second') });
      expect(refused).toMatchObject({ type: 'error', error: { message: expect.stringContaining('No message found') } });
      // So the host forks the conversation up to that message and resumes the fork.
      const forked = await request(sidecar, 'fork_session', { session: S1, cwd: scripted.home.project, upTo: parentOf('bravo second'), title: 'Rewound' });
      expect(forked.type).toBe('ok');
      const fork = forked.type === 'ok' ? String(forked.payload['session']) : '';
      expect(fork).not.toBe(S1);
      expect(await request(sidecar, 'start', { session: fork, cwd: scripted.home.project, resume: true })).toMatchObject({ type: 'ok' });
      await request(sidecar, 'exec', { session: fork, turn: 'f1', prompt: '[recall] echo' });
      const recalled = await turnEnd(sidecar, fork, 'f1');
      expect(recalled).toMatchObject({ kind: 'turn.completed', result: expect.stringContaining('alpha first') });
      expect(JSON.stringify(recalled)).not.toMatch(/bravo second|charlie third|summary/i);
      await request(sidecar, 'close', { session: fork });
      const sessions = await request(sidecar, 'list_sessions', { cwd: scripted.home.project });
      expect(JSON.stringify(sessions)).toContain('Rewound');
      // Rewinding to before "charlie", after the compaction, resumes.
      const resumed = await request(sidecar, 'start', { session: S1, cwd: scripted.home.project, resume: true, at: parentOf('charlie third') });
      expect(resumed.type).toBe('ok');
      await request(sidecar, 'exec', { session: S1, turn: 't5', prompt: 'delta fourth' });
      expect(await turnEnd(sidecar, S1, 't5')).toMatchObject({ kind: 'turn.completed', result: expect.stringMatching(/delta fourth$/) });
      expect(events(sidecar, S1).filter((e) => e.kind === 'turn.failed')).toEqual([]);
    } finally {
      await request(sidecar, 'close', { session: S1 });
      expect(await sidecar.end()).toBe(0);
    }
  }, 180_000);
});
