// The effective model through the real SDK and claude CLI against the scripted fake Messages API on 127.0.0.1:
// a new session reports the model the CLI runs before its first prompt (Claude Code sends system/init only with a
// prompt, so the side reads' context usage says it), and after each set_model the CLI's report of the model it now
// runs arrives before the next turn — also when it names the model reported before (default and opus run the
// same one), since the console cleared the model it showed at the switch.
import { describe, expect, it, vi } from 'vitest';
import type { Event, EventOf } from '../../src/protocol/events.js';
import type { OutputLine } from '../../src/protocol/schemas.js';
import { PROTOCOL_VERSION } from '../../src/protocol/version.js';
import { useScriptedClaude } from '../helpers/scriptedClaude.js';
import { type SidecarProcess, spawnSidecar } from '../helpers/sidecarProcess.js';

const S1 = 'e1e1e1e1-1111-4111-8111-111111111111';

const scripted = useScriptedClaude('baton-effective-model-');
let requestId = 0;

async function request(sidecar: SidecarProcess, type: string, payload: object): Promise<OutputLine> {
  const id = `r${++requestId}`;
  sidecar.send({ v: PROTOCOL_VERSION, id, type, payload });
  return sidecar.reply(id, 60_000);
}

type EventLine = Extract<OutputLine, { type: 'event' }>;
const isEvent =
  <K extends Event['kind']>(kind: K, match: (e: EventOf<K>) => boolean = () => true) =>
  (l: OutputLine): l is EventLine =>
    l.type === 'event' && l.event.kind === kind && match(l.event as EventOf<K>);

/** The models of the streamed requests after the first `from`, once the fake's log has at least one more. */
async function streamedAfter(from: number): Promise<Set<string>> {
  // The fake logs a request once it has answered it, which may be after the turn's end reached us.
  await vi.waitFor(() => expect(scripted.api.streamedModels().length).toBeGreaterThan(from), { timeout: 30_000 });
  return new Set(scripted.api.streamedModels().slice(from));
}

describe('the effective model', () => {
  it('is reported before the first prompt, and again after every switch before the next turn', async () => {
    const sidecar = spawnSidecar({ env: scripted.home.env(scripted.api.url) });
    expect(await request(sidecar, 'start', { session: S1, cwd: scripted.home.project })).toMatchObject({ type: 'ok' });

    // The context usage read after opening comes with the CLI's word on its model; no turn ran, nothing was asked
    // of the API.
    const opened = await sidecar.waitFor(isEvent('context.updated'), 60_000);
    const before = sidecar.lines.slice(0, sidecar.lines.indexOf(opened)).filter(isEvent('model.resolved'));
    expect(
      before.map((l) => l.event.kind),
      'a model.resolved before the first context usage',
    ).toEqual(['model.resolved']);
    const first = (before[0]!.event as EventOf<'model.resolved'>).model;
    expect(first).toMatch(/^claude-/);
    expect(sidecar.lines.some(isEvent('turn.started'))).toBe(false);
    expect(scripted.api.streamedModels()).toEqual([]);

    // The first turn runs on the model reported.
    await request(sidecar, 'exec', { session: S1, turn: 't1', prompt: 'First prompt' });
    await sidecar.waitFor(
      isEvent('turn.completed', (e) => e.turn === 't1'),
      60_000,
    );
    expect(await streamedAfter(0)).toEqual(new Set([first]));

    // Each switch: the requested label, then the CLI's report of the model it now runs, with no turn between.
    const switchTo = async (model: string): Promise<string> => {
      const mark = sidecar.lines.length;
      expect(await request(sidecar, 'set_model', { session: S1, model })).toMatchObject({ type: 'ok' });
      const switched = sidecar.lines.slice(mark).find(isEvent('session.updated', (e) => e.model === model));
      expect(switched, `session.updated {model: ${model}}`).toBeDefined();
      const at = sidecar.lines.indexOf(switched!);
      const report = (await sidecar.waitFor((l) => isEvent('model.resolved')(l) && sidecar.lines.indexOf(l) > at, 60_000)) as EventLine;
      const between = sidecar.lines.slice(at, sidecar.lines.indexOf(report));
      expect(between.filter(isEvent('turn.started')), 'reported before any turn').toEqual([]);
      expect(between.filter(isEvent('model.resolved')), 'the first report after the switch').toEqual([]);
      return (report.event as EventOf<'model.resolved'>).model;
    };
    const sonnet = await switchTo('sonnet');
    expect(sonnet).toMatch(/sonnet/);
    expect(sonnet).not.toBe(first);
    expect(await switchTo('default'), 'back to Default: the default model again').toBe(first);
    // The CLI's default runs Opus: the switch to opus names the same model, and is still reported.
    const opus = await switchTo('opus');
    expect(opus).toBe(first);

    // The next turn runs on the model last reported.
    const streamedBefore = scripted.api.streamedModels().length;
    await request(sidecar, 'exec', { session: S1, turn: 't2', prompt: 'Second prompt' });
    await sidecar.waitFor(
      isEvent('turn.completed', (e) => e.turn === 't2'),
      60_000,
    );
    expect(await streamedAfter(streamedBefore)).toEqual(new Set([opus]));

    await request(sidecar, 'close', { session: S1 });
    expect(await sidecar.end()).toBe(0);
    expect(sidecar.invalid).toEqual([]);
  }, 240_000);
});
