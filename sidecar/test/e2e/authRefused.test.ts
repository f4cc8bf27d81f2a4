// A 401 from the Messages API fails the turn at once with `auth`, instead of the minutes Claude Code would spend
// retrying it. The real SDK and claude CLI, with its own retries on (CLAUDE_CODE_MAX_RETRIES=10, Claude Code's
// default: about three and a half minutes of backoff), against the scripted fake Messages API on 127.0.0.1, which
// answers every request of the turn with 401. The turn ends because of the CLI's first retry report, not a timer.
import { describe, expect, it } from 'vitest';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { events, eventsOf, request, turnEnd } from '../helpers/sessionLines.js';
import { spawnSidecar } from '../helpers/sidecarProcess.js';

const S = 'e1e1e1e1-1111-4111-8111-111111111111';

const scripted = useScriptedClaude('baton-auth-refused-');

describe('a refused credential', () => {
  it('fails the turn with auth at the first 401 retry, and the session carries on', async () => {
    const sidecar = spawnSidecar({ env: { ...scripted.home.env(scripted.api.url), CLAUDE_CODE_MAX_RETRIES: '10' } });
    expect(await request(sidecar, 'start', { session: S, cwd: scripted.home.project })).toMatchObject({ type: 'ok' });
    await request(sidecar, 'exec', { session: S, turn: 't1', prompt: '[status 401] hello' });
    const end = await turnEnd(sidecar, S, 't1');
    expect(end).toMatchObject({ kind: 'turn.failed', code: 'auth' });
    expect(end.kind === 'turn.failed' && end.message).toContain('HTTP 401');
    // Exactly one end for the turn, and the retry it stopped at is not shown as the session retrying.
    expect(events(sidecar, S).filter((e) => e.turn === 't1' && ['turn.completed', 'turn.failed', 'turn.canceled'].includes(e.kind))).toHaveLength(1);
    expect(eventsOf(sidecar, S, 'session.updated').filter((e) => e.status === 'retrying')).toEqual([]);

    // The next prompt runs on a fresh process, as after a cancel.
    await request(sidecar, 'exec', { session: S, turn: 't2', prompt: 'hello again' });
    expect(await turnEnd(sidecar, S, 't2')).toMatchObject({ kind: 'turn.completed', result: 'You said: hello again' });
    await request(sidecar, 'close', { session: S });
    expect(await sidecar.end()).toBe(0);
  });
});
