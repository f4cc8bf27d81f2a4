// History maps like live, through the real SDK and claude CLI against the scripted Messages API: a subagent's work
// nested under its Agent call (same parentToolUseId), and an edit's text before (read from the transcript's
// toolUseResult), the same events the live session sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/protocol/events.js';
import { okPayloads } from '../../src/protocol/schemas.js';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { spawnSidecar } from '../helpers/sidecarProcess.js';
import { allowAll, events, request, turnEnd } from '../helpers/sessionLines.js';

const S = 'c0c0c0c0-0000-4000-8000-000000000001';
const scripted = useScriptedClaude();

/** What both live and history carry for the conversation's content. */
function content(list: readonly Event[]): string[] {
  return list.flatMap((e) => {
    switch (e.kind) {
      case 'tool.started':
        return [`started ${e.name} ${e.toolUseId} under ${e.parentToolUseId ?? '-'}`];
      case 'tool.completed':
        return [`completed ${e.toolUseId} ${e.output.slice(0, 40)} before=${e.fileBefore === undefined ? '-' : JSON.stringify(e.fileBefore)}`];
      case 'message.completed':
        return e.role === 'assistant' ? [`reply ${e.text.slice(0, 40)} under ${e.parentToolUseId ?? '-'}`] : [];
      default:
        return [];
    }
  });
}

describe('history maps like live', () => {
  it("nests a subagent's work under its call and keeps an edit's text before", async () => {
    writeFileSync(join(scripted.home.project, 'notes.txt'), 'Release notes: faster.\n');
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    const stop = allowAll(sidecar, S);
    try {
      await request(sidecar, 'start', { session: S, cwd: scripted.home.project });
      const edit = { file_path: join(scripted.home.project, 'notes.txt'), old_string: 'faster', new_string: 'much faster' };
      await request(sidecar, 'exec', { session: S, turn: 't1', prompt: `[tool Edit ${JSON.stringify(edit)}]` });
      await turnEnd(sidecar, S, 't1');
      const agent = { description: 'look around', prompt: '[bash echo from the agent]', subagent_type: 'general-purpose' };
      await request(sidecar, 'exec', { session: S, turn: 't2', prompt: `[tool Agent ${JSON.stringify(agent)}]` });
      await turnEnd(sidecar, S, 't2');
      const live = content(events(sidecar, S));
      expect(live.some((l) => / under toolu/.test(l))).toBe(true);
      expect(live.some((l) => l.includes('before={"path"'))).toBe(true);

      const reply = await request(sidecar, 'history', { session: S, cwd: scripted.home.project });
      const past = okPayloads.history.parse(reply.type === 'ok' ? reply.payload : undefined).events;
      // The same events; history puts a subagent's right after its call (live, an agent running in the background
      // sends them after the call's result).
      expect(content(past).sort()).toEqual([...live].sort());
      const call = past.findIndex((e) => e.kind === 'tool.started' && e.name === 'Agent');
      const nested = past.flatMap((e, i) => ('parentToolUseId' in e && e.parentToolUseId !== undefined ? [i] : []));
      expect(nested.length).toBeGreaterThan(0);
      expect(Math.min(...nested)).toBe(call + 1);
    } finally {
      stop();
      await request(sidecar, 'close', { session: S });
      expect(await sidecar.end()).toBe(0);
    }
  }, 120_000);
});
