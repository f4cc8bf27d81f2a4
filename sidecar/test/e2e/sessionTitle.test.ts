// A renamed session's name comes back from the claude CLI as system/session_title_changed (not declared in
// sdk.d.ts) when the session is resumed: it is the session's title, never an unknown row. The real SDK and claude
// CLI against the scripted fake Messages API on 127.0.0.1, with a temp HOME / CLAUDE_CONFIG_DIR.
import { describe, expect, it } from 'vitest';
import { Mapper } from '../../src/mapper/mapper.js';
import { fixedClock } from '../helpers/clock.js';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { events, request, turnEnd } from '../helpers/sessionLines.js';
import { spawnSidecar } from '../helpers/sidecarProcess.js';

const S = 'd1d1d1d1-1111-4111-8111-111111111111';
const TITLE = 'Apples and pears';

const scripted = useScriptedClaude('baton-session-title-');

describe('a renamed session', () => {
  it('is named by the CLI on its next turn, with no unknown event', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    expect(await request(sidecar, 'start', { session: S, cwd: scripted.home.project })).toMatchObject({ type: 'ok' });
    await request(sidecar, 'exec', { session: S, turn: 't1', prompt: 'first' });
    expect(await turnEnd(sidecar, S, 't1')).toMatchObject({ kind: 'turn.completed' });
    await request(sidecar, 'close', { session: S });
    expect(await request(sidecar, 'rename_session', { session: S, title: TITLE, cwd: scripted.home.project })).toMatchObject({ type: 'ok' });

    // Resumed, the CLI announces the name as it starts, before the turn's result: by the turn's end it is mapped.
    expect(await request(sidecar, 'start', { session: S, cwd: scripted.home.project, resume: true })).toMatchObject({ type: 'ok' });
    await request(sidecar, 'exec', { session: S, turn: 't2', prompt: 'second' });
    expect(await turnEnd(sidecar, S, 't2')).toMatchObject({ kind: 'turn.completed' });
    await request(sidecar, 'close', { session: S });
    expect(await sidecar.end()).toBe(0);

    const unknowns = events(sidecar, S).filter((e) => e.kind === 'unknown');
    expect(unknowns).toEqual([]);
    const resumedAt = events(sidecar, S).findIndex((e) => e.kind === 'session.started' && e.resumed);
    const titles = events(sidecar, S)
      .slice(resumedAt)
      .flatMap((e) => (e.kind === 'session.updated' && e.title !== undefined ? [e.title] : []));
    expect(titles).toContain(TITLE);
  });

  it('maps the message to the session title', () => {
    const message = { type: 'system', subtype: 'session_title_changed', title: TITLE, uuid: 'u1', session_id: S };
    expect(new Mapper(S, fixedClock()).map(message)).toMatchObject([{ kind: 'session.updated', title: TITLE }]);
  });
});
