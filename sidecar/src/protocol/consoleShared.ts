// Shapes every part of the console API uses. An area's calls live in a file of their own (console<Area>.ts) that
// imports these and exports its named shapes and calls; console.ts spreads them into the one contract. Keeping the
// shared base here, not in console.ts, lets an area file be imported by console.ts without an import cycle.
import { z } from 'zod';

export const count = z.number().int().nonnegative();
export const emptySchema = z.strictObject({}).describe('is the params or result of calls that carry nothing');
export const sessionRefSchema = z.strictObject({ session: z.string() }).describe('names a session');

/** One call: its params and result (named shapes, of the console or of the wire) and one line for API.md. */
export interface ConsoleCall {
  params: z.ZodType;
  result: z.ZodType;
  doc: string;
}
