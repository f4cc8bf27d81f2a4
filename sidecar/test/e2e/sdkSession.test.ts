// The sidecar process with the real SDK and the real claude CLI against the scripted fake Messages API
// (app/internal/fakeapi) on 127.0.0.1, with a temp HOME / CLAUDE_CONFIG_DIR. Nothing leaves the machine.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Event, EventOf } from '../../src/protocol/events.js';
import { okPayloads, type OutputLine } from '../../src/protocol/schemas.js';
import { PROTOCOL_VERSION } from '../../src/protocol/version.js';
import { CLAUDE_BINARY, REPO_ROOT } from '../helpers/fakeApi.js';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { type SidecarProcess, spawnSidecar } from '../helpers/sidecarProcess.js';

const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';
const S3 = '33333333-3333-4333-8333-333333333333';
const S4 = '44444444-4444-4444-8444-444444444444';
const FORK = '55555555-5555-4555-8555-555555555555';
const FORK_AT = '66666666-6666-4666-8666-666666666666';
const MISSING = '77777777-7777-4777-8777-777777777777';
const S5 = '88888888-8888-4888-8888-888888888888';
const S6 = '99999999-9999-4999-8999-999999999999';
const S7 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const S8 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const BINARY = process.env['BATON_SIDECAR_BINARY'] ?? join(REPO_ROOT, 'build/bin/baton-sidecar');

const scripted = useScriptedClaude();
let requestId = 0;

function events(sidecar: SidecarProcess): Event[] {
  return sidecar.lines.flatMap((l) => (l.type === 'event' ? [l.event] : []));
}

function eventsOf<K extends Event['kind']>(sidecar: SidecarProcess, kind: K, session?: string): Array<EventOf<K>> {
  return events(sidecar).filter((e): e is EventOf<K> => e.kind === kind && (session === undefined || e.session === session));
}

async function request(sidecar: SidecarProcess, type: string, payload: object, timeoutMs = 60_000): Promise<OutputLine> {
  const id = `r${++requestId}`;
  sidecar.send({ v: PROTOCOL_VERSION, id, type, payload });
  return sidecar.reply(id, timeoutMs);
}

function event<K extends Event['kind']>(sidecar: SidecarProcess, kind: K, match: (e: EventOf<K>) => boolean = () => true): Promise<EventOf<K>> {
  return sidecar
    .waitFor((l) => l.type === 'event' && l.event.kind === kind && match(l.event as EventOf<K>), 60_000)
    .then((l) => (l as Extract<OutputLine, { type: 'event' }>).event as EventOf<K>);
}

const turnEnd = (sidecar: SidecarProcess, session: string, turn: string) =>
  sidecar.waitFor(
    (l) =>
      l.type === 'event' && l.event.session === session && l.event.turn === turn && ['turn.completed', 'turn.failed', 'turn.canceled'].includes(l.event.kind),
    60_000,
  );

