// The mapper's zod shortcuts (fastParse.ts) must judge every message and block of the corpus as the schemas do.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkAssistantBlock,
  checkAssistantMessage,
  checkOwnAssistantBlock,
  checkStreamEvent,
  checkTimestamp,
  checkUserBlock,
  checkUserMessage,
  readApiUsage,
  readFileChange,
} from '../../src/mapper/fastParse.js';
import {
  apiUsageSchema,
  assistantBlockSchema,
  assistantMessageSchema,
  fileChangeResultSchema,
  streamEventMessageSchema,
  timestampedSchema,
  userBlockSchema,
  userMessageSchema,
} from '../../src/mapper/sdkSchemas.js';
import { toSdkMessage } from '../../src/history/transcriptEntry.js';
import { isoTime } from '../../src/mapper/writtenTime.js';

function transcripts(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? transcripts(path) : name.endsWith('.jsonl') ? [path] : [];
  });
}

const same = (a: { success: boolean; data?: unknown }, b: { success: boolean; data?: unknown }) => {
  expect(a.success).toBe(b.success);
  // The same fields and values (zod lists the fields it checks first; no output reads the order).
  if (a.success) expect(a.data).toStrictEqual(b.data);
};

/** same, and the same JSON text: a tool call's input is written as it is. */
const sameJson = (a: { success: boolean; data?: unknown }, b: { success: boolean; data?: unknown }) => {
  same(a, b);
  if (a.success) expect(JSON.stringify(a.data)).toBe(JSON.stringify(b.data));
};

