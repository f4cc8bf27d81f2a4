// Loads the recorded real session (scripts/record-session.ts) and replays it through the mapper the way a
// live SdkSession composes events: session.started, turn.started per prompt, the mapper's events per SDK
// message, permission events at the point canUseTool was called, session.closed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Mapper } from '../../src/mapper/mapper.js';
import { type Event, type EventBody, stampEvent } from '../../src/protocol/events.js';
import { isTurnEnd, mergeEnds, type TurnEnd } from '../../src/session/continuations.js';
import { PermissionBroker } from '../../src/session/permissions.js';
import { SIDECAR_ROOT } from './fakeApi.js';

export const RECORDED_DIR = join(SIDECAR_ROOT, 'testdata/recorded');

const metaSchema = z.object({
  session: z.uuid(),
  cwd: z.string(),
  turns: z.array(z.object({ turn: z.string(), prompt: z.string(), uuid: z.uuid() })),
  permissions: z.array(
    z.object({
      afterMessages: z.number().int(),
      turn: z.string(),
      toolName: z.string(),
      input: z.record(z.string(), z.unknown()),
      requestId: z.string(),
      toolUseID: z.string(),
      suggestions: z.array(z.unknown()),
      title: z.string().optional(),
      description: z.string().optional(),
      decisionReason: z.string().optional(),
      verdict: z.enum(['allow', 'allow_always', 'deny']),
      message: z.string().optional(),
    }),
  ),
  goals: z
    .array(
      z.object({
        turn: z.string(),
        observation: z.object({
          uuid: z.string(),
          timestamp: z.string(),
          condition: z.string(),
          met: z.boolean(),
          sentinel: z.boolean().optional(),
          failed: z.boolean().optional(),
          reason: z.string().optional(),
          iterations: z.number().optional(),
        }),
      }),
    )
    .default([]),
});
export type RecordingMeta = z.infer<typeof metaSchema>;

export function readJsonl(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

export interface Recording {
  sdk: unknown[];
  history: unknown[];
  meta: RecordingMeta;
}

export function loadRecording(): Recording {
  return {
    sdk: readJsonl(join(RECORDED_DIR, 'session.sdk.jsonl')),
    history: readJsonl(join(RECORDED_DIR, 'session.history.jsonl')),
    meta: metaSchema.parse(JSON.parse(readFileSync(join(RECORDED_DIR, 'session.meta.json'), 'utf8'))),
  };
}

export interface LiveReplay {
  events: Event[];
  /** The mapper's own output per SDK message (same order as the recording). */
  perMessage: Array<{ message: unknown; events: Event[] }>;
}

export async function replayLive(recording: Recording, now: () => Date): Promise<LiveReplay> {
  const { meta, sdk } = recording;
  const events: Event[] = [];
  const perMessage: LiveReplay['perMessage'] = [];
  const mapper = new Mapper(meta.session, now);
  let turnIndex = 0;
  let running: string | undefined;
  const emit = (body: EventBody, turn?: string): void => {
    events.push(stampEvent(turn !== undefined ? { ...body, turn } : body, meta.session, now));
  };
  const broker = new PermissionBroker((body) => emit(body, running));
  const startTurn = (): void => {
    const turn = meta.turns[turnIndex];
    if (turn === undefined) return;
    running = turn.turn;
    mapper.notePromptSent(turn.uuid);
    mapper.notePromptText(turn.prompt);
    emit({ kind: 'turn.started', prompt: turn.prompt, uuid: turn.uuid }, turn.turn);
  };

  let held: TurnEnd | undefined;
  let due = false;
  const settle = (): void => {
    if (held === undefined || due || mapper.activeTasks.length > 0) return;
    events.push(held);
    held = undefined;
    const ended = running;
    // The goal statuses the session reads after the result.
    events.push(...mapper.goalObserved(meta.goals.filter((g) => g.turn === ended).map((g) => g.observation)));
    events.push(...mapper.goalTurnEnded());
    turnIndex++;
    running = undefined;
    startTurn();
  };

  emit({ kind: 'session.started', cwd: meta.cwd, model: 'default', permissionMode: 'default', resumed: false });
  mapper.notePermissionMode('default');
  startTurn();
  for (const [index, message] of sdk.entries()) {
    for (const ask of meta.permissions.filter((p) => p.afterMessages === index)) {
      const verdict = broker.request({
        toolName: ask.toolName,
        input: ask.input,
        signal: new AbortController().signal,
        requestId: ask.requestId,
        toolUseID: ask.toolUseID,
        // Recorded from the SDK's own PermissionUpdate values.
        suggestions: ask.suggestions as never,
        title: ask.title,
        description: ask.description,
        decisionReason: ask.decisionReason,
      });
      broker.settle(ask.requestId, ask.verdict, 'user', { message: ask.message });
      await verdict;
    }
    const mapped = mapper.map(message, { turn: running });
    perMessage.push({ message, events: mapped });
    const fields =
      typeof message === 'object' && message !== null ? (message as { type?: unknown; subtype?: unknown; origin?: { kind?: unknown } | null }) : {};
    if (fields.type === 'system' && fields.subtype === 'task_notification') due = true;
    if (fields.type !== 'result') {
      events.push(...mapped);
      if (held !== undefined && fields.subtype === 'background_tasks_changed') settle();
      continue;
    }
    // As the session does (session/continuations.ts): a result while background work is live or a follow-up is
    // due holds the turn open; the follow-up's result ends it once nothing runs, with both results' costs.
    const end = mapped.find(isTurnEnd);
    events.push(...mapped.filter((e) => e !== end));
    if (fields.origin?.kind === 'task-notification') due = false;
    held = held !== undefined && end !== undefined ? mergeEnds(held, end) : (held ?? end);
    settle();
  }
  emit({ kind: 'session.closed', reason: 'closed' });
  return { events, perMessage };
}
