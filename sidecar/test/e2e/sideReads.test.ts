// Side reads and model discovery through the real SDK and claude CLI against the scripted fake Messages API on
// 127.0.0.1, with a temp HOME / CLAUDE_CONFIG_DIR.
import { getSessionInfo, getSessionMessages, query } from '@anthropic-ai/claude-agent-sdk';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Event, EventOf } from '../../src/protocol/events.js';
import { eventSchema } from '../../src/protocol/events.js';
import { okPayloads, type OutputLine } from '../../src/protocol/schemas.js';
import { PROTOCOL_VERSION } from '../../src/protocol/version.js';
import { SdkSession } from '../../src/session/session.js';
import { CLAUDE_BINARY } from '../helpers/fakeApi.js';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { type SidecarProcess, spawnSidecar } from '../helpers/sidecarProcess.js';

const S1 = 'c1c1c1c1-1111-4111-8111-111111111111';
const S2 = 'c2c2c2c2-2222-4222-8222-222222222222';

const scripted = useScriptedClaude('baton-side-reads-');
let requestId = 0;

async function request(sidecar: SidecarProcess, type: string, payload: object): Promise<OutputLine> {
  const id = `r${++requestId}`;
  sidecar.send({ v: PROTOCOL_VERSION, id, type, payload });
  return sidecar.reply(id, 60_000);
}

const isEvent =
  <K extends Event['kind']>(kind: K, match: (e: EventOf<K>) => boolean = () => true) =>
  (l: OutputLine): boolean =>
    l.type === 'event' && l.event.kind === kind && match(l.event as EventOf<K>);

const messageRequests = (): string[] => scripted.api.requests().filter((r) => r.startsWith('POST /v1/messages') && !r.includes('count_tokens'));

