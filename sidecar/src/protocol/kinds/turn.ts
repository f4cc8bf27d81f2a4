// A turn's kinds: queued (host), started, bound to its prompt, steered, and how it ended; an API error the CLI recorded.
// Each kind: its strict schema, its place in the area's list, and its metadata (PROTOCOL.md, "Adding a kind").
import { z } from 'zod';
import { base, canceledDispositionSchema, count, imageSchema, turnFailureCodeSchema, turnOriginSchema } from './common.js';
import { type HostKindMeta, type MetaTable, S, notOnTheSidecarLine, small } from './meta.js';

/** Made by the host, never sent by the sidecar: a prompt accepted, before its turn starts. */
export const turnQueuedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.queued'),
  prompt: z.string(),
});
export const turnStartedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.started'),
  prompt: z.string(),
  uuid: z.string().optional(),
  /** Absent for a person's prompt; `task_notification` for a continuation no person started (prompt is ""). */
  origin: turnOriginSchema.optional(),
  /** Images the person attached to the prompt. */
  images: z.array(imageSchema).optional(),
});
/**
 * The identity barrier passed: the turn is bound to the root user message Claude Code persisted for it (the
 * provider turn), by the SDK's echo of the uuid sent or, without one, from the session transcript. Sent once per
 * turn, before any of its output.
 */
export const turnAcceptedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.accepted'),
  providerMessage: z.string().min(1),
});
/**
 * Guidance steered the running turn: its response was interrupted (the CLI's error result for it is bookkeeping,
 * not an end) and `prompt` was sent; the guidance's output streams on the same turn, which ends once.
 */
export const turnGuidedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.guided'),
  prompt: z.string(),
  images: z.array(imageSchema).optional(),
});
export const turnCompletedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.completed'),
  result: z.string().optional(),
  durationMs: z.number().nonnegative(),
  numTurns: count,
  costUsd: z.number().nonnegative(),
  /** The SDK's stop reason; "tool_denied": a plain deny stopped Claude, which waits for the person. */
  stopReason: z.string().optional(),
});
export const turnFailedEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.failed'),
  code: turnFailureCodeSchema,
  message: z.string().min(1),
  /** When the SDK's result ended the turn (max turns, budget, API errors): what it had counted so far. */
  numTurns: count.optional(),
  costUsd: z.number().nonnegative().optional(),
});
export const turnCanceledEvent = z.strictObject({
  ...base,
  kind: z.literal('turn.canceled'),
  disposition: canceledDispositionSchema,
  /** provider_active: true when Claude Code did not answer the interrupt and its process was closed. */
  forced: z.boolean().optional(),
});
/**
 * An error the API returned that Claude Code recorded as its reply (a transcript's isApiErrorMessage line): `error`
 * is its code (e.g. `rate_limit`), `httpStatus` the HTTP status when recorded, `message` the CLI's wording.
 */
export const apiErrorEvent = z.strictObject({
  ...base,
  kind: z.literal('api.error'),
  error: z.string(),
  httpStatus: z.number().int().optional(),
  message: z.string(),
  parentToolUseId: z.string().optional(),
});

export const TURN_EVENTS = [
  turnStartedEvent,
  turnAcceptedEvent,
  turnGuidedEvent,
  turnCompletedEvent,
  turnFailedEvent,
  turnCanceledEvent,
  apiErrorEvent,
] as const;
/** Made by the host, never sent by the sidecar. */
export const TURN_HOST_EVENTS = [turnQueuedEvent] as const;

export const TURN_META = {
  'turn.started': {
    description: "A turn began: the person's prompt (or a continuation Claude Code started itself, with no prompt).",
    example: { kind: 'turn.started', session: S, turn: 't1', time: '2026-11-30T12:00:00.100Z', prompt: 'Hello' },
    size: { truncate: ['prompt'], images: true },
    terminal: { lines: [{ history: true, when: 'prompt && !origin', text: '\n{prompt|quote}' }] },
  },
  'turn.accepted': {
    description: 'The identity barrier passed: the turn is bound to the user message Claude Code persisted for it.',
    example: { kind: 'turn.accepted', session: S, turn: 't1', time: '2026-11-30T12:00:00.100Z', providerMessage: '3f0e2a51-7b6c-4d8e-9f10-a1b2c3d4e5f6' },
    size: small('one message id'),
    terminal: { quiet: 'bookkeeping' },
  },
  'turn.guided': {
    description: 'Guidance steered the running turn: its response was interrupted and the prompt sent; the turn goes on.',
    example: { kind: 'turn.guided', session: S, turn: 't1', time: '2026-11-30T12:00:00.100Z', prompt: 'use the other file' },
    size: { truncate: ['prompt'], images: true },
    terminal: { lines: [{ text: '\n> (steered) {prompt}' }] },
  },
  'turn.completed': {
    description: 'The turn ended with a result: final text, duration, steps, cost, and why it stopped.',
    example: {
      kind: 'turn.completed',
      session: S,
      turn: 't1',
      time: '2026-11-30T12:00:01.000Z',
      result: 'Hello there',
      durationMs: 900,
      numTurns: 1,
      costUsd: 0.01,
      stopReason: 'end_turn',
    },
    size: { truncate: ['result'] },
    terminal: { lines: [{ when: 'stopReason == tool_denied', text: 'Stopped: a tool was denied; Claude waits for your next prompt.' }] },
  },
  'turn.failed': {
    description: 'The turn failed, with a code (TurnFailureCode) and a message.',
    example: { kind: 'turn.failed', session: S, turn: 't2', time: '2026-11-30T12:00:02.300Z', code: 'api_error', message: 'The API answered 529 (overloaded)' },
    size: small('a code and a message the sidecar or the host wrote'),
    terminal: { lines: [{ text: 'Error: {message}' }], byHand: 'an authentication failure is explained as a sign-in problem (authfailure.go)' },
  },
  'turn.canceled': {
    description: 'The turn was canceled: before the SDK saw it, or while it ran (forced: Claude Code did not answer).',
    example: { kind: 'turn.canceled', session: S, turn: 't3', time: '2026-11-30T12:00:02.400Z', disposition: 'provider_active', forced: true },
    size: small('a disposition'),
    terminal: {
      lines: [
        { when: 'forced', text: 'Force-stopped: Claude Code did not answer.' },
        { when: '!forced', text: 'Canceled.' },
      ],
    },
  },
  'api.error': {
    description: 'An error the API returned that Claude Code recorded as its reply.',
    example: {
      kind: 'api.error',
      session: S,
      turn: 't7',
      time: '2026-11-30T12:00:08.200Z',
      error: 'rate_limit',
      httpStatus: 429,
      message: 'API Error: Rate limit reached',
    },
    size: { truncate: ['message'] },
    terminal: { lines: [{ text: 'API error ({error}): {message|line=300}' }] },
  },
} as const satisfies MetaTable<z.infer<(typeof TURN_EVENTS)[number]>>;
export const TURN_HOST_META = {
  'turn.queued': {
    description: 'Made by the host: a prompt accepted, before the sidecar sees it; its turn.started follows.',
    example: { kind: 'turn.queued', session: S, turn: 't3', time: '2026-11-30T12:00:02.000Z', prompt: '' },
    size: notOnTheSidecarLine,
    terminal: { quiet: 'its turn.started follows' },
  },
} as const satisfies { 'turn.queued': HostKindMeta<z.infer<typeof turnQueuedEvent>> };
