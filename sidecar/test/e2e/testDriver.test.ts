// The sidecar process end to end with the deterministic test driver (no SDK, no claude, no network): the
// stdio wiring, the rejection rules, the line bound and EOF. Runs from source under bun, and against the
// compiled binary too when it exists (npm run build), with node hidden from PATH.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutputLine } from '../../src/protocol/schemas.js';
import { PROTOCOL_VERSION } from '../../src/protocol/version.js';
import { REPO_ROOT, SIDECAR_ROOT } from '../helpers/fakeApi.js';
import { BUN, spawnSidecar } from '../helpers/sidecarProcess.js';
import { configDir, userLine } from '../helpers/transcriptFiles.js';

const SESSION = '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b';
const BINARY = process.env['BATON_SIDECAR_BINARY'] ?? join(REPO_ROOT, 'build/bin/baton-sidecar');

const targets: Array<{ name: string; command: string[]; env: NodeJS.ProcessEnv }> = [
  {
    name: 'from source (bun src/main.ts)',
    command: [BUN, join(SIDECAR_ROOT, 'src/main.ts')],
    env: { PATH: process.env['PATH'] ?? '', BATON_SIDECAR_TEST_DRIVER: '1' },
  },
];
if (existsSync(BINARY)) {
  // No node, no bun: the compiled binary must carry everything.
  targets.push({ name: `compiled (${BINARY})`, command: [BINARY], env: { PATH: '/nonexistent', BATON_SIDECAR_TEST_DRIVER: '1' } });
}

/** Polls check until it holds (the idle trim runs on its own, once the sidecar is quiet). */
async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const isEvent = (kind: string) => (l: OutputLine) => l.type === 'event' && l.event.kind === kind;
const events = (lines: OutputLine[]) => lines.flatMap((l) => (l.type === 'event' ? [l.event] : []));

