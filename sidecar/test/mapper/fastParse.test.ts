// The mapper's zod shortcuts (fastParse.ts) must judge every message and block of the corpus as the schemas do.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAssistantBlock, checkAssistantMessage, checkTimestamp, checkUserBlock, checkUserMessage } from '../../src/mapper/fastParse.js';
import { assistantBlockSchema, assistantMessageSchema, timestampedSchema, userBlockSchema, userMessageSchema } from '../../src/mapper/sdkSchemas.js';
import { toSdkMessage } from '../../src/history/transcriptEntry.js';

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

describe('fastParse', () => {
  it('agrees with the schemas on every corpus line and block', () => {
    let checked = 0;
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
        const content = (message as { message?: { content?: unknown } }).message?.content;
        for (const block of Array.isArray(content) ? content : []) {
          same(checkAssistantBlock(block), assistantBlockSchema.safeParse(block));
          same(checkUserBlock(block), userBlockSchema.safeParse(block));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
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
});
