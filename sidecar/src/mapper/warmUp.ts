// Warms a streamed reply's path before the first reply needs it. Each zod schema compiles its parser on first use
// and the engine compiles each function once it runs hot; at a session's first reply that cost landed between
// the first pieces (measured in the sidecar: the prompt's echo took 4.5 ms to map, message_start 1.9 ms, the
// second text delta 3.7 ms; a piece waits behind all of it). This maps one made-up reply — echo, stream events
// of text, thinking and a tool call, the assistant message, the result — through a mapper of its own and writes
// its lines to nowhere; the backend runs it once, while the first session's claude starts. Nothing leaves this
// function.
import { Mapper } from './mapper.js';
import { TOOL } from '../tools/catalogue.js';
import { fitEvent } from '../protocol/bounds.js';
import { coalesce } from '../protocol/coalesce.js';
import { eventLine, type WireLine } from '../protocol/codec.js';
import type { EventKind } from '../protocol/events.js';

const SESSION = '00000000-0000-4000-8000-000000000000';
const MESSAGE = 'msg_warm';

/** Text deltas in the made-up reply: enough for the engine to compile the hot functions. */
export const WARM_DELTAS = 1_000;

const envelope = (uuid: string) => ({ parent_tool_use_id: null, session_id: SESSION, uuid });
const stream = (uuid: string, event: object) => ({ type: 'stream_event', event, ...envelope(uuid), api_message_id: MESSAGE });
const usage = { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/** The made-up reply, in the order Claude Code sends one. */
function* reply(): Generator<unknown> {
  yield { type: 'user', message: { role: 'user', content: 'warm up' }, isReplay: true, ...envelope('w-echo') };
  yield { type: 'system', subtype: 'status', status: 'requesting', session_id: SESSION, uuid: 'w-status' };
  yield stream('w-start', {
    type: 'message_start',
    message: { id: MESSAGE, type: 'message', role: 'assistant', model: 'warm', content: [], stop_reason: null, stop_sequence: null, usage },
  });
  yield stream('w-think', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
  yield stream('w-thought', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'a thought' } });
  yield stream('w-sig', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: '' } });
  yield stream('w-think-end', { type: 'content_block_stop', index: 0 });
  yield stream('w-text', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } });
  for (let i = 0; i < WARM_DELTAS; i++) {
    yield stream(`w-d${i}`, { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'word ' } });
  }
  yield stream('w-text-end', { type: 'content_block_stop', index: 1 });
  yield stream('w-tool', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_warm', name: TOOL.read, input: {} } });
  yield stream('w-json', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"file_path":"a"}' } });
  yield stream('w-tool-end', { type: 'content_block_stop', index: 2 });
  yield stream('w-mdelta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: WARM_DELTAS } });
  yield stream('w-stop', { type: 'message_stop' });
  yield {
    type: 'assistant',
    message: {
      id: MESSAGE,
      type: 'message',
      role: 'assistant',
      model: 'warm',
      content: [{ type: 'text', text: 'word' }],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
    ...envelope('w-assistant'),
  };
  yield {
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 1,
    duration_api_ms: 1,
    num_turns: 1,
    result: 'word',
    stop_reason: 'end_turn',
    total_cost_usd: 0,
    usage,
    modelUsage: {},
    permission_denials: [],
    session_id: SESSION,
    uuid: 'w-result',
  };
}

/** Maps the made-up reply and serialises its lines as the line writer would; returns the kinds it mapped to. */
export function warmStreamPath(now: () => Date): Map<EventKind, number> {
  const mapper = new Mapper(SESSION, now);
  const kinds = new Map<EventKind, number>();
  let waiting: WireLine | undefined;
  let count = 0;
  for (const message of reply()) {
    for (const event of mapper.map(message, { turn: 'warm' })) {
      kinds.set(event.kind, (kinds.get(event.kind) ?? 0) + 1);
      const line = eventLine(fitEvent(event));
      // Most pieces merge, as they do while a reply streams; every eighth line is written out, as a batch is.
      const merged = waiting !== undefined && ++count % 8 !== 0 ? coalesce(waiting, line) : undefined;
      if (merged !== undefined) {
        waiting = merged;
        continue;
      }
      if (waiting !== undefined) JSON.stringify(waiting);
      waiting = line;
    }
  }
  return kinds;
}
