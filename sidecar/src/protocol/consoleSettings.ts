// The console's settings, kept in one file in Baton's data dir so they survive a restart: the defaults a new
// session starts with, the theme, whether Baton notifies, how long an open session may idle before it sleeps, and
// whether a new session gets its own git worktree (and the prefix of the branch named for it).
import { z } from 'zod';
import { type ConsoleCall, count, emptySchema } from './consoleShared.js';
import { permissionModeSchema } from './events.js';

export const themeSchema = z.enum(['system', 'light', 'dark']).describe('is the console theme: the OS choice, or light or dark');
export const worktreeDefaultsSchema = z
  .strictObject({
    startInWorktree: z.boolean().describe('says whether the new-session dialog starts a session in a git worktree of its own'),
    branchPrefix: z
      .string()
      .describe('starts the name of a new session branch named from the prompt, where the repository sets no baton.branchPrefix ("": none)'),
  })
  .describe('is the worktree defaults for new sessions started from the console');
export const settingsSchema = z
  .strictObject({
    defaultModel: z.string().describe('is the model a new session starts with ("default": the CLI default)'),
    defaultPermissionMode: permissionModeSchema,
    theme: themeSchema,
    notifications: z.boolean().describe('says whether Baton notifies when a session needs you or finishes'),
    sessionIdleSeconds: count.describe('is how long an open session may sit idle before it sleeps (0: never)'),
    worktrees: worktreeDefaultsSchema,
  })
  .describe('is the console settings, saved in Baton’s data dir');

export const SETTINGS_NAMED: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['Theme', themeSchema],
  ['WorktreeDefaults', worktreeDefaultsSchema],
  ['Settings', settingsSchema],
];

export const SETTINGS_CALLS = {
  getSettings: { params: emptySchema, result: settingsSchema, doc: 'The saved settings (defaults where none were saved).' },
  saveSettings: { params: settingsSchema, result: settingsSchema, doc: 'Saves the settings in Baton’s data dir and applies the idle time.' },
} satisfies Record<string, ConsoleCall>;
