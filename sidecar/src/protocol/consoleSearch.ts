// The console's search and usage calls (issue 29): full-text search over every stored session and usage totals,
// both answered from Baton's index as it is now.
import { z } from 'zod';
import { type ConsoleCall, count } from './consoleShared.js';

const isoTime = z.iso.datetime({ offset: true });

export const searchParamsSchema = z
  .strictObject({
    /** Every word must be in one message or tool call; case does not matter; a word of 3 characters at least. */
    query: z.string(),
    /** Only sessions of this project folder. */
    cwd: z.string().optional(),
    since: isoTime.optional(),
    until: isoTime.optional(),
    /** Only this session's hits, in the order of its history (an in-session find); without it, every session's,
     * newest session first. */
    session: z.string().optional(),
    /** At most this many hits (default 50). */
    limit: count.optional(),
  })
  .describe('is what to search for, and where');
export const searchMarkSchema = z.strictObject({ start: count, end: count }).describe('is a match in a snippet (byte offsets)');
export const searchHitSchema = z
  .strictObject({
    session: z.string(),
    title: z.string(),
    cwd: z.string(),
    /** The item's position in the session's history (a history page's start counts the same way). */
    position: count,
    uuid: z.string().optional(),
    time: z.string(),
    /** user, assistant, thinking, tool, tool output, summary or command. */
    role: z.string(),
    subagent: z.literal(true).optional(),
    snippet: z.string(),
    marks: z.array(searchMarkSchema),
  })
  .describe('is one message or tool call that holds every word');
export const searchResultSchema = z
  .strictObject({
    hits: z.array(searchHitSchema),
    /** The index is still being built: sessions not indexed yet are not searched. */
    indexing: z.boolean(),
  })
  .describe('is what a search found');

export const usageBySchema = z.enum(['day', 'week', 'month', 'project', 'model', 'session']).describe('is how usage is grouped');
export const usageParamsSchema = z
  .strictObject({
    by: usageBySchema,
    since: isoTime.optional(),
    until: isoTime.optional(),
    /** Only this session's usage (the session header's total). */
    session: z.string().optional(),
  })
  .describe('is which usage to total and how');
export const usageRowSchema = z
  .strictObject({
    key: z.string(),
    inputTokens: count,
    outputTokens: count,
    cacheReadTokens: count,
    cacheWriteTokens: count,
    /** What Claude Code reported for the turns, plus estimates for the rest. */
    costUsd: z.number().nonnegative(),
    /** The part of costUsd estimated from the price table. */
    estimatedUsd: z.number().nonnegative(),
    /** Tokens of models the price table has no price for: in no cost. */
    unpricedTokens: count,
  })
  .describe("is one group's tokens and cost");
export const usageResultSchema = z
  .strictObject({
    by: usageBySchema,
    rows: z.array(usageRowSchema),
    total: usageRowSchema,
    /** The price table's date and the SDK version it is kept with. */
    pricesDate: z.string(),
    pricesSdk: z.string(),
  })
  .describe('is usage totals by group');

export const SEARCH_NAMED: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['SearchParams', searchParamsSchema],
  ['SearchMark', searchMarkSchema],
  ['SearchHit', searchHitSchema],
  ['SearchResult', searchResultSchema],
  ['UsageBy', usageBySchema],
  ['UsageParams', usageParamsSchema],
  ['UsageRow', usageRowSchema],
  ['UsageResult', usageResultSchema],
];

export const SEARCH_CALLS = {
  searchSessions: { params: searchParamsSchema, result: searchResultSchema, doc: 'Messages and tool calls of every stored session that hold every word.' },
  usageReport: { params: usageParamsSchema, result: usageResultSchema, doc: 'Tokens and cost by day, week, month, project, model or session.' },
} as const satisfies Record<string, ConsoleCall>;