describe('fastParse', () => {
  it('agrees with the schemas on every corpus line and block', () => {
    let checked = 0;
    let usages = 0;
    let toolCalls = 0;
    let fileChanges = 0;
    let times = 0;
    for (const file of transcripts('testdata/corpus')) {
      for (const text of readFileSync(file, 'utf8').split('\n')) {
        let line: unknown;
        try {
          line = JSON.parse(text);
        } catch {
          continue;
        }
        if (typeof line !== 'object' || line === null) continue;
        const message = toSdkMessage(line, {}) ?? line;
        same(checkUserMessage(message), userMessageSchema.safeParse(message));
        same(checkAssistantMessage(message), assistantMessageSchema.safeParse(message));
        expect(checkTimestamp((message as { timestamp?: unknown }).timestamp)).toBe(
          timestampedSchema.shape.timestamp.safeParse((message as { timestamp?: unknown }).timestamp).data,
        );
        const timestamp = checkTimestamp((message as { timestamp?: unknown }).timestamp);
        if (timestamp !== undefined) {
          expect(isoTime(timestamp)).toBe(new Date(timestamp).toISOString());
          times++;
        }
        const result = (line as { toolUseResult?: unknown }).toolUseResult;
        if (readFileChange(result) === result) fileChanges++;
        expect(readFileChange(result)).toStrictEqual(fileChangeResultSchema.safeParse(result).data);
        const usage = (message as { message?: { usage?: unknown } }).message?.usage;
        if (usage !== undefined) usages++;
        expect(readApiUsage(usage)).toStrictEqual(apiUsageSchema.safeParse(usage).data);
        const content = (message as { message?: { content?: unknown } }).message?.content;
        for (const block of Array.isArray(content) ? content : []) {
          same(checkAssistantBlock(block), assistantBlockSchema.safeParse(block));
          sameJson(checkOwnAssistantBlock(block), assistantBlockSchema.safeParse(block));
          const own = checkOwnAssistantBlock(block);
          if (own.success && own.data === block && own.data.type === 'tool_use') toolCalls++;
          same(checkUserBlock(block), userBlockSchema.safeParse(block));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(usages).toBeGreaterThan(50);
    expect(toolCalls).toBeGreaterThan(20);
    expect(fileChanges).toBeGreaterThan(0);
    expect(times).toBeGreaterThan(100);
  });

  it('reads a usage as the schema does, count by count', () => {
    const counts: unknown[] = [0, -0, 7, 1.5, -1, 2 ** 53 - 1, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '1', true, null, undefined, {}];
    const keys = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'];
    for (const count of counts) {
      for (const key of keys) {
        const usage = { input_tokens: 1, output_tokens: 2, [key]: count, server_tool_use: { web_search_requests: 0 } };
        expect(readApiUsage(usage)).toStrictEqual(apiUsageSchema.safeParse(usage).data);
      }
    }
    for (const odd of [null, [], 'x', 3]) expect(readApiUsage(odd)).toStrictEqual(apiUsageSchema.safeParse(odd).data);
  });

  it('reads a file change as the schema does', () => {
    const results: unknown[] = [
      { filePath: '/a', originalFile: 'before', structuredPatch: [{ lines: ['-x', '+y'] }] },
      { filePath: '/a', originalFile: null, type: 'create' },
      { filePath: '', originalFile: 'x' },
      { filePath: '/a' },
      { filePath: '/a', originalFile: 3 },
      { filePath: 7, originalFile: 'x' },
      JSON.parse('{"__proto__":{"filePath":"/p","originalFile":"x"}}'),
      null,
      [],
      'x',
      undefined,
    ];
    const read = results.map((r) => readFileChange(r));
    for (const [i, r] of results.entries()) expect(read[i]).toStrictEqual(fileChangeResultSchema.safeParse(r).data);
    expect(read.filter((r) => r !== undefined)).toHaveLength(2);
  });

  it('leaves odd shapes to zod', () => {
    const odd: unknown[] = [
      null,
      [],
      'x',
      { type: 'user', message: { role: 'user', content: 1 } },
      { type: 'assistant', apiErrorStatus: 1.5, message: { id: 'm', model: 'x', content: [] } },
      { type: 'tool_result', tool_use_id: '' },
      { type: 'tool_result', tool_use_id: 't', content: [1] },
      { type: 'text', text: 3 },
    ];
    for (const v of odd) {
      same(checkUserMessage(v), userMessageSchema.safeParse(v));
      same(checkAssistantMessage(v), assistantMessageSchema.safeParse(v));
      same(checkUserBlock(v), userBlockSchema.safeParse(v));
      same(checkAssistantBlock(v), assistantBlockSchema.safeParse(v));
    }
    expect(checkTimestamp('2026-02-30T00:00:00Z')).toBeUndefined();
  });

  it("judges a tool call's input as z.json() does, hostile ones too", () => {
    const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : depth % 2 === 0 ? [nested(depth - 1)] : { k: nested(depth - 1) });
    class Point {
      x = 1;
    }
    const symbolKey = { a: 1, [Symbol('s')]: 2 };
    const hidden = Object.defineProperty({ a: 1 }, 'b', { value: 2, enumerable: false });
    const getter = Object.defineProperty({ a: 1 }, 'b', { get: () => 2, enumerable: true });
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    const holed: number[] = new Array(3);
    holed[0] = 1;
    holed[2] = 3;
    const inputs: unknown[] = [
      { file_path: '/x', content: 'y', n: 3, ok: true, none: null },
      {},
      [],
      'text',
      -0,
      JSON.parse('{"a":1,"__proto__":{"polluted":true}}'),
      JSON.parse('{"a":{"__proto__":[1]}}'),
      JSON.parse('[1e400]'),
      JSON.parse('{"big":-1e999}'),
      { constructor: 'x' },
      { constructor: {} },
      [[[1, [2, [3]]]], { a: [[]] }],
      holed,
      [1, undefined],
      { a: undefined },
      Number.NaN,
      Number.POSITIVE_INFINITY,
      10n,
      Symbol('s'),
      () => 1,
      new Date(0),
      new Map([['a', 1]]),
      new Point(),
      new String('s'),
      new (class extends Array {})(),
      symbolKey,
      hidden,
      getter,
      bare,
      nested(63),
      nested(64),
      nested(65),
      nested(500),
      'x'.repeat(1 << 20),
      Array.from({ length: 100_000 }, (_, i) => i / 3),
      Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, { v: [i, `${i}`] }])),
      undefined,
    ];
    let passed = 0;
    for (const input of inputs) {
      const block = { type: 'tool_use', id: 'toolu_1', name: 'Write', input, caller: { type: 'direct' } };
      const fast = checkOwnAssistantBlock(block);
      const zod = assistantBlockSchema.safeParse(block);
      expect(fast.success, String(typeof input)).toBe(zod.success);
      if (!fast.success) continue;
      expect(JSON.stringify(fast.data)).toBe(JSON.stringify(zod.data));
      if (fast.data !== block) continue; // zod's copy both ways (toStrictEqual misreads an own `constructor` key)
      expect(fast.data).toStrictEqual(zod.data);
      passed++;
    }
    // The plain ones (the first five, the nested arrays, 63 and 64 levels deep, the huge ones) pass by hand; the rest are zod's.
    expect(passed).toBe(11);
    for (const odd of [
      { type: 'tool_use', id: '', name: 'x', input: {} },
      { type: 'tool_use', id: 'i', name: 3, input: {} },
      { type: 'tool_use', id: 'i', name: 'x' },
    ]) {
      same(checkOwnAssistantBlock(odd), assistantBlockSchema.safeParse(odd));
    }
  });

  // Stream events parse in strip mode: the shortcut passes the message itself, whose named fields are zod's copy.
  it('judges stream events as the schema does', () => {
    const piece = (event: unknown, extra: Record<string, unknown> = {}) => ({
      type: 'stream_event',
      parent_tool_use_id: null,
      uuid: 'u',
      session_id: 's',
      event,
      ...extra,
    });
    const text = (delta: unknown, index: unknown = 0) => piece({ type: 'content_block_delta', index, delta });
    const cases: unknown[] = [
      text({ type: 'text_delta', text: 'word ' }),
      text({ type: 'text_delta', text: '' }, 7),
      text({ type: 'text_delta', text: 'x', extra: 1 }),
      piece({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }, { parent_tool_use_id: 'toolu_1' }),
      piece({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }, { parent_tool_use_id: undefined }),
      piece({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }, { parent_tool_use_id: 5 }),
      text({ type: 'text_delta', text: 3 }),
      text({ type: 'text_delta' }),
      text({ type: 'thinking_delta', thinking: 'hm' }),
      text({ type: 'text_delta', text: 'x' }, -1),
      text({ type: 'text_delta', text: 'x' }, 1.5),
      text({ type: 'text_delta', text: 'x' }, Number.NaN),
      text({ type: 'text_delta', text: 'x' }, 2 ** 60),
      text({ type: 'text_delta', text: 'x' }, '0'),
      text(null),
      piece(null),
      piece({ type: 'content_block_stop', index: 0 }),
      { type: 'stream_evnt', event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } } },
      null,
      [],
    ];
    for (const m of cases) {
      const fast = checkStreamEvent(m);
      const zod = streamEventMessageSchema.safeParse(m);
      expect(fast.success, JSON.stringify(m)).toBe(zod.success);
      if (fast.success) expect(streamEventMessageSchema.parse(fast.data)).toStrictEqual(zod.data);
    }
  });
});