/** Processes whose parent is pid (the claude CLI children of the sidecar). */
function childPids(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends the sidecar by closing stdin; checks the exit code, stdout hygiene, that its CLI children are gone,
 * and that every turn ended exactly once.
 */
async function finish(sidecar: SidecarProcess): Promise<void> {
  const children = childPids(sidecar.child.pid!);
  expect(await sidecar.end()).toBe(0);
  expect(sidecar.invalid).toEqual([]);
  for (const pid of children) expect(alive(pid), `claude child ${pid} still running`).toBe(false);
  const ends = new Map<string, string[]>();
  for (const e of events(sidecar)) {
    if (e.turn === undefined || !['turn.completed', 'turn.failed', 'turn.canceled'].includes(e.kind)) continue;
    const key = `${e.session}/${e.turn}`;
    ends.set(key, [...(ends.get(key) ?? []), e.kind]);
  }
  for (const e of eventsOf(sidecar, 'turn.started')) expect(ends.get(`${e.session}/${e.turn}`), `${e.turn} ends once`).toHaveLength(1);
  for (const [key, kinds] of ends) expect(kinds, `${key} ends once`).toHaveLength(1);
}

describe('sessions through the real SDK', () => {
  it('queues turns in order, settles permissions once and closes with an ack', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    const started = await request(sidecar, 'start', { session: S1, cwd: scripted.home.project });
    expect(started).toMatchObject({ type: 'ok', payload: { session: S1, executable: CLAUDE_BINARY } });
    expect(eventsOf(sidecar, 'session.started')).toMatchObject([{ session: S1, model: 'default', permissionMode: 'default', resumed: false }]);

    expect(await request(sidecar, 'exec', { session: S1, turn: 't1', prompt: 'First prompt' })).toMatchObject({ payload: { queued: false } });
    expect(await request(sidecar, 'exec', { session: S1, turn: 't2', prompt: '[recall] second' })).toMatchObject({ payload: { queued: true } });
    expect(await request(sidecar, 'exec', { session: S1, turn: 't2', prompt: 'dup' })).toMatchObject({ type: 'error', error: { code: 'bad_request' } });
    await turnEnd(sidecar, S1, 't2');
    const kinds = events(sidecar)
      .filter((e) => e.turn === 't1' || e.turn === 't2')
      .map((e) => `${e.turn}:${e.kind}`);
    expect(kinds.indexOf('t2:turn.started')).toBeGreaterThan(kinds.indexOf('t1:turn.completed'));
    const completed = eventsOf(sidecar, 'turn.completed');
    expect(completed.map((e) => [e.turn, e.result])).toEqual([
      ['t1', 'You said: First prompt'],
      // The second prompt reached the CLI as its own turn: it sees the first as an earlier message.
      ['t2', 'Earlier you said: First prompt'],
    ]);
    const t1Started = eventsOf(sidecar, 'turn.started').find((e) => e.turn === 't1');
    expect(t1Started?.uuid).toMatch(/^[0-9a-f-]{36}$/);

    const exec3 = request(sidecar, 'exec', { session: S1, turn: 't3', prompt: '[write allowed.txt hello]' });
    const ask = await event(sidecar, 'permission.requested', (e) => e.turn === 't3');
    expect(ask).toMatchObject({ toolName: 'Write', session: S1 });
    await exec3;
    expect(await request(sidecar, 'permission', { session: S1, requestId: ask.requestId, verdict: 'allow' })).toMatchObject({ payload: { settled: true } });
    expect(await request(sidecar, 'permission', { session: S1, requestId: ask.requestId, verdict: 'deny' })).toMatchObject({ payload: { settled: false } });
    expect(await request(sidecar, 'permission', { session: S1, requestId: 'nope', verdict: 'deny' })).toMatchObject({ error: { code: 'unknown_request' } });
    expect(await turnEnd(sidecar, S1, 't3')).toMatchObject({ event: { kind: 'turn.completed' } });
    expect(readFileSync(join(scripted.home.project, 'allowed.txt'), 'utf8')).toBe('hello\n');
    expect(eventsOf(sidecar, 'permission.settled').filter((e) => e.requestId === ask.requestId)).toHaveLength(1);
    expect(eventsOf(sidecar, 'tool.completed').find((e) => e.name === 'Write')?.fileBefore).toMatchObject({ text: null });
    // File checkpoints: rewinding to the prompt that wrote the file takes the file away again.
    const t3 = eventsOf(sidecar, 'turn.started').find((e) => e.turn === 't3');
    const dryRun = await request(sidecar, 'rewind_files', { session: S1, message: t3?.uuid, dryRun: true });
    expect(dryRun).toMatchObject({ type: 'ok', payload: { canRewind: true, filesChanged: [join(scripted.home.project, 'allowed.txt')] } });
    expect(existsSync(join(scripted.home.project, 'allowed.txt'))).toBe(true);
    // The real rewind says which files it restored (Claude Code's own answer lists none).
    expect(await request(sidecar, 'rewind_files', { session: S1, message: t3?.uuid, dryRun: false })).toMatchObject({
      payload: { canRewind: true, filesChanged: [join(scripted.home.project, 'allowed.txt')] },
    });
    expect(existsSync(join(scripted.home.project, 'allowed.txt'))).toBe(false);

    const exec4 = request(sidecar, 'exec', { session: S1, turn: 't4', prompt: '[write denied.txt nope]' });
    const ask4 = await event(sidecar, 'permission.requested', (e) => e.turn === 't4');
    await exec4;
    await request(sidecar, 'permission', { session: S1, requestId: ask4.requestId, verdict: 'deny', message: 'Not that file', by: 'policy' });
    await turnEnd(sidecar, S1, 't4');
    expect(eventsOf(sidecar, 'tool.failed').find((e) => e.turn === 't4')).toMatchObject({ name: 'Write', error: 'Not that file' });
    expect(eventsOf(sidecar, 'permission.settled').find((e) => e.requestId === ask4.requestId)).toMatchObject({ verdict: 'deny', by: 'policy' });
    expect(existsSync(join(scripted.home.project, 'denied.txt'))).toBe(false);

    expect(await request(sidecar, 'set_permission_mode', { session: S1, mode: 'acceptEdits' })).toMatchObject({ payload: { mode: 'acceptEdits' } });
    expect(await request(sidecar, 'set_model', { session: S1, model: 'sonnet' })).toMatchObject({ type: 'ok' });
    const changes = eventsOf(sidecar, 'session.updated').filter((e) => e.permissionMode !== undefined || e.model !== undefined);
    expect(changes.map((e) => e.permissionMode ?? e.model)).toEqual(['acceptEdits', 'sonnet']);

    const close = request(sidecar, 'close', { session: S1 });
    const closeReply = await close;
    expect(closeReply).toMatchObject({ type: 'ok' });
    const closedAt = sidecar.lines.findIndex((l) => l.type === 'event' && l.event.kind === 'session.closed');
    expect(closedAt).toBeGreaterThan(-1);
    expect(closedAt).toBeLessThan(sidecar.lines.indexOf(closeReply));
    expect(await request(sidecar, 'exec', { session: S1, turn: 't5', prompt: 'x' })).toMatchObject({ error: { code: 'unknown_session' } });
    await finish(sidecar);
  });

  it('cancels queued and running turns, and an interrupt settles a pending permission', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    await request(sidecar, 'start', { session: S2, cwd: scripted.home.project });
    await request(sidecar, 'exec', { session: S2, turn: 'slow', prompt: '[slow] a long story' });
    await request(sidecar, 'exec', { session: S2, turn: 'next', prompt: 'after the story' });
    await request(sidecar, 'exec', { session: S2, turn: 'dropped', prompt: 'never runs' });
    expect(await request(sidecar, 'cancel', { session: S2, turn: 'dropped', interruptBudgetMs: 3000, drainBudgetMs: 3000 })).toMatchObject({
      payload: { disposition: 'pre_accept', turn: 'dropped', phase: 'queued' },
    });
    expect(await request(sidecar, 'cancel', { session: S2, turn: 'who', interruptBudgetMs: 3000, drainBudgetMs: 3000 })).toMatchObject({
      payload: { disposition: 'absent', turn: 'who', phase: 'none' },
    });
    expect(await request(sidecar, 'cancel', { session: S2, turn: 'who' })).toMatchObject({ error: { code: 'bad_request' } });
    await event(sidecar, 'message.delta', (e) => e.turn === 'slow');
    expect(await request(sidecar, 'cancel', { session: S2, interruptBudgetMs: 3000, drainBudgetMs: 3000 })).toMatchObject({
      payload: { disposition: 'provider_active', turn: 'slow', phase: 'dispatched', forced: false },
    });
    expect(await turnEnd(sidecar, S2, 'slow')).toMatchObject({ event: { kind: 'turn.canceled', disposition: 'provider_active', forced: false } });
    expect(await turnEnd(sidecar, S2, 'next')).toMatchObject({ event: { kind: 'turn.completed' } });
    expect(await request(sidecar, 'cancel', { session: S2, turn: 'slow', interruptBudgetMs: 3000, drainBudgetMs: 3000 })).toMatchObject({
      payload: { disposition: 'mismatch', turn: 'slow', phase: 'finished' },
    });
    expect(eventsOf(sidecar, 'turn.canceled').find((e) => e.turn === 'dropped')).toMatchObject({ disposition: 'pre_accept' });
    expect(eventsOf(sidecar, 'turn.started').map((e) => e.turn)).toEqual(['slow', 'next']);

    await request(sidecar, 'exec', { session: S2, turn: 'ask', prompt: '[write pending.txt y]' });
    const ask = await event(sidecar, 'permission.requested', (e) => e.turn === 'ask');
    expect(await request(sidecar, 'cancel', { session: S2, turn: 'ask', interruptBudgetMs: 3000, drainBudgetMs: 3000 })).toMatchObject({
      payload: { disposition: 'provider_active' },
    });
    expect(eventsOf(sidecar, 'permission.settled').find((e) => e.requestId === ask.requestId)).toMatchObject({ verdict: 'deny', by: 'interrupt' });
    expect(await request(sidecar, 'permission', { session: S2, requestId: ask.requestId, verdict: 'allow' })).toMatchObject({ payload: { settled: false } });
    expect(await turnEnd(sidecar, S2, 'ask')).toMatchObject({ event: { kind: 'turn.canceled' } });
    expect(existsSync(join(scripted.home.project, 'pending.txt'))).toBe(false);
    expect(await request(sidecar, 'cancel', { session: S2, interruptBudgetMs: 3000, drainBudgetMs: 3000 })).toMatchObject({
      payload: { disposition: 'absent', phase: 'none' },
    });
    await request(sidecar, 'close', { session: S2 });
    await finish(sidecar);
  });

  it("resumes and forks under the host's ids, keeping the conversation; lists and maps history", async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    await request(sidecar, 'start', { session: S3, cwd: scripted.home.project });
    await request(sidecar, 'exec', { session: S3, turn: 'a', prompt: 'Remember apples' });
    await turnEnd(sidecar, S3, 'a');
    const firstAnswer = eventsOf(sidecar, 'message.completed', S3).find((e) => e.role === 'assistant');
    await request(sidecar, 'close', { session: S3 });

    expect(await request(sidecar, 'start', { session: S3, cwd: scripted.home.project, resume: true })).toMatchObject({ type: 'ok' });
    await request(sidecar, 'exec', { session: S3, turn: 'b', prompt: '[recall] after resume' });
    expect(await turnEnd(sidecar, S3, 'b')).toMatchObject({ event: { result: 'Earlier you said: Remember apples' } });
    await request(sidecar, 'close', { session: S3 });

    // Two sessions at once in one sidecar: a full fork and a fork at the first answer.
    const forks = await Promise.all([
      request(sidecar, 'start', { session: FORK, cwd: scripted.home.project, forkFrom: S3 }),
      request(sidecar, 'start', { session: FORK_AT, cwd: scripted.home.project, forkFrom: S3, at: firstAnswer!.uuid }),
    ]);
    expect(forks).toMatchObject([{ type: 'ok' }, { type: 'ok' }]);
    await request(sidecar, 'exec', { session: FORK, turn: 'f', prompt: '[recall] in the fork' });
    await request(sidecar, 'exec', { session: FORK_AT, turn: 'g', prompt: '[recall] in the early fork' });
    expect(await turnEnd(sidecar, FORK, 'f')).toMatchObject({
      event: { session: FORK, result: 'Earlier you said: Remember apples | [recall] after resume' },
    });
    expect(await turnEnd(sidecar, FORK_AT, 'g')).toMatchObject({ event: { session: FORK_AT, result: 'Earlier you said: Remember apples' } });
    expect(eventsOf(sidecar, 'session.started', FORK)).toMatchObject([{ forkedFrom: S3, resumed: false }]);
    expect(eventsOf(sidecar, 'session.started', S3).map((e) => e.resumed)).toEqual([false, true]);
    await Promise.all([request(sidecar, 'close', { session: FORK }), request(sidecar, 'close', { session: FORK_AT })]);

    const listed = await request(sidecar, 'list_sessions', { cwd: scripted.home.project });
    const { sessions } = okPayloads.list_sessions.parse(listed.type === 'ok' ? listed.payload : undefined);
    expect(sessions.map((s) => s.session)).toEqual(expect.arrayContaining([S3, FORK, FORK_AT]));
    expect(sessions.map((s) => s.lastModified)).toEqual([...sessions.map((s) => s.lastModified)].sort((a, b) => b - a));
    expect(sessions.find((s) => s.session === FORK)?.cwd).toBe(scripted.home.project);
    // The title is the first prompt, not the latest one (the SDK's summary follows the latest prompt).
    expect(sessions.find((s) => s.session === S3)?.title).toBe('Remember apples');

    // A rename is the session's own title from then on, and an unknown session is an error.
    expect(await request(sidecar, 'rename_session', { session: FORK, title: '  Apples, forked ', cwd: scripted.home.project })).toMatchObject({ type: 'ok' });
    const renamed = await request(sidecar, 'list_sessions', { cwd: scripted.home.project });
    const after = okPayloads.list_sessions.parse(renamed.type === 'ok' ? renamed.payload : undefined).sessions;
    expect(after.find((s) => s.session === FORK)?.title).toBe('Apples, forked');
    expect(after.find((s) => s.session === S3)?.title).toBe('Remember apples');
    expect(await request(sidecar, 'rename_session', { session: MISSING, title: 'x' })).toMatchObject({ type: 'error' });

    const history = await request(sidecar, 'history', { session: FORK, cwd: scripted.home.project });
    const historyEvents = okPayloads.history.parse(history.type === 'ok' ? history.payload : undefined).events;
    const texts = historyEvents.flatMap((e) =>
      e.kind === 'message.completed' ? [`${e.role}:${e.text}`] : e.kind === 'turn.started' ? [`prompt:${e.prompt}`] : [],
    );
    expect(texts).toEqual([
      'prompt:Remember apples',
      'assistant:You said: Remember apples',
      'prompt:[recall] after resume',
      'assistant:Earlier you said: Remember apples',
      'prompt:[recall] in the fork',
      'assistant:Earlier you said: Remember apples | [recall] after resume',
    ]);
    // Each history turn is named by its prompt's uuid, the one turn.started reported live.
    const forkPrompt = historyEvents.find((e) => e.kind === 'turn.started' && e.prompt === '[recall] in the fork');
    const liveForkPrompt = eventsOf(sidecar, 'turn.started', FORK).find((e) => e.turn === 'f');
    expect(forkPrompt).toMatchObject({ uuid: liveForkPrompt?.uuid, turn: liveForkPrompt?.uuid });
    expect(historyEvents.every((e) => e.session === FORK && e.ephemeral === undefined)).toBe(true);
    expect(await request(sidecar, 'history', { session: MISSING })).toMatchObject({ payload: { events: [] } });
    await finish(sidecar);
  });
});

