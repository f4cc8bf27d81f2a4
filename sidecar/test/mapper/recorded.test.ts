// The mapper against a recorded real session (scripts/record-session.ts: the real CLI against the scripted
// fake Messages API). Snapshots the events to testdata/recorded/session.events.json, which the frontend
// replays; `npx vitest run -u` rewrites it after a new recording.
import { describe, expect, it } from 'vitest';
import { mapHistoryMessages } from '../../src/history/history.js';
import { type Event, eventSchema, type EventOf } from '../../src/protocol/events.js';
import { fixedClock } from '../helpers/clock.js';
import { loadRecording, replayLive } from '../helpers/recording.js';

const recording = loadRecording();

/** The scripted API's [think-estimated] thinking, and the count it streams with it (app/internal/fakeapi). */
const ESTIMATED_THINKING = 'First the premises, then what follows from them, and last what could still be missing.';
const THINKING_ESTIMATE = 50;

function ofKind<K extends Event['kind']>(events: readonly Event[], kind: K): Array<EventOf<K>> {
  return events.filter((e): e is EventOf<K> => e.kind === kind);
}

function typeOf(message: unknown): string {
  if (typeof message !== 'object' || message === null) return '';
  const fields = message as { type?: unknown; subtype?: unknown };
  return `${String(fields.type)}${typeof fields.subtype === 'string' ? `/${fields.subtype}` : ''}`;
}

function uuidOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || !('uuid' in message)) return undefined;
  return typeof message.uuid === 'string' ? message.uuid : undefined;
}

