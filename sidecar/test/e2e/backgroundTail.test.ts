// A background command's live output tail (task.output) through the real SDK and claude CLI against the scripted
// fake Messages API: no SDK message carries it, so the sidecar reads the file Claude Code writes it to. The test
// decides when the command moves on (gate files), never a sleep.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { spawnSidecar } from '../helpers/sidecarProcess.js';
import { allowAll, event, eventsOf, request, turnEnd } from '../helpers/sessionLines.js';

const S1 = 'b2b2b2b2-0000-4000-8000-000000000001';

const scripted = useScriptedClaude();

const untilFile = (path: string) => `while [ ! -f ${path} ]; do sleep 0.05; done`;

describe('a background command’s output tail', () => {
  it('sends the end of its output while it runs, then its last once it ends', async () => {
    const ctl = join(scripted.home.home, 'ctl-tail');
    mkdirSync(ctl, { recursive: true });
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    const stop = allowAll(sidecar, S1);
    try {
      await request(sidecar, 'start', { session: S1, cwd: scripted.home.project });
      // 60 numbered lines, a pause at the gate, then a last line: the tail keeps only the last 40.
      const command = `for i in $(seq 1 60); do echo line $i; done; ${untilFile(join(ctl, 'go'))}; echo finished`;
      const input = JSON.stringify({ command, description: 'print, wait, finish', run_in_background: true });
      await request(sidecar, 'exec', { session: S1, turn: 't1', prompt: `[tool Bash ${input}]` });
      const started = await event(sidecar, S1, 'task.started');
      const first = await event(sidecar, S1, 'task.output', (e) => e.tail.includes('line 60'));
      expect(first).toMatchObject({ turn: 't1', taskId: started.taskId, toolUseId: started.toolUseId });
      expect(first.tail.split('\n').filter((l) => l !== '')).toEqual(Array.from({ length: 40 }, (_, i) => `line ${i + 21}`));
      expect(eventsOf(sidecar, S1, 'task.completed')).toEqual([]);
      writeFileSync(join(ctl, 'go'), '');
      const last = await event(sidecar, S1, 'task.output', (e) => e.tail.includes('finished'));
      // Claude Code may append its own "[exited with code 0]" once the command ended.
      expect(last.tail).toMatch(/line 60\nfinished\n(\n?\[exited with code 0\]\n?)?$/);
      expect(await turnEnd(sidecar, S1, 't1')).toMatchObject({ kind: 'turn.completed' });
      // Each payload is news: the same tail is never sent twice.
      const tails = eventsOf(sidecar, S1, 'task.output').map((e) => e.tail);
      expect(new Set(tails).size).toBe(tails.length);
    } finally {
      stop();
      await request(sidecar, 'close', { session: S1 });
      expect(await sidecar.end()).toBe(0);
    }
  }, 120_000);
});
