// The composer's @-mentions: the files and folders of a session's folder ranked against what was typed after "@"
// (Go: app/filefind, cached per folder; .gitignore respected in a git work tree).
import { z } from 'zod';
import { type ConsoleCall, count } from './consoleShared.js';

export const findFilesParamsSchema = z
  .strictObject({
    cwd: z.string(),
    query: z.string(),
    limit: z.number().int().positive().max(200).optional(),
    complete: z.boolean().optional(),
  })
  .describe(
    'asks for the entries of folder cwd that best match query (at most limit, 50 when absent); complete waits for the folder’s whole listing, else a first listing still being made answers from what it has',
  );
export const fileMatchSchema = z
  .strictObject({ path: z.string(), dir: z.boolean() })
  .describe('is one file or folder, its path relative to the folder with "/" separators');
export const findFilesResultSchema = z
  .strictObject({ matches: z.array(fileMatchSchema), listed: count, truncated: z.boolean(), git: z.boolean(), partial: z.boolean() })
  .describe(
    'is the best matches first; listed counts the folder’s entries, truncated says the listing was cut, git that .gitignore was respected, partial that the listing was still being made (ask again with complete for the rest)',
  );

export const FILES_NAMED: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['FindFilesParams', findFilesParamsSchema],
  ['FileMatch', fileMatchSchema],
  ['FindFilesResult', findFilesResultSchema],
];

export const FILES_CALLS = {
  findFiles: {
    params: findFilesParamsSchema,
    result: findFilesResultSchema,
    doc: 'The files and folders of a folder best matching a typed query (@-mentions).',
  },
} as const satisfies Record<string, ConsoleCall>;
