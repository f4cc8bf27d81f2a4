// A transcript line as the SDK-shaped message the mapper reads, and the reply dedup: the line becomes the message
// in place (the fields a copy would have, in its order), and the dedup keys a plain text block by its text without
// letting it read like any other block.
import { describe, expect, it } from 'vitest';
import { ReplyDedup, toSdkMessage } from '../../src/history/transcriptEntry.js';

const reply = (id: string, content: unknown[]) => ({ type: 'assistant', uuid: `u-${id}`, message: { id, role: 'assistant', content } });
const texts = (message: Record<string, unknown> | undefined) => (message?.['message'] as { content: unknown[] } | undefined)?.content;

describe('toSdkMessage', () => {
  it('gives a user line the fields of a copy, in the copy’s order, on the line itself', () => {
    const text = JSON.stringify({
      parentUuid: 'p',
      type: 'user',
      uuid: 'u1',
      sessionId: 's1',
      timestamp: '2026-12-02T00:00:00.000Z',
      message: { role: 'user', content: 'hi' },
      toolUseResult: { stdout: 'x' },
      isVisibleInTranscriptOnly: true,
    });
    const line = JSON.parse(text) as Record<string, unknown>;
    const message = toSdkMessage(line, { parentToolUseId: 'call', localCommand: true });
    const copy = {
      ...(JSON.parse(text) as Record<string, unknown>),
      uuid: 'u1',
      session_id: 's1',
      timestamp: '2026-12-02T00:00:00.000Z',
      parent_tool_use_id: 'call',
      tool_use_result: { stdout: 'x' },
      localCommand: true,
      is_meta: true,
    };
    expect(message).toBe(line);
    expect(JSON.stringify(message)).toBe(JSON.stringify(copy));
  });

  it('leaves out meta lines and the quiet turn’s empty reply', () => {
    expect(toSdkMessage({ type: 'user', isMeta: true, message: { content: 'x' } }, {})).toBeUndefined();
    expect(toSdkMessage({ type: 'assistant', closesQuietTurn: true, message: { content: [{ type: 'text', text: '' }] } }, {})).toBeUndefined();
    expect(toSdkMessage({ type: 'assistant', message: { content: [] } }, {})?.['parent_tool_use_id']).toBeNull();
  });
});

describe('ReplyDedup', () => {
  it('drops a block seen under the same message id, even lines apart, and keeps it under another id', () => {
    const dedup = new ReplyDedup();
    expect(texts(dedup.filter(reply('m1', [{ type: 'text', text: 'Hi' }])))).toHaveLength(1);
    expect(texts(dedup.filter(reply('m2', [{ type: 'text', text: 'Other' }])))).toHaveLength(1);
    expect(dedup.filter(reply('m1', [{ type: 'text', text: 'Hi' }]))).toBeUndefined();
    expect(texts(dedup.filter(reply('m3', [{ type: 'text', text: 'Hi' }])))).toHaveLength(1);
  });

  it('keeps blocks that differ in anything: an extra field, the order of fields, the kind', () => {
    const dedup = new ReplyDedup();
    dedup.filter(reply('m1', [{ type: 'text', text: 'Hi' }]));
    const kept = dedup.filter(
      reply('m1', [
        { type: 'text', text: 'Hi', citations: null },
        { text: 'Hi', type: 'text' },
        { type: 'thinking', thinking: 'Hi' },
        { type: 'text', text: 'Hi' },
      ]),
    );
    expect(texts(kept)).toEqual([
      { type: 'text', text: 'Hi', citations: null },
      { text: 'Hi', type: 'text' },
      { type: 'thinking', thinking: 'Hi' },
    ]);
  });

  it('never takes a text block for another block whose JSON reads like its key', () => {
    const dedup = new ReplyDedup();
    // The text key of the first is `T` + its text: the JSON of a block always starts with `{`.
    dedup.filter(reply('m1', [{ type: 'text', text: '{"type":"tool_use"}' }]));
    expect(texts(dedup.filter(reply('m1', [{ type: 'tool_use' }])))).toEqual([{ type: 'tool_use' }]);
    expect(texts(dedup.filter(reply('m1', ['T{"type":"tool_use"}'])))).toEqual(['T{"type":"tool_use"}']);
  });

  it('passes user messages and replies without an id through', () => {
    const dedup = new ReplyDedup();
    const user = { type: 'user', message: { content: [{ type: 'text', text: 'x' }] } };
    expect(dedup.filter(user)).toBe(user);
    expect(dedup.filter(user)).toBe(user);
  });
});
