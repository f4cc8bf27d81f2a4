// The goal `/goal` set, as Claude Code files it in the session's transcript: `goal_status` attachments (set, not
// met yet with the evaluator's reason, met, failed). getSessionMessages leaves attachments out, so they are read
// from the transcript file itself. The SDK's `active_goal` messages are the live signal, but a headless CLI does
// not send them: these attachments are what both live sessions and history read.
import { watch } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { GoalObservation } from '../mapper/background.js';

export type { GoalObservation } from '../mapper/background.js';

const goalStatusLine = z.looseObject({
  type: z.literal('attachment'),
  uuid: z.string().min(1),
  timestamp: z.iso.datetime({ offset: true }),
  attachment: z.looseObject({
    type: z.literal('goal_status'),
    met: z.boolean(),
    condition: z.string(),
    sentinel: z.boolean().optional(),
    failed: z.boolean().optional(),
    reason: z.string().optional(),
    iterations: z.number().int().nonnegative().optional(),
  }),
});

/** The config dir the CLI and the SDK's session functions use (the sidecar's own environment). */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env['CLAUDE_CONFIG_DIR'] ?? join(homedir(), '.claude');
}

/** The goal statuses of a session's transcript, oldest first; none when the transcript is not found. */
export async function readGoalStatuses(session: string, configDir: string = claudeConfigDir()): Promise<GoalObservation[]> {
  const text = await readTranscript(session, configDir);
  if (text === undefined) return [];
  return parseGoalStatuses(text);
}

export function parseGoalStatuses(text: string): GoalObservation[] {
  const out: GoalObservation[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('"goal_status"')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a torn last line while the CLI writes
    }
    const parsed = goalStatusLine.safeParse(value);
    if (!parsed.success) continue;
    const { uuid, timestamp, attachment: a } = parsed.data;
    out.push({
      uuid,
      timestamp,
      condition: a.condition,
      met: a.met,
      ...(a.sentinel === true ? { sentinel: true } : {}),
      ...(a.failed === true ? { failed: true } : {}),
      ...(a.reason !== undefined ? { reason: a.reason } : {}),
      ...(a.iterations !== undefined ? { iterations: a.iterations } : {}),
    });
  }
  return out;
}

/**
 * Calls onChange whenever the session's transcript file changes (Claude Code appends to it); returns how to stop
 * watching, or undefined when there is no transcript (yet).
 */
export async function watchTranscript(session: string, onChange: () => void, configDir: string = claudeConfigDir()): Promise<(() => void) | undefined> {
  const path = (await findTranscript(session, configDir))?.path;
  if (path === undefined) return undefined;
  const watcher = watch(path, { persistent: false }, () => onChange());
  watcher.on('error', () => watcher.close()); // the file went away (the session was deleted)
  return () => watcher.close();
}

async function readTranscript(session: string, configDir: string): Promise<string | undefined> {
  return (await findTranscript(session, configDir))?.text;
}

/**
 * The path of a session's transcript: in its project's folder when `cwd` is known (Claude Code's key: every
 * character but letters and digits becomes '-'), else in whichever project folder holds it.
 */
export async function transcriptPath(session: string, cwd?: string, configDir: string = claudeConfigDir()): Promise<string | undefined> {
  const projects = join(configDir, 'projects');
  const candidates = cwd !== undefined ? [cwd.replace(/[^a-zA-Z0-9]/g, '-')] : [];
  try {
    candidates.push(...(await readdir(projects)));
  } catch {
    return undefined;
  }
  for (const dir of candidates) {
    const path = join(projects, dir, `${session}.jsonl`);
    try {
      if ((await stat(path)).isFile()) return path;
    } catch {
      // not in this project
    }
  }
  return undefined;
}

/** The transcript lives in projects/<project key>/<session>.jsonl; the key is Claude Code's, so every project is looked in. */
async function findTranscript(session: string, configDir: string): Promise<{ path: string; text: string } | undefined> {
  const projects = join(configDir, 'projects');
  let dirs: string[];
  try {
    dirs = await readdir(projects);
  } catch {
    return undefined;
  }
  for (const dir of dirs) {
    const path = join(projects, dir, `${session}.jsonl`);
    try {
      return { path, text: await readFile(path, 'utf8') };
    } catch {
      // not in this project
    }
  }
  return undefined;
}
