// Issue 24, item 4, on the real SDK and claude CLI against the scripted Messages API: a plain deny is the
// terminal's "No" (Claude stops: the second tool is never asked, no follow-up request, the turn ends once, as
// completed), a deny with a message goes back as the tool's result and Claude carries on, and a reopened session
// reads the refused calls as denied, not failed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Event, EventOf } from '../../src/protocol/events.js';
import { okPayloads, type OutputLine } from '../../src/protocol/schemas.js';
import { PROTOCOL_VERSION } from '../../src/protocol/version.js';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { type SidecarProcess, spawnSidecar } from '../helpers/sidecarProcess.js';

const SESSION = 'd0d0d0d0-0000-4000-8000-000000000024';
const MESSAGES = 'POST /v1/messages?beta=true';
const TOOL_RESULTS = 'Tool results: ';
const PLAIN =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

const scripted = useScriptedClaude();
let requestId = 0;

async function request(sidecar: SidecarProcess, type: string, payload: object): Promise<OutputLine> {
  const id = `r${++requestId}`;
  sidecar.send({ v: PROTOCOL_VERSION, id, type, payload });
  return sidecar.reply(id, 60_000);
}

function events(sidecar: SidecarProcess): Event[] {
  return sidecar.lines.flatMap((l) => (l.type === 'event' ? [l.event] : []));
}

function ofTurn<K extends Event['kind']>(sidecar: SidecarProcess, kind: K, turn: string): Array<EventOf<K>> {
  return events(sidecar).filter((e): e is EventOf<K> => e.kind === kind && e.turn === turn);
}

const isEnd = (e: Event) => e.kind === 'turn.completed' || e.kind === 'turn.failed' || e.kind === 'turn.canceled';

/** The n-th permission request of the turn, or the turn's end if that comes first. */
async function nextAskOrEnd(sidecar: SidecarProcess, turn: string, n: number): Promise<Event> {
  const line = await sidecar.waitFor((l) => {
    if (l.type !== 'event' || l.event.turn !== turn) return false;
    if (isEnd(l.event)) return true;
    return l.event.kind === 'permission.requested' && ofTurn(sidecar, 'permission.requested', turn).indexOf(l.event) === n - 1;
  }, 60_000);
  return (line as Extract<OutputLine, { type: 'event' }>).event;
}

const endOf = async (sidecar: SidecarProcess, turn: string) =>
  ((await sidecar.waitFor((l) => l.type === 'event' && l.event.turn === turn && isEnd(l.event), 60_000)) as Extract<OutputLine, { type: 'event' }>).event;

describe('deny', () => {
  it('a plain deny stops Claude; a deny with a message goes back; history reads both as denied', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    await request(sidecar, 'start', { session: SESSION, cwd: scripted.home.project, permissionMode: 'default' });

    // The model asks for two Writes in one reply.
    const before = scripted.api.requests().filter((r) => r === MESSAGES).length;
    await request(sidecar, 'exec', { session: SESSION, turn: 'plain', prompt: '[write a.txt one] [write b.txt two]' });
    const ask = await nextAskOrEnd(sidecar, 'plain', 1);
    expect(ask).toMatchObject({ kind: 'permission.requested', toolName: 'Write' });
    await request(sidecar, 'permission', { session: SESSION, requestId: (ask as EventOf<'permission.requested'>).requestId, verdict: 'deny' });
    // Claude stops: the turn ends without the second Write being asked.
    const end = await nextAskOrEnd(sidecar, 'plain', 2);
    expect(end).toMatchObject({ kind: 'turn.completed', stopReason: 'tool_denied' });
    expect(ofTurn(sidecar, 'permission.requested', 'plain')).toHaveLength(1);
    // No follow-up request: the model never saw the tool results in this turn.
    expect(scripted.api.requests().filter((r) => r === MESSAGES).length - before).toBe(1);
    const said = ofTurn(sidecar, 'message.completed', 'plain').map((e) => `${e.role}:${e.text}`);
    expect(said).toEqual(["assistant:I'll do that."]);
    expect(ofTurn(sidecar, 'tool.failed', 'plain').map((e) => e.denied)).toEqual([true, true]);
    // Claude Code's own words went to the model (the tool's result); the settlement carries no message of the person's.
    expect(ofTurn(sidecar, 'tool.failed', 'plain').map((e) => e.error)).toEqual([PLAIN, PLAIN]);
    expect(ofTurn(sidecar, 'permission.settled', 'plain')).toEqual([expect.objectContaining({ verdict: 'deny', by: 'user' })]);
    expect(ofTurn(sidecar, 'permission.settled', 'plain')[0]?.message).toBeUndefined();

    // A deny with a message: it reaches the model as the tool's result, and Claude carries on (both Writes asked).
    await request(sidecar, 'exec', { session: SESSION, turn: 'told', prompt: '[write c.txt three] [write d.txt four]' });
    for (const n of [1, 2]) {
      const next = await nextAskOrEnd(sidecar, 'told', n);
      expect(next).toMatchObject({ kind: 'permission.requested' });
      const id = (next as EventOf<'permission.requested'>).requestId;
      await request(sidecar, 'permission', { session: SESSION, requestId: id, verdict: 'deny', message: `Use e${n}.txt instead` });
    }
    expect(await endOf(sidecar, 'told')).toMatchObject({
      kind: 'turn.completed',
      result: `${TOOL_RESULTS}[error] Use e1.txt instead | [error] Use e2.txt instead`,
    });
    expect(ofTurn(sidecar, 'tool.failed', 'told').map((e) => [e.error, e.denied])).toEqual([
      ['Use e1.txt instead', true],
      ['Use e2.txt instead', true],
    ]);
    for (const file of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) expect(existsSync(join(scripted.home.project, file))).toBe(false);
    for (const turn of ['plain', 'told']) expect(events(sidecar).filter((e) => e.turn === turn && isEnd(e))).toHaveLength(1);

    // Reopened: the transcript's refused calls read denied, as live, and the stop's mark is no "canceled".
    await request(sidecar, 'close', { session: SESSION });
    const history = await request(sidecar, 'history', { session: SESSION, cwd: scripted.home.project });
    const past = okPayloads.history.parse(history.type === 'ok' ? history.payload : undefined).events;
    const failed = past.filter((e): e is EventOf<'tool.failed'> => e.kind === 'tool.failed');
    expect(failed.map((e) => [e.name, e.denied])).toEqual([
      ['Write', true],
      ['Write', true],
      ['Write', true],
      ['Write', true],
    ]);
    const users = past.filter((e) => e.kind === 'message.completed' && e.role === 'user');
    expect(users).toEqual([]);
    expect(await sidecar.end()).toBe(0);
    expect(sidecar.invalid).toEqual([]);
  });
});
