// A live /compact through the real SDK and claude CLI against the scripted API maps like its history: the
// "Conversation compacted" marker and the summary Claude Code wrote, never a person's prompt.
import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/protocol/events.js';
import { okPayloads } from '../../src/protocol/schemas.js';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { spawnSidecar } from '../helpers/sidecarProcess.js';
import { events, request, turnEnd } from '../helpers/sessionLines.js';

const S = 'c4c4c4c4-0000-4000-8000-000000000001';
const scripted = useScriptedClaude();

/**
 * The compaction's rows and every user message that is not a prompt (the console shows one as the person's
 * words). Prompts are left out: live, `/compact` is the turn's prompt; the transcript files it as a local command.
 */
function rows(list: readonly Event[]): string[] {
  return list.flatMap((e) => {
    switch (e.kind) {
      case 'message.completed':
        return e.role === 'user' ? [`user ${e.text.slice(0, 40)}`] : [];
      case 'session.compacted':
        return [`compacted ${e.trigger}`];
      case 'compact.summary':
        return ['summary'];
      default:
        return [];
    }
  });
}

describe('a live /compact', () => {
  it('shows the summary under its marker, as history does, never as a prompt', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    try {
      await request(sidecar, 'start', { session: S, cwd: scripted.home.project });
      for (const [turn, prompt] of [
        ['t1', 'alpha first'],
        ['t2', '/compact'],
        ['t3', 'bravo second'],
      ] as const) {
        await request(sidecar, 'exec', { session: S, turn, prompt });
        await turnEnd(sidecar, S, turn);
      }
      const live = rows(events(sidecar, S));
      expect(live).toEqual(['compacted manual', 'summary']);
      const prompts = events(sidecar, S).flatMap((e) => (e.kind === 'turn.started' ? [e.prompt] : []));
      expect(prompts).toEqual(['alpha first', '/compact', 'bravo second']);
      const reply = await request(sidecar, 'history', { session: S, cwd: scripted.home.project });
      const past = okPayloads.history.parse(reply.type === 'ok' ? reply.payload : undefined).events;
      expect(rows(past)).toEqual(live);
    } finally {
      await request(sidecar, 'close', { session: S });
      expect(await sidecar.end()).toBe(0);
    }
  }, 180_000);
});