describe('failures', () => {
  it('fails the turn when the CLI dies, and the next prompt resumes the session in a fresh CLI', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    await request(sidecar, 'start', { session: S4, cwd: scripted.home.project });
    expect(await request(sidecar, 'start', { session: S4, cwd: scripted.home.project })).toMatchObject({ error: { code: 'session_exists' } });
    await request(sidecar, 'exec', { session: S4, turn: 'k', prompt: '[slow] about to crash' });
    await event(sidecar, 'message.delta', (e) => e.turn === 'k');
    const killed = childPids(sidecar.child.pid!);
    for (const pid of killed) process.kill(pid, 'SIGKILL');
    const failed = await turnEnd(sidecar, S4, 'k');
    expect(failed).toMatchObject({ event: { kind: 'turn.failed', code: 'sdk_error' } });
    expect(JSON.stringify(failed)).not.toMatch(/stderr/);
    await request(sidecar, 'exec', { session: S4, turn: 'l', prompt: '[recall] still there' });
    expect(await turnEnd(sidecar, S4, 'l')).toMatchObject({ event: { kind: 'turn.completed' } });
    const recalled = eventsOf(sidecar, 'message.completed', S4).find((e) => e.turn === 'l' && e.role === 'assistant');
    expect(recalled?.text).toContain('[slow] about to crash');
    expect(childPids(sidecar.child.pid!).some((pid) => killed.includes(pid))).toBe(false);
    expect(eventsOf(sidecar, 'session.closed', S4)).toEqual([]);
    await request(sidecar, 'close', { session: S4 });

    // A resume of a session that does not exist fails start, says which session is not stored, and leaves no
    // events behind.
    const missing = await request(sidecar, 'start', { session: MISSING, cwd: scripted.home.project, resume: true });
    expect(missing).toMatchObject({ type: 'error', error: { code: 'session_not_found' } });
    expect((missing as { error: { message: string } }).error.message).toMatch(new RegExp(`no stored session ${MISSING}`));
    expect((missing as { error: { message: string } }).error.message).not.toMatch(/IS_SANDBOX/);
    expect(events(sidecar).filter((e) => e.session === MISSING)).toEqual([]);

    // An API authentication failure fails only the turn.
    await request(sidecar, 'start', { session: S5, cwd: scripted.home.project });
    await request(sidecar, 'exec', { session: S5, turn: 'auth', prompt: '[status 401] hello' });
    expect(await turnEnd(sidecar, S5, 'auth')).toMatchObject({ event: { kind: 'turn.failed', code: 'auth' } });
    await request(sidecar, 'close', { session: S5 });
    await finish(sidecar);
  });

  it.runIf(process.getuid?.() === 0)('starts as root outside a sandbox (without bypass mode)', async () => {
    const { IS_SANDBOX: _sandbox, ...env } = scripted.home.env(scripted.api.url);
    const sidecar = spawnSidecar({ env });
    expect(await request(sidecar, 'start', { session: S8, cwd: scripted.home.project })).toMatchObject({ type: 'ok' });
    await request(sidecar, 'exec', { session: S8, turn: 'root', prompt: 'hello as root' });
    expect(await turnEnd(sidecar, S8, 'root')).toMatchObject({ event: { kind: 'turn.completed', result: 'You said: hello as root' } });
    await finish(sidecar);
  });

  it('answers start with an explanation when the claude executable is missing', async () => {
    const sidecar = spawnSidecar({ env: { ...scripted.home.env(scripted.api.url), CLAUDE_CODE_EXECUTABLE: '/nonexistent/claude' } });
    const reply = await request(sidecar, 'start', { session: S6, cwd: scripted.home.project });
    expect(reply).toMatchObject({ type: 'error', error: { code: 'sdk_error' } });
    expect((reply as { error: { message: string } }).error.message).toMatch(/CLAUDE_CODE_EXECUTABLE/);
    await finish(sidecar);
  });

  it('closes running sessions and exits 0 when stdin closes', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    await request(sidecar, 'start', { session: S6, cwd: scripted.home.project });
    await request(sidecar, 'exec', { session: S6, turn: 'eof', prompt: '[slow] interrupted by EOF' });
    await event(sidecar, 'message.delta', (e) => e.turn === 'eof');
    await finish(sidecar);
    expect(eventsOf(sidecar, 'turn.canceled').find((e) => e.turn === 'eof')).toMatchObject({ disposition: 'provider_active' });
    expect(eventsOf(sidecar, 'session.closed')).toMatchObject([{ session: S6, reason: 'closed' }]);
  });
});

describe.runIf(existsSync(BINARY))('the compiled sidecar', () => {
  it("runs a real session with node hidden, using the host's executable", async () => {
    const env = { ...scripted.home.env(scripted.api.url), PATH: '/nonexistent' };
    const sidecar = spawnSidecar({ command: [BINARY], env });
    expect(await request(sidecar, 'start', { session: S7, cwd: scripted.home.project, executable: CLAUDE_BINARY })).toMatchObject({
      type: 'ok',
      payload: { executable: CLAUDE_BINARY },
    });
    await request(sidecar, 'exec', { session: S7, turn: 'bin', prompt: 'hello from the binary' });
    expect(await turnEnd(sidecar, S7, 'bin')).toMatchObject({ event: { kind: 'turn.completed', result: 'You said: hello from the binary' } });
    await request(sidecar, 'close', { session: S7 });
    await finish(sidecar);
  });
});
