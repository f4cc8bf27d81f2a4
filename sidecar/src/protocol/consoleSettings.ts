// The console's settings, kept in one file in Baton's data dir so they survive a restart: the defaults a new
// session starts with, the theme, whether Baton notifies, and how long an open session may idle before it sleeps.
// worktrees is a slot for the worktree defaults (their own helper fills it in); it is kept as saved.
import { z } from 'zod';
import { type ConsoleCall, count, emptySchema } from './consoleShared.js';
import { permissionModeSchema } from './events.js';

export const themeSchema = z.enum(['system', 'light', 'dark']).describe('is the console theme: the OS choice, or light or dark');
export const worktreeDefaultsSchema = z.strictObject({}).describe('is the worktree defaults for new sessions (a slot: none yet)');
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