describe('the recorded session', async () => {
  const live = await replayLive(recording, fixedClock());

  it('maps to events that all validate against the wire schema', () => {
    for (const event of live.events) {
      const parsed = eventSchema.safeParse(event);
      expect(parsed.success, JSON.stringify(event)).toBe(true);
    }
  });

  it('matches the snapshot the frontend replays', async () => {
    await expect(`${JSON.stringify(live.events, null, 2)}\n`).toMatchFileSnapshot('../../testdata/recorded/session.events.json');
  });

  it('drops nothing silently: every message maps to an event unless its content is carried elsewhere', () => {
    const prompts = new Set(recording.meta.turns.map((t) => t.uuid));
    for (const { message, events } of live.perMessage) {
      if (events.length > 0) continue;
      // The CLI's echo of a prompt the session sent: turn.started announced it.
      if (typeOf(message) === 'user' && prompts.has(uuidOf(message) ?? '')) continue;
      const type = typeOf(message);
      // command_lifecycle is dropped by name; system/init feeds model/mode state (deduplicated);
      // stream bookkeeping reappears in the completed assistant message.
      // hook_started is the run hook_response reports (hook.ran); session_state_changed is the session's own
      // turn-over edge (it ends a turn held open for background work).
      const silent = ['command_lifecycle', 'system/init', 'stream_event', 'system/hook_started', 'system/session_state_changed'];
      expect(silent, `${type} produced no event`).toContain(type);
      if (type === 'stream_event') {
        const streamEvent = (message as { event: { type: string; delta?: { type: string } } }).event;
        expect(['text_delta', 'thinking_delta']).not.toContain(streamEvent.delta?.type);
      }
    }
    expect(live.events.some((e) => e.kind === 'unknown' && JSON.stringify(e.raw).includes('command_lifecycle'))).toBe(false);
  });

  it('runs every turn in order and completes it with usage', () => {
    const turns = recording.meta.turns.map((t) => t.turn);
    expect(ofKind(live.events, 'turn.started').map((e) => e.turn)).toEqual(turns);
    expect(ofKind(live.events, 'turn.completed').map((e) => e.turn)).toEqual(turns);
    const finalUsage = ofKind(live.events, 'usage.updated').filter((e) => e.ephemeral !== true);
    // A turn held open for its background work also reports its follow-up's usage.
    expect([...new Set(finalUsage.map((e) => e.turn))]).toEqual(turns);
    for (const usage of finalUsage) {
      expect(usage.contextWindow).toBe(1_000_000);
      expect(usage.turnOutputTokens).toBeGreaterThan(0);
      expect(usage.contextTokens).toBeGreaterThan(0);
    }
    // Costs are per turn, not the SDK's running total (over 1.5 by the last turn).
    const costs = ofKind(live.events, 'turn.completed').map((e) => e.costUsd);
    expect(
      costs.every((c) => c > 0 && c < 0.5),
      costs.join(', '),
    ).toBe(true);
  });

  it('reports the model once and keeps it', () => {
    expect(ofKind(live.events, 'model.resolved').map((e) => e.model)).toEqual(['claude-opus-5-5']);
  });

  it('streams text and thinking as ephemeral deltas that add up to the completed blocks', () => {
    const deltas = ofKind(live.events, 'message.delta');
    expect(deltas.every((d) => d.ephemeral === true)).toBe(true);
    const thinking = deltas
      .filter((d) => d.block === 'thinking' && d.turn === 't2')
      .map((d) => d.text)
      .join('');
    expect(thinking).toBe('Let me think about this.');
    const completedThinking = ofKind(live.events, 'message.completed').filter((e) => e.role === 'thinking');
    expect(completedThinking.map((e) => e.text)).toEqual(['Let me think about this.', ESTIMATED_THINKING]);
    const first = ofKind(live.events, 'message.completed').find((e) => e.role === 'assistant');
    const firstText = deltas.filter((d) => d.messageId === first?.messageId && d.block === 'text').map((d) => d.text);
    expect(firstText.join('')).toBe(first?.text);
  });

  it("counts thinking under way as Claude Code estimates it: the API's estimated_tokens, not its text / 4", () => {
    // t13's thinking streams with the API's own count (50 in all; its text / 4 would be 22).
    const thinkingDone = live.events.findIndex((e) => e.kind === 'message.completed' && e.role === 'thinking' && e.turn === 't13');
    const running = ofKind(live.events.slice(0, thinkingDone), 'usage.updated').filter((e) => e.ephemeral === true && e.turn === 't13');
    expect(running.map((e) => e.turnOutputTokens).at(-1)).toBe(THINKING_ESTIMATE);
    expect(running.map((e) => e.thinkingTokens)).toEqual(running.map((e) => e.turnOutputTokens));
    expect(running.map((e) => e.turnOutputTokens)).not.toContain(Math.ceil(ESTIMATED_THINKING.length / 4));
  });

  it("nests the subagent's events under its Agent call", () => {
    const agent = ofKind(live.events, 'tool.started').find((e) => e.turn === 't14' && e.name === 'Agent');
    expect(agent).toBeDefined();
    expect(agent?.parentToolUseId).toBeUndefined();
    // The agent's own reply and its Bash, all carrying the Agent call as their parent.
    const nested = live.events.filter((e) => 'parentToolUseId' in e && e.parentToolUseId !== undefined);
    expect(nested.length).toBeGreaterThan(0);
    expect(new Set(nested.map((e) => (e as { parentToolUseId: string }).parentToolUseId))).toEqual(new Set([agent?.toolUseId]));
    const bash = ofKind(live.events, 'tool.started').find((e) => e.turn === 't14' && e.name === 'Bash');
    expect(bash).toMatchObject({ parentToolUseId: agent?.toolUseId, input: { command: 'echo from the agent' } });
    // Its end names the call, whose start carries the parent.
    expect(ofKind(live.events, 'tool.completed').find((e) => e.toolUseId === bash?.toolUseId)?.output).toBe('from the agent');
    const said = ofKind(live.events, 'message.completed').filter((e) => e.parentToolUseId === agent?.toolUseId && e.role === 'assistant');
    expect(said.map((e) => e.text)).toContain('Tool results: [ok] from the agent');
    // The root's call is not nested under anything.
    expect(
      ofKind(live.events, 'tool.started')
        .filter((e) => e.turn === 't14' && e.parentToolUseId === undefined)
        .map((e) => e.name),
    ).toEqual(['Agent']);
  });

  it("maps every hook run, the plugin's included, to hook.ran and none to unknown", () => {
    const hookMessages = recording.sdk.filter((m) => typeOf(m).startsWith('system/hook_'));
    expect(hookMessages.length).toBeGreaterThan(0);
    expect(live.events.filter((e) => e.kind === 'unknown')).toEqual([]);
    const responses = live.perMessage.filter(({ message }) => typeOf(message) === 'system/hook_response');
    expect(responses.length).toBeGreaterThanOrEqual(4);
    for (const { events } of responses) expect(events.map((e) => e.kind)).toEqual(['hook.ran']);
    const ran = ofKind(live.events, 'hook.ran');
    // The plugin (a local directory with hooks/hooks.json, loaded via the SDK's plugins option) ran its
    // PostToolUse hook after each Bash: the root's (t5, t11) and the subagent's (t14).
    const plugin = ran.filter((e) => e.output === 'plugin saw bash\n');
    expect(plugin.map((e) => [e.turn, e.hookEvent, e.outcome])).toEqual([
      ['t5', 'PostToolUse', 'success'],
      ['t11', 'PostToolUse', 'success'],
      ['t14', 'PostToolUse', 'success'],
    ]);
  });

  it('maps the approved Write with the file as it was before (absent)', () => {
    const write = ofKind(live.events, 'tool.started').find((e) => e.turn === 't3' && e.name === 'Write');
    expect(write?.input).toMatchObject({ file_path: 'notes.txt' });
    const settled = ofKind(live.events, 'permission.settled').filter((e) => e.turn === 't3');
    expect(settled.map((e) => [e.verdict, e.by])).toEqual([['allow', 'user']]);
    const done = ofKind(live.events, 'tool.completed').find((e) => e.toolUseId === write?.toolUseId);
    expect(done?.fileBefore).toEqual({ path: 'notes.txt', text: null });
  });

  it("maps the denied Write to a failed tool carrying the person's words", () => {
    const write = ofKind(live.events, 'tool.started').find((e) => e.turn === 't4');
    const requested = ofKind(live.events, 'permission.requested').find((e) => e.turn === 't4');
    expect(requested?.toolUseId).toBe(write?.toolUseId);
    expect(requested?.suggestions.length).toBeGreaterThan(0);
    expect(ofKind(live.events, 'permission.settled').find((e) => e.turn === 't4')).toMatchObject({
      verdict: 'deny',
      by: 'user',
      message: 'Not that file',
    });
    expect(ofKind(live.events, 'tool.failed').find((e) => e.toolUseId === write?.toolUseId)).toMatchObject({
      name: 'Write',
      error: 'Not that file',
      denied: true,
    });
  });

  it('maps the Bash command and its output', () => {
    const bash = ofKind(live.events, 'tool.started').find((e) => e.name === 'Bash');
    expect(bash?.input).toMatchObject({ command: 'echo hello from bash' });
    expect(ofKind(live.events, 'tool.completed').find((e) => e.toolUseId === bash?.toolUseId)?.output).toBe('hello from bash');
  });

  it('keeps the checklist across TaskCreate and TaskUpdate', () => {
    expect(ofKind(live.events, 'plan.updated').map((e) => e.items)).toEqual([
      [{ id: '1', content: 'Write the release notes', status: 'pending', activeForm: 'Writing the release notes' }],
      [{ id: '1', content: 'Write the release notes', status: 'in_progress', activeForm: 'Writing the release notes' }],
      [{ id: '1', content: 'Write the release notes', status: 'completed', activeForm: 'Writing the release notes' }],
    ]);
  });

  it('sends the text before the first change of an existing file, and the mode "always allow" switched to', () => {
    const edit = ofKind(live.events, 'tool.completed').find((e) => e.name === 'Edit');
    expect(edit?.fileBefore).toEqual({ path: 'README.md', text: '# Demo\n\nDraft readme.\n' });
    expect(ofKind(live.events, 'permission.settled').find((e) => e.turn === 't9')?.verdict).toBe('allow_always');
    const modes = ofKind(live.events, 'session.updated').filter((e) => e.permissionMode !== undefined);
    expect(modes.map((e) => e.permissionMode)).toEqual(['acceptEdits']);
  });

  describe('history (getSessionMessages) maps like live', () => {
    const history = mapHistoryMessages(recording.history, recording.meta.session, fixedClock());
    const liveByUuid = new Map(live.perMessage.flatMap((m) => (uuidOf(m.message) ? [[uuidOf(m.message)!, m.events]] : [])));
    const prompts = new Map(recording.meta.turns.map((t) => [t.uuid, t.prompt]));

    // What only live messages can carry: structured tool results (and fileBefore from them), and
    // model/mode changes, which live first learns from system messages a transcript does not hold. What only a
    // transcript carries: a response's final token counts (usage.recorded).
    const comparable = (events: readonly Event[]): unknown[] =>
      events
        .filter((e) => e.kind !== 'model.resolved' && e.kind !== 'session.updated' && e.kind !== 'usage.recorded')
        .map((e) => {
          const { time: _time, turn: _turn, ...rest } = e;
          if (rest.kind !== 'tool.completed') return rest;
          const { structured: _s, fileBefore: _f, ...withoutStructured } = rest;
          return withoutStructured;
        });

    it('validates every history event', () => {
      for (const { events } of history) for (const e of events) expect(eventSchema.safeParse(e).success).toBe(true);
    });

    it('maps each transcript message to the events the same live message gave', () => {
      let compared = 0;
      let notices = 0;
      for (const { message, events } of history) {
        const uuid = uuidOf(message)!;
        if (JSON.stringify(message).includes('<task-notification>') && !liveByUuid.has(uuid)) {
          // Claude Code files a background task's notice as a user message only in the transcript: no person's words.
          expect(events).toEqual([]);
          notices++;
          continue;
        }
        const prompt = prompts.get(uuid);
        if (prompt !== undefined) {
          // A prompt is not an SDK message live: the session announces it with turn.started. In history the
          // prompt's message maps to the same turn.started, its turn named by its uuid.
          const liveStarted = ofKind(live.events, 'turn.started').find((e) => e.uuid === uuid);
          expect(events.map((e) => e.turn)).toEqual([uuid]);
          expect(comparable(events)).toEqual(comparable([liveStarted!]));
          continue;
        }
        const liveEvents = liveByUuid.get(uuid);
        expect(liveEvents, `history message ${uuid} was not seen live`).toBeDefined();
        expect(comparable(events)).toEqual(comparable(liveEvents!));
        compared++;
      }
      expect(compared).toBeGreaterThan(20);
      expect(notices).toBe(2); // t11's background command and t14's agent
      expect(history.length).toBe(compared + prompts.size + notices);
    });

    it('groups history into turns by the prompt uuid turn.started reported live', () => {
      const liveTurnUuid = new Map(ofKind(live.events, 'turn.started').map((e) => [e.turn, e.uuid]));
      for (const [index, { events }] of history.entries()) {
        const liveEvents = liveByUuid.get(uuidOf(history[index]!.message)!) ?? [];
        for (const [i, e] of events.entries()) {
          const liveTurn = liveEvents[i]?.turn;
          if (liveTurn !== undefined) expect(e.turn).toBe(liveTurnUuid.get(liveTurn));
        }
      }
    });

    it('dates history events when their message was written, not when it was read', () => {
      for (const { message, events } of history) {
        const written = (message as { timestamp?: string }).timestamp;
        expect(written, 'the recorded transcript has timestamps').toBeDefined();
        for (const e of events) expect(e.time).toBe(new Date(written!).toISOString());
      }
    });

    it('rebuilds the same checklist without structured results', () => {
      const plans = history.flatMap((m) => ofKind(m.events, 'plan.updated').map((e) => e.items));
      expect(plans).toEqual(ofKind(live.events, 'plan.updated').map((e) => e.items));
    });
  });
});