describe.each(targets)('the sidecar $name', ({ command, env }) => {
  it('runs start → exec → close with the test driver', async () => {
    const sidecar = spawnSidecar({ command, env });
    sidecar.send({ v: PROTOCOL_VERSION, id: '1', type: 'start', payload: { session: SESSION, cwd: '/tmp/project', executable: '/opt/claude' } });
    expect(await sidecar.reply('1')).toEqual({ v: PROTOCOL_VERSION, id: '1', type: 'ok', payload: { session: SESSION, executable: 'test-driver' } });
    sidecar.send({ v: PROTOCOL_VERSION, id: '2', type: 'exec', payload: { session: SESSION, turn: 't1', prompt: 'Hello' } });
    expect(await sidecar.reply('2')).toMatchObject({ type: 'ok', payload: { queued: false } });
    await sidecar.waitFor(isEvent('turn.completed'));
    sidecar.send({ v: PROTOCOL_VERSION, id: '3', type: 'list_sessions', payload: {} });
    sidecar.send({ v: PROTOCOL_VERSION, id: '4', type: 'history', payload: { session: SESSION } });
    expect(await sidecar.reply('3')).toMatchObject({ type: 'ok', payload: { sessions: [] } });
    expect(await sidecar.reply('4')).toMatchObject({ type: 'ok', payload: { events: [] } });
    sidecar.send({ v: PROTOCOL_VERSION, id: '4b', type: 'rewind_files', payload: { session: SESSION, message: 'x', dryRun: true } });
    expect(await sidecar.reply('4b')).toMatchObject({ type: 'ok', payload: { canRewind: false } });
    sidecar.send({ v: PROTOCOL_VERSION, id: '5', type: 'close', payload: { session: SESSION } });
    await sidecar.reply('5');
    sidecar.send({ v: PROTOCOL_VERSION, id: '6', type: 'exec', payload: { session: SESSION, turn: 't2', prompt: 'late' } });
    expect(await sidecar.reply('6')).toMatchObject({ type: 'error', error: { code: 'unknown_session' } });
    expect(await sidecar.end()).toBe(0);

    expect(sidecar.invalid).toEqual([]);
    const turn = events(sidecar.lines).filter((e) => e.turn === 't1');
    expect(turn.map((e) => e.kind)).toEqual(['turn.started', 'message.delta', 'message.completed', 'turn.completed']);
    expect(turn[2]).toMatchObject({ role: 'assistant', text: 'Echo: Hello' });
    expect(turn[1]).toMatchObject({ ephemeral: true });
    const kinds = events(sidecar.lines).map((e) => e.kind);
    expect(kinds[0]).toBe('session.started');
    // session.closed goes out before close's ok.
    const closedAt = sidecar.lines.findIndex(isEvent('session.closed'));
    const okAt = sidecar.lines.findIndex((l) => 'id' in l && l.id === '5');
    expect(closedAt).toBeGreaterThan(-1);
    expect(closedAt).toBeLessThan(okAt);
  });

  it('rejects every invalid fixture line and keeps serving', async () => {
    const sidecar = spawnSidecar({ command, env });
    const invalid = readFileSync(join(SIDECAR_ROOT, 'testdata/protocol/invalid.ndjson'), 'utf8');
    sidecar.sendRaw(invalid.endsWith('\n') ? invalid : `${invalid}\n`);
    sidecar.send({ v: PROTOCOL_VERSION, id: 'after', type: 'list_sessions', payload: {} });
    await sidecar.reply('after');
    expect(await sidecar.end()).toBe(0);
    const codes = (id: string) => sidecar.lines.find((l) => 'id' in l && l.id === id);
    expect(codes('1')).toMatchObject({ type: 'error', error: { code: 'unsupported_version' } });
    expect(codes('2')).toMatchObject({ type: 'error', error: { code: 'unsupported_version' } });
    expect(codes('3')).toMatchObject({ type: 'error', error: { code: 'unsupported_version' } });
    expect(codes('4')).toMatchObject({ type: 'error', error: { code: 'bad_request' } });
    expect(codes('5')).toMatchObject({ type: 'error', error: { code: 'bad_request' } });
    expect(events(sidecar.lines).filter((e) => e.kind === 'protocol.error')).toMatchObject([{ code: 'bad_request', session: '' }]);
  });

  it('drops a 16 MiB line, reports line_too_long and serves the next request', async () => {
    const sidecar = spawnSidecar({ command, env });
    const chunk = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 16; i++) sidecar.sendRaw(chunk);
    sidecar.sendRaw('\n');
    sidecar.send({ v: PROTOCOL_VERSION, id: 'next', type: 'list_sessions', payload: {} });
    expect(await sidecar.reply('next')).toMatchObject({ type: 'ok' });
    expect(await sidecar.end()).toBe(0);
    expect(events(sidecar.lines).filter((e) => e.kind === 'protocol.error')).toMatchObject([{ code: 'line_too_long' }]);
  });

  it('answers an overlong request that names its id with line_too_long, at once', async () => {
    const sidecar = spawnSidecar({ command, env });
    sidecar.sendRaw(`{"v":${PROTOCOL_VERSION},"id":"huge","type":"exec","payload":{"session":"${SESSION}","prompt":"`);
    const chunk = '<'.repeat(1024 * 1024);
    for (let i = 0; i < 9; i++) sidecar.sendRaw(chunk);
    sidecar.sendRaw('"}}\n');
    expect(await sidecar.reply('huge')).toMatchObject({ type: 'error', error: { code: 'line_too_long' } });
    expect(await sidecar.end()).toBe(0);
    expect(events(sidecar.lines).filter((e) => e.kind === 'protocol.error')).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('lets its read-only file pages go once idle after a turn', async () => {
    const sidecar = spawnSidecar({ command, env: { ...env, BATON_SIDECAR_PAGE_TRIM: 'report' } });
    sidecar.send({ v: PROTOCOL_VERSION, id: '1', type: 'start', payload: { session: SESSION, cwd: '/tmp/project', executable: '/opt/claude' } });
    await sidecar.reply('1');
    sidecar.send({ v: PROTOCOL_VERSION, id: '2', type: 'exec', payload: { session: SESSION, turn: 't1', prompt: 'Hello' } });
    await sidecar.waitFor(isEvent('turn.completed'));
    await until(() => /let [0-9.]+ MB of read-only file pages go/.test(sidecar.stderr()), 20_000);
    expect(await sidecar.end()).toBe(0);
  });

  it.runIf(process.platform === 'linux')('as the index’s own sidecar lets its pages go at start and after a large pass 1', async () => {
    const dir = configDir();
    try {
      // One prompt over the 8 MB from which a job's first pass is followed by a collection and a trim (heap.ts).
      const file = dir.write(`${SESSION}.jsonl`, [userLine({ uuid: 'u1', parentUuid: null, session: SESSION }, 'x'.repeat(9 << 20))]);
      const sidecar = spawnSidecar({ command, env: { ...env, BATON_SIDECAR_INDEX: '1', BATON_SIDECAR_PAGE_TRIM: 'report' } });
      const trims = () => sidecar.stderr().match(/let [0-9.]+ MB of read-only file pages go/g)?.length ?? 0;
      await until(() => trims() === 1, 20_000); // before any request (an idle trim waits for a session's warm-up)
      sidecar.send({ v: PROTOCOL_VERSION, id: '1', type: 'transcript_open', payload: { session: SESSION, file } });
      expect(await sidecar.reply('1')).toMatchObject({ type: 'ok', payload: { bytesTotal: expect.any(Number) } });
      await until(() => trims() === 2, 20_000);
      expect(await sidecar.end()).toBe(0);
    } finally {
      dir.remove();
    }
  });

  it('closes open sessions and exits 0 when stdin closes', async () => {
    const sidecar = spawnSidecar({ command, env });
    sidecar.send({ v: PROTOCOL_VERSION, id: '1', type: 'start', payload: { session: SESSION, cwd: '/tmp/project' } });
    await sidecar.reply('1');
    expect(await sidecar.end()).toBe(0);
    expect(events(sidecar.lines).map((e) => e.kind)).toEqual(['session.started', 'session.closed']);
  });
});