describe('side reads', () => {
  it('arrive after the start reply and again after each turn, without a turn id', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    const started = await request(sidecar, 'start', { session: S1, cwd: scripted.home.project });
    expect(started).toMatchObject({ type: 'ok' });
    const at = (line: OutputLine): number => sidecar.lines.indexOf(line);

    // On open: the palette, the models and the context usage (a new session has no title yet).
    const commands = await sidecar.waitFor(isEvent('commands.updated', (e) => e.session === S1));
    const models = await sidecar.waitFor(isEvent('models.updated', (e) => e.session === S1));
    const context = await sidecar.waitFor(isEvent('context.updated', (e) => e.session === S1));
    for (const line of [commands, models, context]) expect(at(line)).toBeGreaterThan(at(started));
    const palette = (commands as { event: EventOf<'commands.updated'> }).event.commands;
    expect(palette.length).toBeGreaterThan(0);
    expect(palette.every((c) => c.name !== '' && !c.name.startsWith('/'))).toBe(true);
    const offered = (models as { event: EventOf<'models.updated'> }).event.models;
    expect(offered.map((m) => m.value)).toContain('default');
    const usage = (context as { event: EventOf<'context.updated'> }).event;
    expect(usage.maxTokens).toBeGreaterThan(0);
    expect(usage.totalTokens).toBeGreaterThan(0);

    // After a turn: the context usage again, and the title the transcript now has.
    const requestsBefore = messageRequests().length;
    await request(sidecar, 'exec', { session: S1, turn: 't1', prompt: 'Name this session' });
    const completed = await sidecar.waitFor(isEvent('turn.completed', (e) => e.turn === 't1'));
    expect(messageRequests().length, 'the fake API request log is read').toBeGreaterThan(requestsBefore);
    const after = await sidecar.waitFor((l) => isEvent('context.updated')(l) && at(l) > at(completed));
    const title = await sidecar.waitFor(isEvent('session.updated', (e) => e.title !== undefined));
    expect((title as { event: EventOf<'session.updated'> }).event.title).toBe('Name this session');
    // Not ordered against turn.completed: on a loaded machine the round begun at the start can read the title
    // once the prompt is in the transcript, mid-turn. Either way it comes as a side read: no turn id.
    expect((title as { event: EventOf<'session.updated'> }).event.turn).toBeUndefined();
    const sideKinds = ['commands.updated', 'models.updated', 'context.updated'];
    for (const line of sidecar.lines) {
      if (line.type === 'event' && sideKinds.includes(line.event.kind)) expect(line.event.turn).toBeUndefined();
    }
    expect(after).toBeDefined();
    // Unchanged lists are not sent again.
    expect(sidecar.lines.filter(isEvent('models.updated'))).toHaveLength(1);

    await request(sidecar, 'close', { session: S1 });
    const closedAt = sidecar.lines.findIndex(isEvent('session.closed'));
    expect(await sidecar.end()).toBe(0);
    expect(sidecar.invalid).toEqual([]);
    expect(sidecar.lines.slice(closedAt + 1).filter((l) => l.type === 'event')).toEqual([]);
  });

  it('a side read that throws is logged and the session carries on', async () => {
    const emitted: Event[] = [];
    let logged = '';
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      logged += String(chunk);
      return true;
    });
    let ended = false;
    // The SDK's session functions read the sidecar's own config dir: point it at the temp scripted.home.
    vi.stubEnv('CLAUDE_CONFIG_DIR', scripted.home.configDir);
    vi.stubEnv('HOME', scripted.home.home);
    try {
      const session = await SdkSession.open({
        start: { session: S2, cwd: scripted.home.project },
        executable: CLAUDE_BINARY,
        emit: (e) => emitted.push(eventSchema.parse(e)),
        now: () => new Date(),
        // The real SDK query, with one side read made to fail deterministically.
        query: (params) => {
          const q = query(params);
          q.supportedCommands = () => Promise.reject(new Error('control request failed: boom'));
          return q;
        },
        env: scripted.home.env(scripted.api.url),
        stderr: () => undefined,
        onEnded: () => {
          ended = true;
        },
        sessionInfo: (id, options) => getSessionInfo(id, options),
        transcript: (id, options) => getSessionMessages(id, options),
      });
      session.opened();
      await vi.waitFor(() => expect(emitted.map((e) => e.kind)).toContain('context.updated'), { timeout: 30_000 });
      session.exec('t1', 'still here?');
      await vi.waitFor(() => expect(emitted.find((e) => e.kind === 'turn.completed')).toBeDefined(), { timeout: 60_000 });
      expect(emitted.find((e) => e.kind === 'turn.completed')).toMatchObject({ result: 'You said: still here?' });
      expect(emitted.map((e) => e.kind)).not.toContain('commands.updated');
      expect(emitted.map((e) => e.kind)).toContain('models.updated');
      await vi.waitFor(() => expect(emitted).toContainEqual(expect.objectContaining({ kind: 'session.updated', title: 'still here?' })), {
        timeout: 30_000,
      });
      expect(ended).toBe(false);
      await session.close();
      expect(emitted.at(-1)).toMatchObject({ kind: 'session.closed', reason: 'closed' });
    } finally {
      stderr.mockRestore();
      vi.unstubAllEnvs();
    }
    expect(logged).toContain(`side read of the commands for session ${S2} failed: control request failed: boom`);
  });
});

describe('discover_models', () => {
  it('answers with the models from a hidden query: no turn, no Messages API request, no transcript', async () => {
    const dir = join(scripted.home.home, 'discovery');
    mkdirSync(dir, { recursive: true });
    const before = messageRequests().length;
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    const reply = await request(sidecar, 'discover_models', { cwd: dir });
    expect(reply).toMatchObject({ type: 'ok' });
    const { models } = okPayloads.discover_models.parse(reply.type === 'ok' ? reply.payload : undefined);
    expect(models.map((m) => m.value)).toContain('default');
    expect(models.every((m) => m.displayName !== '')).toBe(true);
    expect(sidecar.lines.filter((l) => l.type === 'event')).toEqual([]);
    expect(await sidecar.end()).toBe(0);
    expect(sidecar.invalid).toEqual([]);
    expect(messageRequests().length).toBe(before);
    // persistSession: false — the discovery folder gets no project transcript.
    const projects = join(scripted.home.configDir, 'projects');
    const keys = existsSync(projects) ? readdirSync(projects) : [];
    expect(keys.filter((k) => k.endsWith('discovery'))).toEqual([]);
  });

  it('fails with an explanation, not a hang, when claude exits before answering', async () => {
    const sidecar = spawnSidecar({ env: { ...scripted.home.env(scripted.api.url), CLAUDE_CODE_EXECUTABLE: '/bin/false' } });
    const reply = await request(sidecar, 'discover_models', { cwd: scripted.home.project });
    expect(reply).toMatchObject({ type: 'error', error: { code: 'sdk_error' } });
    expect((reply as { error: { message: string } }).error.message).toMatch(/^model discovery failed: /);
    expect(await sidecar.end()).toBe(0);
  });
});
